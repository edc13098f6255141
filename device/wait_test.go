package device_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cpu"
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

// stuckBackend is a backend without context methods whose Sync blocks
// until release is closed: package device waits for it on another
// goroutine and abandons it at the deadline.
type stuckBackend struct {
	backend.Backend
	release chan struct{}
}

func (s stuckBackend) Name() string { return "stuck" }

func (s stuckBackend) Sync() error {
	<-s.release
	return s.Backend.Sync()
}

// TestDeadlineAbandonsBackendWithoutContext: a wait whose deadline passes
// on a backend that cannot stop its work names the kernel, says the
// backend cannot stop it, and leaves the device unusable.
func TestDeadlineAbandonsBackendWithoutContext(t *testing.T) {
	be, err := cpu.Open()
	if err != nil {
		t.Fatal(err)
	}
	stuck := stuckBackend{be, make(chan struct{})}
	defer close(stuck.release)
	d, err := device.New(stuck)
	if err != nil {
		t.Fatal(err)
	}
	xs := upload(t, d, make([]int32, 4))
	if err := d.Launch(addOne, dim(1, 1, 1), dim(4, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err = d.SyncContext(ctx)
	var te *backend.TimeoutError
	if !errors.As(err, &te) || te.Stopped || !strings.Contains(err.Error(), "addOne did not finish before the deadline") ||
		!strings.Contains(err.Error(), "the stuck backend cannot stop it, so the device is unusable") {
		t.Fatalf("SyncContext = %v, want the deadline error naming addOne, the device unusable", err)
	}
	if err := d.Launch(addOne, dim(1, 1, 1), dim(4, 1, 1), xs); err == nil || !errors.Is(err, device.ErrTimeout) {
		t.Errorf("Launch after the abandoned wait = %v, want the device unusable", err)
	}
}
