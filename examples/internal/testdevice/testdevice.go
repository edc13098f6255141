// Package testdevice opens the device that the examples' tests and
// benchmarks run on: the backend GPUKVET_DEVICE names, or the cpu backend
// when it is unset, so that `go test ./examples/...` needs no GPU.
package testdevice

import (
	"os"
	"testing"

	"github.com/gpukvet/gpukvet/device"
)

// Open opens the device and closes it when the test ends.
func Open(tb testing.TB) *device.Device {
	tb.Helper()
	if os.Getenv("GPUKVET_DEVICE") == "" {
		tb.Setenv("GPUKVET_DEVICE", "cpu")
	}
	d, err := device.Open()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := d.Close(); err != nil {
			tb.Error(err)
		}
	})
	return d
}
