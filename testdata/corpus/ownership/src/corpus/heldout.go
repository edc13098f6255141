package corpus

// Held-out programs (HELDOUT-host.md): written without reading the
// analyzer, to score it on code it was not tuned on.

import (
	"fmt"
	"sync"

	"corpus/lib"

	"github.com/gpukvet/gpukvet/device"
)

// ---- helpers used by the held-out programs (no verdict) ----

// uploadAs is a generic helper returning a new buffer with a wrapped error.
func uploadAs[T any](d *device.Device, xs []T, what string) (*device.Buffer[T], error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, fmt.Errorf("upload %s: %w", what, err)
	}
	return b, nil
}

// allocZeroed allocates n zeroed floats, wrapping the error.
func allocZeroed(d *device.Device, n int) (*device.Buffer[float32], error) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, fmt.Errorf("alloc %d floats: %w", n, err)
	}
	return b, nil
}

// Stage owns three buffers; Close frees them.
type Stage struct {
	in, tmp, out *device.Buffer[float32]
}

func (s *Stage) Close() error {
	s.in.Free()
	s.tmp.Free()
	return s.out.Free()
}

// newStageCareful frees what it has on every partial failure.
func newStageCareful(d *device.Device, xs []float32) (*Stage, error) {
	in, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	tmp, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		in.Free()
		return nil, err
	}
	out, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		in.Free()
		tmp.Free()
		return nil, err
	}
	return &Stage{in: in, tmp: tmp, out: out}, nil
}

// consume takes ownership of b through a nested call.
func consume(b *device.Buffer[float32]) { release(b) }

// ---- ownership held-out programs ----

// verdict: clean
func hoGenericUploadDeferred(d *device.Device, xs []float32) (float32, error) {
	b, err := uploadAs(d, xs, "xs")
	if err != nil {
		return 0, err
	}
	defer b.Free()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(3), b); err != nil {
		return 0, fmt.Errorf("scale: %w", err)
	}
	return lib.Sum(b), nil
}

// verdict: leak
func hoGenericUploadLeakWhenEmpty(d *device.Device, xs []int32) error {
	b, err := uploadAs(d, xs, "ints")
	if err != nil {
		return err
	}
	if b.Len() == 0 {
		return fmt.Errorf("empty input")
	}
	return b.Free()
}

// verdict: clean
func hoStageConstructorUsed(d *device.Device, xs []float32) error {
	s, err := newStageCareful(d, xs)
	if err != nil {
		return err
	}
	defer s.Close()
	return d.Launch(Add, grid(len(xs)), block, s.in, s.tmp, s.out)
}

// verdict: leak
func hoStageConstructorForgetsFirst(d *device.Device, xs []float32) (*Stage, error) {
	in, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	tmp, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		in.Free()
		return nil, err
	}
	out, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		tmp.Free()
		return nil, fmt.Errorf("out: %w", err)
	}
	return &Stage{in: in, tmp: tmp, out: out}, nil
}

// verdict: leak
func hoStageNeverClosed(d *device.Device, xs []float32) error {
	s, err := newStageCareful(d, xs)
	if err != nil {
		return err
	}
	return d.Launch(Add, grid(len(xs)), block, s.in, s.tmp, s.out)
}

// verdict: clean
func hoPingPong(d *device.Device, xs []float32, steps int) ([]float32, error) {
	a, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	b, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		a.Free()
		return nil, err
	}
	defer a.Free()
	defer b.Free()
	for i := 0; i < steps; i++ {
		if err := d.Launch(Add, grid(len(xs)), block, a, a, b); err != nil {
			return nil, err
		}
		a, b = b, a
	}
	return a.Download()
}

// verdict: leak
func hoPingPongLeakOnError(d *device.Device, xs []float32, steps int) ([]float32, error) {
	a, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	b, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		a.Free()
		return nil, err
	}
	for i := 0; i < steps; i++ {
		if err := d.Launch(Add, grid(len(xs)), block, a, a, b); err != nil {
			return nil, err
		}
		a, b = b, a
	}
	out, err := a.Download()
	a.Free()
	b.Free()
	return out, err
}

