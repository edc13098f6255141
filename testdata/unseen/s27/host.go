package s27

import (
	"fmt"

	"github.com/gpukvet/gpukvet/device"
)

// BatchLeak: a host loop in the style of CUDA samples' batched launches:
// a temporary buffer per batch, freed only when the batch is not the last.
// verdict: leak (the last batch's buffer)
func BatchLeak(d *device.Device, batches int) error {
	for b := 0; b < batches; b++ {
		tmp, err := device.Alloc[float32](d, 1024)
		if err != nil {
			return err
		}
		if b < batches-1 {
			if err := tmp.Free(); err != nil {
				return err
			}
		}
	}
	return nil
}

// BatchDeferPerCall: each batch in its own function with a deferred Free.
// verdict: clean
func BatchDeferPerCall(d *device.Device, batches int) error {
	for b := 0; b < batches; b++ {
		if err := oneBatch(d); err != nil {
			return fmt.Errorf("batch %d: %w", b, err)
		}
	}
	return nil
}

func oneBatch(d *device.Device) error {
	tmp, err := device.Alloc[float32](d, 1024)
	if err != nil {
		return err
	}
	defer tmp.Free()
	return nil
}

// ErrorPathLeak: the second allocation's error path returns without
// freeing the first buffer.
// verdict: leak
func ErrorPathLeak(d *device.Device) error {
	a, err := device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	b, err := device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	a.Free()
	b.Free()
	return nil
}

// FreeTwiceOnError: a cleanup that frees again after an early Free.
// verdict: double free
func FreeTwiceOnError(d *device.Device, fail bool) error {
	a, err := device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	if fail {
		a.Free()
	}
	return a.Free()
}
