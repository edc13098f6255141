package corpus

import (
	"corpus/lib"

	"github.com/gpukvet/gpukvet/device"
)

// verdict: doublefree
func doubleFreeDirect(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	if err := b.Free(); err != nil {
		return err
	}
	return b.Free()
}

// verdict: doublefree
func doubleFreeWithDefer(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	defer b.Free()
	if err := d.Launch(Scale, one, one, float32(2), b); err != nil {
		return err
	}
	return b.Free()
}

// verdict: doublefree
func doubleFreeInLoop(d *device.Device, parts int) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	defer b.Free()
	for i := 0; i < parts; i++ {
		if i == parts-1 {
			b.Free()
		}
	}
	return nil
}

// verdict: doublefree
func doubleFreeAfterHelper(d *device.Device) {
	b, err := lib.NewBuf(d, 8)
	if err != nil {
		return
	}
	lib.Release(b)
	b.Free()
}

// verdict: doublefree
func doubleCloseOwner(d *device.Device) error {
	p, err := lib.NewPair(d, 8)
	if err != nil {
		return err
	}
	defer p.Close()
	return p.Close()
}
