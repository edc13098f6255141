package differential

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	k "github.com/gpukvet/gpukvet/testdata/differential/kernels"
	"github.com/gpukvet/gpukvet/testdata/differential/kernels/spin"

	"github.com/gpukvet/gpukvet/gpu"
)

// TestDeadlineStopsLoops runs the kernels of package spin, which never
// end, on each GPU backend that opens here (lavapipe in CI): Sync, a
// Download with a deadline, and Close without one each return at the
// deadline with an error naming the kernel, saying it was stopped; what a
// kernel wrote before its loop is there; and the device stays usable.
// Before the kernels polled, Sync reported success on lavapipe within
// milliseconds. The grid is large: lavapipe ends any loop after 65535
// iterations (its loop limiter), and enough blocks keep the launch running
// past the deadline (device/BADINPUTS.md).
func TestDeadlineStopsLoops(t *testing.T) {
	for _, name := range []string{"vulkan", "cuda"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("GPUKVET_TIMEOUT", "")
			d, err := device.OpenBackend(name, device.WithTimeout(300*time.Millisecond))
			if err != nil {
				t.Skipf("no %s device: %v", name, err)
			}
			defer d.Close()
			out, err := device.Alloc[int32](d, 64)
			if err != nil {
				t.Fatal(err)
			}
			flag, err := device.Alloc[int32](d, 1)
			if err != nil {
				t.Fatal(err)
			}
			grid, block := spinGrid, gpu.Dim3{X: 32, Y: 1, Z: 1}
			if err := spin.LaunchForever(d, grid, block, out); err != nil {
				t.Fatal(err)
			}
			wantStopped(t, "Sync", "spin.Forever", d.Sync())
			got, err := out.Download()
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range got {
				if v != 1 {
					t.Fatalf("out[%d] = %d, want 1: Forever writes it before its loop", i, v)
				}
			}
			if err := spin.LaunchWaitFlag(d, grid, block, flag, out); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			_, err = out.DownloadContext(ctx)
			wantStopped(t, "DownloadContext", "spin.WaitFlag", err)
			usable(t, d)
		})
	}
}

// TestCloseStopsLoops: Close of a GPU device with no default deadline whose
// kernel never ends returns within Close's grace, having stopped it.
func TestCloseStopsLoops(t *testing.T) {
	for _, name := range []string{"vulkan", "cuda"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("GPUKVET_TIMEOUT", "")
			d, err := device.OpenBackend(name)
			if err != nil {
				t.Skipf("no %s device: %v", name, err)
			}
			out, err := device.Alloc[int32](d, 64)
			if err != nil {
				t.Fatal(err)
			}
			if err := spin.LaunchForever(d, spinGrid, gpu.Dim3{X: 32, Y: 1, Z: 1}, out); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			wantStopped(t, "Close", "spin.Forever", d.Close())
			if el := time.Since(start); el > 10*time.Second {
				t.Errorf("Close took %v", el)
			}
		})
	}
}

// spinGrid is the grid of the spin kernels: enough blocks that lavapipe,
// which cuts each thread's loop after 65535 iterations, is still running
// them at the deadline.
var spinGrid = gpu.Dim3{X: 16384, Y: 1, Z: 1}

func wantStopped(t *testing.T, op, kernel string, err error) {
	t.Helper()
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), kernel+" did not finish before the deadline") || !strings.Contains(err.Error(), "stopped it") {
		t.Fatalf("%s = %v, want the deadline error saying %s was stopped", op, err, kernel)
	}
	t.Logf("%s: %v", op, err)
}

// usable checks that d runs a kernel after a stopped one.
func usable(t *testing.T, d *device.Device) {
	t.Helper()
	x, err := device.Alloc[int32](d, 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.LaunchNoTrapAfter(d, gpu.Dim3{X: 2, Y: 1, Z: 1}, gpu.Dim3{X: 32, Y: 1, Z: 1}, x); err != nil {
		t.Fatal(err)
	}
	got, err := x.Download()
	if err != nil {
		t.Fatalf("Download after the stopped kernels: %v", err)
	}
	for i, v := range got {
		if v != int32(i)*3 {
			t.Fatalf("x[%d] = %d, want %d", i, v, i*3)
		}
	}
}
