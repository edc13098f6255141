package corpus

import (
	"corpus/lib"

	"github.com/gpukvet/gpukvet/device"
)

// verdict: uaf
func uafDownload(d *device.Device, xs []float32) ([]float32, error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		x.Free()
		return nil, err
	}
	x.Free()
	return x.Download()
}

// verdict: uaf
func uafLaunchAfterConditionalFree(d *device.Device, n int, reuse bool) error {
	x, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	if !reuse {
		x.Free()
	} else {
		defer x.Free()
	}
	return d.Launch(Scale, grid(n), block, float32(1), x)
}

// verdict: uaf
func uafPassedOn(d *device.Device) float32 {
	b, err := lib.NewBuf(d, 8)
	if err != nil {
		return 0
	}
	b.Free()
	return lib.Sum(b)
}

// verdict: uaf
func uafReturned(d *device.Device) (*device.Buffer[float32], error) {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return nil, err
	}
	if err := d.Sync(); err != nil {
		b.Free()
	}
	return b, nil
}

// verdict: uaf
func uafAfterHelperFrees(d *device.Device) int {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return 0
	}
	release(b)
	return b.Len()
}

// verdict: uaf
func uafAfterOtherPackageFrees(d *device.Device) int {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return 0
	}
	lib.Release(b)
	return peek(b)
}

// verdict: uaf
func uafInSecondLoop(d *device.Device, factors []float32) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	for _, a := range factors {
		if err := d.Launch(Scale, one, one, a, b); err != nil {
			break
		}
	}
	b.Free()
	for _, a := range factors {
		if err := d.Launch(Scale, one, one, -a, b); err != nil {
			return err
		}
	}
	return nil
}

// verdict: uaf
func uafOwnerFieldAfterClose(d *device.Device) ([]float32, error) {
	p, err := lib.NewPair(d, 8)
	if err != nil {
		return nil, err
	}
	if err := p.Close(); err != nil {
		return nil, err
	}
	return p.X.Download()
}

// verdict: uaf
func uafReturnedWithDeferredFree(d *device.Device, xs []float32) (*device.Buffer[float32], error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer x.Free()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		return nil, err
	}
	return x, nil
}

// verdict: uaf
func uafDeferredDownload(d *device.Device, xs []float32) (out []float32, err error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err == nil {
			out, err = x.Download()
		}
	}()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), x); err != nil {
		x.Free()
		return nil, err
	}
	return nil, x.Free()
}
