package corpus

import (
	"errors"
	"log"
	"os"
	"testing"

	"corpus/lib"

	"github.com/gpukvet/gpukvet/device"
)

// verdict: clean
func cleanDeferAfterCheck(d *device.Device, xs []float32) ([]float32, error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer x.Free()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		return nil, err
	}
	return x.Download()
}

// verdict: clean
func cleanDeferredClosureKeepsError(d *device.Device, n int) (err error) {
	x, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	defer func() {
		if ferr := x.Free(); ferr != nil && err == nil {
			err = ferr
		}
	}()
	return d.Launch(Scale, grid(n), block, float32(2), x)
}

// verdict: clean
func cleanFreeEveryBranch(d *device.Device, n int, check bool) error {
	x, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(n), block, float32(2), x); err != nil {
		x.Free()
		return err
	}
	if check {
		out, err := x.Download()
		if err != nil {
			x.Free()
			return err
		}
		if len(out) != n {
			x.Free()
			return errors.New("short")
		}
	}
	if err := x.Free(); err != nil {
		return err
	}
	return nil
}

// verdict: clean
func cleanReturnedToCaller(d *device.Device, xs []float32) (*device.Buffer[float32], error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		x.Free()
		return nil, err
	}
	return x, nil
}

// verdict: clean
func cleanOwnerConstructor(d *device.Device, n int) (*Holder, error) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	return &Holder{buf: b, name: "scratch"}, nil
}

// verdict: clean
func cleanOwnerClosed(d *device.Device) error {
	h, err := cleanOwnerConstructor(d, 8)
	if err != nil {
		return err
	}
	defer h.Close()
	return d.Launch(Scale, one, one, float32(1), h.buf)
}

// verdict: clean
func cleanOwnerValue(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	h := Holder{buf: b}
	defer h.Close()
	return d.Sync()
}

// verdict: clean
func cleanSliceFreedInLoop(d *device.Device, batches [][]float32) error {
	var bufs []*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	return d.Sync()
}

// verdict: clean
func cleanPool(d *device.Device, n int) error {
	var pool Pool
	defer pool.Release()
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		pool.Add(b)
	}
	return nil
}

// verdict: clean
func cleanOtherPackageOwner(d *device.Device) error {
	p, err := lib.NewPair(d, 8)
	if err != nil {
		return err
	}
	defer p.Close()
	return d.Launch(Add, one, one, p.X, p.X, p.Y)
}

// verdict: clean
func cleanRegistered(d *device.Device) error {
	b, err := lib.NewBuf(d, 8)
	if err != nil {
		return err
	}
	lib.Register("weights", b)
	return nil
}

// verdict: clean
func cleanHelperFrees(d *device.Device) float32 {
	b, err := newScratch(d, 8)
	if err != nil {
		return 0
	}
	s := lib.Sum(b)
	release(b)
	return s
}

// verdict: clean
func cleanSentOnChannel(d *device.Device, out chan<- *device.Buffer[float32]) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	out <- b
	return nil
}

// verdict: clean
func cleanSelectSendOrFree(d *device.Device, out chan<- *device.Buffer[float32], done <-chan struct{}) {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return
	}
	select {
	case out <- b:
	case <-done:
		b.Free()
	}
}

// verdict: clean
func cleanGoroutineFrees(d *device.Device, wait <-chan struct{}) {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return
	}
	go func() {
		<-wait
		b.Free()
	}()
}