// verdict: clean
func hoMapOfBuffersFreed(d *device.Device, names []string, n int) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for _, name := range names {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		bufs[name] = b
	}
	return nil
}

// verdict: clean
func hoDeferInLoopClosure(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		err := func() error {
			b, err := device.Upload(d, xs)
			if err != nil {
				return err
			}
			defer b.Free()
			return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// verdict: leak
func hoContinueSkipsFree(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		if len(xs) < 256 {
			continue
		}
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
			b.Free()
			return err
		}
		b.Free()
	}
	return nil
}

// verdict: clean
func hoContinueAfterFree(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		if len(xs) < 256 {
			b.Free()
			continue
		}
		err = d.Launch(Scale, grid(len(xs)), block, float32(2), b)
		b.Free()
		if err != nil {
			return err
		}
	}
	return nil
}

// verdict: leak
func hoReassignWithoutFree(d *device.Device, xs, ys []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		b.Free()
		return err
	}
	b, err = device.Upload(d, ys)
	if err != nil {
		return err
	}
	defer b.Free()
	return d.Launch(Scale, grid(len(ys)), block, float32(2), b)
}

// verdict: leak
func hoFreeOnlyOnSuccess(d *device.Device, xs []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	out, err := b.Download()
	if err == nil {
		b.Free()
	}
	return out, err
}

// verdict: doublefree
func hoDoubleFreeAlias(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	c := b
	if err := d.Launch(Scale, grid(n), block, float32(1), c); err != nil {
		b.Free()
		return err
	}
	c.Free()
	return b.Free()
}

// verdict: uaf
func hoLaunchAfterFreeAlias(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	view := b
	b.Free()
	return d.Launch(Scale, grid(n), block, float32(1), view)
}

// verdict: uaf
func hoLenAfterFree(d *device.Device, xs []float32) (int, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return 0, err
	}
	if err := b.Free(); err != nil {
		return 0, err
	}
	return b.Len(), nil
}

// verdict: uaf
func hoReturnFreedOnLaunchError(d *device.Device, n int) (*device.Buffer[float32], error) {
	b, err := allocZeroed(d, n)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, grid(n), block, float32(1), b); err != nil {
		b.Free()
	}
	return b, nil
}

// verdict: uaf
func hoDownloadAfterFreeInErrorCheck(d *device.Device, xs []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	if ferr := b.Free(); ferr != nil {
		return nil, ferr
	}
	return b.Download()
}

// verdict: clean
func hoNestedOwnershipTransfer(d *device.Device, n int) error {
	b, err := allocZeroed(d, n)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(n), block, float32(1), b); err != nil {
		consume(b)
		return err
	}
	consume(b)
	return nil
}

// verdict: uaf
func hoUseAfterNestedTransfer(d *device.Device, n int) (float32, error) {
	b, err := allocZeroed(d, n)
	if err != nil {
		return 0, err
	}
	consume(b)
	return lib.Sum(b), nil
}

// verdict: clean
func hoGoroutinePerBuffer(d *device.Device, batches [][]float32) error {
	var wg sync.WaitGroup
	errs := make([]error, len(batches))
	for i, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			wg.Wait()
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer b.Free()
			errs[i] = d.Launch(Scale, grid(len(xs)), block, float32(2), b)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// verdict: clean
func hoMethodValueRelease(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	free := b.Free
	defer free()
	return d.Launch(Scale, grid(n), block, float32(1), b)
}

// verdict: clean
func hoClosureFreesCaptured(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	cleanup := func() { b.Free() }
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		cleanup()
		return err
	}
	cleanup()
	return nil
}

// verdict: leak
func hoSliceOfBuffersEarlyReturn(d *device.Device, batches [][]float32) ([]float32, error) {
	var bufs []*device.Buffer[float32]
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, b)
	}
	var total []float32
	for _, b := range bufs {
		out, err := b.Download()
		if err != nil {
			return nil, err
		}
		total = append(total, out...)
		b.Free()
	}
	return total, nil
}

// verdict: clean
func hoSliceOfBuffersCleanupDefer(d *device.Device, batches [][]float32) ([]float32, error) {
	bufs := make([]*device.Buffer[float32], 0, len(batches))
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, b)
	}
	var total []float32
	for _, b := range bufs {
		out, err := b.Download()
		if err != nil {
			return nil, err
		}
		total = append(total, out...)
	}
	return total, nil
}

