// Package testdevice opens the device that the examples' tests and
// benchmarks run on: the backend GPUKVET_DEVICE names, or the cpu backend
// when it is unset, so that `go test ./examples/...` needs no GPU.
package testdevice

import (
	"github.com/gpukvet/gpukvet/internal/cputime"
	"os"
	"testing"
	"time"

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

// CPUTimer measures the processor time a benchmark uses, which on a shared
// machine says more about the cpu backend's cost than the wall time does.
type CPUTimer struct{ start time.Duration }

// StartCPUTimer starts measuring.
func StartCPUTimer() CPUTimer { return CPUTimer{cputime.Process()} }

// Report adds the metric "cpu-ns/thread": processor nanoseconds per kernel
// thread, for a benchmark whose every iteration runs threads threads.
func (c CPUTimer) Report(b *testing.B, threads int) {
	if used := cputime.Process() - c.start; used > 0 && b.N > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N)/float64(threads), "cpu-ns/thread")
	}
}
