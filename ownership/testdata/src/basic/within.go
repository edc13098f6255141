package basic

import (
	"context"

	"github.com/gpukvet/gpukvet/device"
)

// The context and tolerance variants of the buffer API are uses too.

func launchWithinAfterFree(d *device.Device) {
	x, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	x.Free()
	d.LaunchWithin(4, Scale, g, g, float32(1), x) // want `buffer x is used by LaunchWithin at line 17 after Free at line 16`
}

func downloadContextAfterFree(ctx context.Context, d *device.Device) {
	x, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	x.Free()
	x.DownloadContext(ctx) // want `buffer x is used by DownloadContext at line 26 after Free at line 25`
}

func withinOK(ctx context.Context, d *device.Device) error {
	x, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	defer x.Free()
	if err := d.LaunchWithin(4, Scale, g, g, float32(1), x); err != nil {
		return err
	}
	_, err = x.DownloadContext(ctx)
	return err
}