// verdict: clean
func cleanTestCleanup(t *testing.T, d *device.Device) *device.Buffer[float32] {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		t.Fatalf("alloc: %v", err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

// verdict: clean
func cleanNilCheck(d *device.Device) {
	b, _ := device.Alloc[float32](d, 8)
	if b == nil {
		return
	}
	defer b.Free()
	_ = b.Len()
}

// verdict: clean
func cleanPanicAndFatalPaths(d *device.Device) {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		panic(err)
	}
	if err := d.Launch(Scale, one, one, float32(1), b); err != nil {
		log.Fatalf("launch: %v", err)
	}
	if err := d.Sync(); err != nil {
		os.Exit(1)
	}
	b.Free()
}

// verdict: clean
func cleanErrEqualNil(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err == nil {
		defer b.Free()
		err = d.Sync()
	}
	return err
}

// verdict: clean
func cleanReallocAfterFree(d *device.Device, sizes []int) error {
	for _, n := range sizes {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		err = d.Launch(Scale, grid(n), block, float32(2), b)
		if ferr := b.Free(); err == nil {
			err = ferr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// verdict: clean
func cleanEitherAllocation(d *device.Device, big bool) error {
	var b *device.Buffer[float32]
	var err error
	if big {
		b, err = device.Alloc[float32](d, 1<<20)
	} else {
		b, err = device.Upload(d, []float32{1, 2, 3})
	}
	if err != nil {
		return err
	}
	return b.Free()
}

// verdict: clean
func cleanCleanupFunc(d *device.Device, n int) error {
	x, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	y, err := device.Alloc[float32](d, n)
	if err != nil {
		x.Free()
		return err
	}
	cleanup := func() {
		x.Free()
		y.Free()
	}
	if err := d.Launch(Add, grid(n), block, x, x, y); err != nil {
		cleanup()
		return err
	}
	cleanup()
	return nil
}

// verdict: clean
func cleanDeferInLoop(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		defer b.Free()
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: clean
func cleanSwitchEveryCase(d *device.Device, mode int) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	switch mode {
	case 0:
		return b.Free()
	case 1:
		defer b.Free()
		return d.Sync()
	default:
		b.Free()
		return errors.New("unknown mode")
	}
}

// verdict: clean
func cleanFreeErrorChecked(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, one, one, float32(3), b); err != nil {
		if ferr := b.Free(); ferr != nil {
			return errors.Join(err, ferr)
		}
		return err
	}
	if err := b.Free(); err != nil {
		return err
	}
	return nil
}

// verdict: clean
func cleanReassignedAfterFree(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	b.Free()
	b, err = device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	defer b.Free()
	return d.Launch(Scale, one, one, float32(1), b)
}

// verdict: clean
func cleanFieldStoreIntoOwner(d *device.Device) error {
	h := &Holder{name: "late"}
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	h.buf = b
	defer h.Close()
	return d.Sync()
}

// verdict: clean
func cleanThreeBuffers(d *device.Device, xs, ys []float32) ([]float32, error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer x.Free()
	y, err := device.Upload(d, ys)
	if err != nil {
		return nil, err
	}
	defer y.Free()
	out, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		return nil, err
	}
	defer out.Free()
	if err := d.Launch(Add, grid(len(xs)), block, x, y, out); err != nil {
		return nil, err
	}
	return out.Download()
}

// verdict: clean
func cleanFreedByLiteralCall(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	func() {
		defer b.Free()
		_ = b.Len()
	}()
	return nil
}

// verdict: clean
func cleanConditionalAllocation(d *device.Device, xs []float32, onDevice bool) ([]float32, error) {
	var b *device.Buffer[float32]
	if onDevice {
		var err error
		if b, err = device.Upload(d, xs); err != nil {
			return nil, err
		}
	}
	if onDevice {
		defer b.Free()
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
			return nil, err
		}
		return b.Download()
	}
	for i := range xs {
		xs[i] *= 2
	}
	return xs, nil
}

// verdict: clean
func cleanOwnerFieldBeforeClose(d *device.Device) ([]float32, error) {
	p, err := lib.NewPair(d, 8)
	if err != nil {
		return nil, err
	}
	out, err := p.X.Download()
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	return out, err
}

// verdict: clean
func cleanReturnedFreedOnlyOnError(d *device.Device, xs []float32) (x *device.Buffer[float32], err error) {
	x, err = device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			x.Free()
		}
	}()
	err = d.Launch(Scale, grid(len(xs)), block, float32(2), x)
	return x, err
}

// verdict: clean
func cleanBatchFreedOnPartialFailure(d *device.Device, batches [][]float32) ([]*device.Buffer[float32], error) {
	bufs := make([]*device.Buffer[float32], len(batches))
	for i, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			for _, b := range bufs[:i] {
				b.Free()
			}
			return nil, err
		}
		bufs[i] = b
	}
	return bufs, nil
}

// verdict: clean
func cleanSliceReleasedByDeferredHelper(d *device.Device, batches [][]float32) error {
	var bufs []*device.Buffer[float32]
	defer func() { releaseAll(bufs) }()
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	return d.Sync()
}

func releaseAll(bufs []*device.Buffer[float32]) {
	for i := len(bufs) - 1; i >= 0; i-- {
		bufs[i].Free()
	}
}

// verdict: clean
func cleanFreeEarlyWithGuardedDefer(d *device.Device, xs []float32) ([]float32, error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer func() {
		if x != nil {
			x.Free()
		}
	}()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		return nil, err
	}
	out, err := x.Download()
	if err != nil {
		return nil, err
	}
	if err := x.Free(); err != nil {
		return nil, err
	}
	x = nil
	return out, d.Sync()
}

// verdict: clean
func cleanDeferredDownloadThenDeferredFree(d *device.Device, xs []float32) (out []float32, err error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer x.Free()
	defer func() {
		if err == nil {
			out, err = x.Download()
		}
	}()
	return nil, d.Launch(Scale, grid(len(xs)), block, float32(2), x)
}