// verdict: leak
func hoSecondAllocErrorWrapped(d *device.Device, xs []float32) error {
	x, err := uploadAs(d, xs, "x")
	if err != nil {
		return err
	}
	y, err := allocZeroed(d, len(xs))
	if err != nil {
		return fmt.Errorf("second buffer: %w", err)
	}
	defer x.Free()
	defer y.Free()
	return d.Launch(Add, grid(len(xs)), block, x, x, y)
}

// verdict: clean
func hoSwitchOwnership(d *device.Device, mode int, n int) (*device.Buffer[float32], error) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	switch mode {
	case 0:
		return b, nil
	case 1:
		lib.Register("mode1", b)
		return nil, nil
	default:
		b.Free()
		return nil, fmt.Errorf("bad mode %d", mode)
	}
}

// verdict: doublefree
func hoDoubleFreeDeferAndExplicitOnError(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	defer b.Free()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		b.Free()
		return err
	}
	return nil
}

// verdict: clean
func hoStructFieldThenClose(d *device.Device, xs []float32) error {
	var h Holder
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	h.buf = b
	h.name = "tmp"
	defer h.Close()
	return d.Launch(Scale, grid(len(xs)), block, float32(2), h.buf)
}

// verdict: leak
func hoPoolReleasedOnlyOnSuccess(d *device.Device, batches [][]float32) error {
	p := &Pool{}
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		p.Add(b)
	}
	p.Release()
	return nil
}

// verdict: clean
func hoPairFromLib(d *device.Device, n int) error {
	x, err := lib.NewBuf(d, n)
	if err != nil {
		return err
	}
	y, err := lib.NewBuf(d, n)
	if err != nil {
		lib.Release(x)
		return err
	}
	p := &lib.Pair{X: x, Y: y}
	defer p.Close()
	return d.Launch(Add, grid(n), block, p.X, p.X, p.Y)
}

// verdict: leak
func hoLibBufferDroppedOnError(d *device.Device, n int) error {
	x, err := lib.NewBuf(d, n)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(n), block, float32(2), x); err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	lib.Release(x)
	return nil
}

// verdict: uaf
func hoDeferredLaunchAfterFree(d *device.Device, n int) (err error) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	defer func() {
		err = d.Launch(Scale, grid(n), block, float32(0), b)
	}()
	return b.Free()
}

// verdict: clean
func hoConditionalTemp(d *device.Device, xs []float32, scratch bool) error {
	var tmp *device.Buffer[float32]
	if scratch {
		var err error
		tmp, err = device.Alloc[float32](d, len(xs))
		if err != nil {
			return err
		}
		defer tmp.Free()
	}
	x, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	defer x.Free()
	if tmp != nil {
		return d.Launch(Add, grid(len(xs)), block, x, x, tmp)
	}
	return d.Launch(Scale, grid(len(xs)), block, float32(2), x)
}

// verdict: leak
func hoGoroutineForgetsFree(d *device.Device, xs []float32, done chan<- error) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	go func() {
		done <- d.Launch(Scale, grid(len(xs)), block, float32(2), b)
	}()
	return nil
}

// verdict: doublefree
func hoDoubleFreeInRetryLoop(d *device.Device, xs []float32, tries int) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	for i := 0; i < tries; i++ {
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
			b.Free()
			break
		}
	}
	return b.Free()
}

// verdict: uaf
func hoUseAfterCloseOwner(d *device.Device, xs []float32) (float32, error) {
	s, err := newStageCareful(d, xs)
	if err != nil {
		return 0, err
	}
	s.Close()
	return lib.Sum(s.out), nil
}

// verdict: clean
func hoGenericSwap(d *device.Device, xs []float32) error {
	a, err := uploadAs(d, xs, "a")
	if err != nil {
		return err
	}
	b, err := uploadAs(d, xs, "b")
	if err != nil {
		a.Free()
		return err
	}
	a, b = b, a
	err = d.Launch(Add, grid(len(xs)), block, a, b, a)
	a.Free()
	b.Free()
	return err
}
