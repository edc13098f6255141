package issue20

import (
	"issue20lib"

	"github.com/gpukvet/gpukvet/device"
)

// Field effects of another package's methods and constructors reach their
// callers through facts.

func otherPackageGrowLeaky(d *device.Device) error {
	w, err := issue20lib.New(d, 8)
	if err != nil {
		return err
	}
	defer w.Close()
	return w.GrowLeaky(d, 16) // want `the buffer held in w.scratch is not freed before a call to GrowLeaky overwrites it at line 18`
}

func okOtherPackageGrow(d *device.Device) error {
	w, err := issue20lib.New(d, 8)
	if err != nil {
		return err
	}
	defer w.Close()
	return w.Grow(d, 16)
}
