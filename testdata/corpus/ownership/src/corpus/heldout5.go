package corpus

// Held-out programs, fifth round (HELDOUT-host.md).

import (
	"fmt"

	"github.com/gpukvet/gpukvet/device"
)

// Vec is a generic owner of one buffer.
type Vec[T any] struct {
	buf *device.Buffer[T]
	n   int
}

func (v *Vec[T]) Close() error { return v.buf.Free() }

func NewVec[T any](d *device.Device, xs []T) (*Vec[T], error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, fmt.Errorf("vec: %w", err)
	}
	return &Vec[T]{buf: b, n: len(xs)}, nil
}

// twoBufs returns two new buffers, freeing the first if the second fails.
func twoBufs(d *device.Device, n int) (*device.Buffer[float32], *device.Buffer[float32], error) {
	a, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, nil, err
	}
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		a.Free()
		return nil, nil, err
	}
	return a, b, nil
}

// verdict: clean
func h5GenericOwner(d *device.Device, xs []int32) (int, error) {
	v, err := NewVec(d, xs)
	if err != nil {
		return 0, err
	}
	defer v.Close()
	return v.n, nil
}

// verdict: leak
func h5GenericOwnerNotClosed(d *device.Device, xs []int32) (int, error) {
	v, err := NewVec(d, xs)
	if err != nil {
		return 0, err
	}
	if v.n == 0 {
		return 0, fmt.Errorf("empty")
	}
	return v.n, v.Close()
}

// verdict: clean
func h5TwoResults(d *device.Device, n int) error {
	a, b, err := twoBufs(d, n)
	if err != nil {
		return err
	}
	defer a.Free()
	defer b.Free()
	return d.Launch(Add, grid(n), block, a, a, b)
}

// verdict: leak
func h5TwoResultsOneFreed(d *device.Device, n int) error {
	a, b, err := twoBufs(d, n)
	if err != nil {
		return err
	}
	defer a.Free()
	return d.Launch(Add, grid(n), block, a, a, b)
}

// verdict: leak
func h5ShadowedInBlock(d *device.Device, xs, ys []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	defer b.Free()
	if len(ys) > 0 {
		b, err := device.Upload(d, ys)
		if err != nil {
			return err
		}
		if err := d.Launch(Scale, grid(len(ys)), block, float32(2), b); err != nil {
			return err
		}
	}
	return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
}

// verdict: clean
func h5RetryAlloc(d *device.Device, n int) error {
	var b *device.Buffer[float32]
	var err error
	for i := 0; i < 3; i++ {
		b, err = device.Alloc[float32](d, n)
		if err == nil {
			break
		}
	}
	if err != nil {
		return err
	}
	defer b.Free()
	return d.Launch(Scale, grid(n), block, float32(1), b)
}

// verdict: clean
func h5DeferredLiteralWithArg(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	defer func(x *device.Buffer[float32]) { x.Free() }(b)
	return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
}

// verdict: doublefree
func h5DeferredLiteralWithArgAndFree(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	defer func(x *device.Buffer[float32]) { x.Free() }(b)
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		return err
	}
	return b.Free()
}

// verdict: uaf
func h5SwitchThenUse(d *device.Device, mode int, n int) (int, error) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return 0, err
	}
	switch mode {
	case 0:
		b.Free()
	case 1:
		defer b.Free()
	default:
		return 0, b.Free()
	}
	return b.Len(), nil
}

// verdict: clean
func h5LoopEarlyReturnInSwitch(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		switch {
		case len(xs) == 0:
			b.Free()
			continue
		case len(xs) > 1<<20:
			b.Free()
			return fmt.Errorf("batch too large")
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
func h5LoopEarlyReturnInSwitchLeaks(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		switch {
		case len(xs) == 0:
			b.Free()
			continue
		case len(xs) > 1<<20:
			return fmt.Errorf("batch too large")
		}
		err = d.Launch(Scale, grid(len(xs)), block, float32(2), b)
		b.Free()
		if err != nil {
			return err
		}
	}
	return nil
}
