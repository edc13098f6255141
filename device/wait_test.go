package device_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/saxpy"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestCloseStopsKernelWithoutTimeout: with no default deadline (no
// GPUKVET_TIMEOUT, no WithTimeout), Close of a cpu device whose kernel
// never ends stops it within Close's grace (2 s) and says so; before, it
// waited forever.
func TestCloseStopsKernelWithoutTimeout(t *testing.T) {
	t.Setenv("GPUKVET_TIMEOUT", "")
	d, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	xs := upload(t, d, make([]int32, 4))
	if err := d.Launch(spin, dim(2, 1, 1), dim(32, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = within(t, d.Close)
	if err == nil || !strings.Contains(err.Error(), "spin did not finish before the deadline") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Close = %v, want the deadline error naming spin", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("Close returned after %v", el)
	}
}

// TestDoneContextKeepsDevice: a Download or Sync given a context that is
// already cancelled (or past its deadline) while launches are queued fails
// with the context's error, and the device, the launches and the buffer's
// data stay: a later Download gets every launch's result. Before, on
// vulkan the device was marked unusable and the data lost. It runs on the
// cpu backend and on vulkan (lavapipe) where it opens.
func TestDoneContextKeepsDevice(t *testing.T) {
	for _, name := range []string{"cpu", "vulkan"} {
		t.Run(name, func(t *testing.T) {
			d, err := device.OpenBackend(name)
			if err != nil {
				t.Skipf("backend %s: %v", name, err)
			}
			defer d.Close()
			const n, launches = 4096, 20
			x, err := device.Upload(d, ones(n))
			if err != nil {
				t.Fatal(err)
			}
			y, err := device.Alloc[float32](d, n)
			if err != nil {
				t.Fatal(err)
			}
			for range launches {
				if err := saxpy.LaunchSaxpy(d, gpu.Dim3{X: n / 256, Y: 1, Z: 1}, gpu.Dim3{X: 256, Y: 1, Z: 1}, 1, x, y); err != nil {
					t.Fatal(err)
				}
			}
			cancelled, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := y.DownloadContext(cancelled); !errors.Is(err, context.Canceled) {
				t.Errorf("DownloadContext(cancelled) = %v, want context.Canceled", err)
			}
			expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
			defer cancel()
			if err := d.SyncContext(expired); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("SyncContext(expired) = %v, want context.DeadlineExceeded", err)
			}
			got, err := y.Download()
			if err != nil {
				t.Fatalf("Download after the cancelled one: %v", err)
			}
			for i, v := range got {
				if v != launches {
					t.Fatalf("y[%d] = %v, want %d (every launch ran)", i, v, launches)
				}
			}
			if err := saxpy.LaunchSaxpy(d, gpu.Dim3{X: n / 256, Y: 1, Z: 1}, gpu.Dim3{X: 256, Y: 1, Z: 1}, 1, x, y); err != nil {
				t.Fatal(err)
			}
			if err := d.Sync(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func ones(n int) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = 1
	}
	return xs
}
