package corpus

import (
	"errors"
	"fmt"

	"corpus/lib"

	"github.com/gpukvet/gpukvet/device"
)

// verdict: leak
func leakOnLaunchError(d *device.Device, xs []float32) error {
	x, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		return fmt.Errorf("scale: %w", err)
	}
	return x.Free()
}

// verdict: leak
func leakDiscarded(d *device.Device) error {
	_, err := device.Alloc[float32](d, 1024)
	return err
}

// verdict: leak
func leakNeverFreed(d *device.Device, xs []float32) ([]float32, error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		return nil, err
	}
	return x.Download()
}

// verdict: leak
func leakOneBranch(d *device.Device, keep bool) {
	b, err := device.Alloc[float32](d, 64)
	if err != nil {
		return
	}
	if !keep {
		b.Free()
	}
}

// verdict: leak
func leakEachIteration(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		x, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
			return err
		}
	}
	return nil
}

// verdict: leak
func leakFirstWhenSecondFails(d *device.Device, n int) error {
	x, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	y, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	defer x.Free()
	defer y.Free()
	return d.Launch(Add, grid(n), block, x, y, y)
}

// verdict: leak
func leakSwitchCase(d *device.Device, mode string) error {
	b, err := device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	switch mode {
	case "fast":
		return b.Free()
	case "slow":
		_ = b.Len()
		return errors.New("slow mode is gone")
	}
	return b.Free()
}

// verdict: leak
func leakSelectTimeout(d *device.Device, done, timeout chan struct{}) error {
	b, err := device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	select {
	case <-done:
		return b.Free()
	case <-timeout:
		return errors.New("timeout")
	}
}

// verdict: leak
func leakOverwritten(d *device.Device) error {
	b, err := device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	_ = b.Len()
	b, err = device.Alloc[float32](d, 32)
	if err != nil {
		return err
	}
	return b.Free()
}

// verdict: leak
func leakFromConstructor(d *device.Device) (float32, error) {
	b, err := newScratch(d, 128)
	if err != nil {
		return 0, err
	}
	return lib.Sum(b), nil
}

// verdict: leak
func leakFromOtherPackage(d *device.Device) int {
	b, err := lib.NewBuf(d, 8)
	if err != nil {
		return 0
	}
	return b.Len()
}

// verdict: leak
func leakOwnerStruct(d *device.Device) (string, error) {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return "", err
	}
	h := &Holder{buf: b, name: "scratch"}
	return h.name, nil
}

// verdict: leak
func leakOtherPackageOwner(d *device.Device) error {
	p, err := lib.NewPair(d, 8)
	if err != nil {
		return err
	}
	if p.X.Len() != p.Y.Len() {
		return errors.New("mismatch")
	}
	return p.Close()
}

// verdict: leak
func leakDeferredClosureForgetsOne(d *device.Device) error {
	x, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	y, err := device.Alloc[float32](d, 8)
	if err != nil {
		x.Free()
		return err
	}
	defer func() {
		x.Free()
	}()
	return d.Launch(Add, one, one, x, x, y)
}

// verdict: leak
func leakOnBreak(d *device.Device, work [][]float32) {
	for _, xs := range work {
		b, err := device.Upload(d, xs)
		if err != nil {
			return
		}
		if len(xs) == 0 {
			break
		}
		b.Free()
	}
}

// verdict: leak
func leakOnContinue(d *device.Device, work [][]float32) {
	for _, xs := range work {
		b, err := device.Upload(d, xs)
		if err != nil {
			continue
		}
		if len(xs) < 4 {
			continue
		}
		b.Free()
	}
}

// verdict: leak
func leakPoolNeverReleased(d *device.Device, n int) error {
	pool := &Pool{}
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			pool.Release()
			return err
		}
		pool.bufs = append(pool.bufs, b)
	}
	return nil
}

// verdict: leak
func leakConditionalAllocation(d *device.Device, xs []float32, onDevice, verbose bool) (float32, error) {
	var b *device.Buffer[float32]
	if onDevice {
		var err error
		if b, err = device.Upload(d, xs); err != nil {
			return 0, err
		}
	}
	if verbose {
		s := lib.Sum(b)
		b.Free()
		return s, nil
	}
	return 0, nil
}

// verdict: leak
func leakBatchOnPartialFailure(d *device.Device, batches [][]float32) ([]*device.Buffer[float32], error) {
	bufs := make([]*device.Buffer[float32], 0, len(batches))
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return nil, fmt.Errorf("batch %d: %w", len(bufs), err)
		}
		bufs = append(bufs, b)
	}
	return bufs, nil
}

// verdict: leak
func leakSliceOfBuffersAtEnd(d *device.Device, batches [][]float32) (n int) {
	var bufs []*device.Buffer[float32]
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		n += b.Len()
	}
	return n
}

// verdict: leak
func leakNilledBeforeGuardedDefer(d *device.Device, xs []float32) error {
	x, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	defer func() {
		if x != nil {
			x.Free()
		}
	}()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		x = nil
		return err
	}
	return d.Sync()
}
