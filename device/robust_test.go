package device_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// spin loops until its launch is stopped: it calls BlockDim in every
// iteration, where the cpu backend stops it.
//
//gpu:kernel
func spin(t gpu.Thread, xs []int32) {
	for i := 0; ; i++ {
		if t.BlockDim().X < 0 {
			xs[0] = int32(i)
			return
		}
	}
}

// spinTight loops forever without calling anything: nothing can stop it.
//
//gpu:kernel
func spinTight(t gpu.Thread, xs []int32) {
	i := int32(0)
	for xs[0] == 0 {
		i++
	}
	xs[1] = i
}

func TestSyncDeadlineStopsKernel(t *testing.T) {
	d, err := device.OpenBackend("cpu", device.WithTimeout(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	xs := upload(t, d, make([]int32, 4))
	if err := d.Launch(spin, dim(4, 1, 1), dim(32, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = within(t, d.Sync)
	if err == nil || !strings.Contains(err.Error(), "spin did not finish before the deadline") || !strings.Contains(err.Error(), "stays usable") {
		t.Fatalf("Sync = %v, want a deadline error naming kernel spin", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Sync's error does not wrap context.DeadlineExceeded: %v", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("Sync returned after %v", el)
	}
	// The device stays usable.
	if err := d.Launch(addOne, dim(1, 1, 1), dim(4, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	// A context deadline of its own, on Download.
	if err := d.Launch(spin, dim(1, 1, 1), dim(1, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := xs.DownloadContext(ctx); err == nil || !strings.Contains(err.Error(), "device.Download: kernel") {
		t.Fatalf("DownloadContext = %v, want a deadline error", err)
	}
}

// TestTightLoopDeadline runs a kernel that no hook can stop in a child
// process (it keeps a processor busy until the process exits): Sync still
// returns at the deadline, says why the kernel could not be stopped, and
// the device refuses further use.
func TestTightLoopDeadline(t *testing.T) {
	if os.Getenv("GPUKVET_TIGHT_CHILD") != "" {
		d, err := device.OpenBackend("cpu", device.WithTimeout(200*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		xs, _ := device.Alloc[int32](d, 2)
		d.Launch(spinTight, dim(1, 1, 1), dim(1, 1, 1), xs)
		err = d.Sync()
		println("SYNC:", err.Error())
		err = d.Launch(spinTight, dim(1, 1, 1), dim(1, 1, 1), xs)
		println("LAUNCH:", err.Error())
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTightLoopDeadline$")
	cmd.Env = append(os.Environ(), "GPUKVET_TIGHT_CHILD=1")
	out, _ := cmd.CombinedOutput()
	for _, want := range []string{"SYNC: device.Sync: kernel github.com/gpukvet/gpukvet/device_test.spinTight did not finish before the deadline", "cannot be stopped", "LAUNCH: device.Launch", "unusable"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
}

func TestNilAndClosed(t *testing.T) {
	var d *device.Device
	var b *device.Buffer[float32]
	one := dim(1, 1, 1)
	checks := map[string]error{
		"nil Sync":         d.Sync(),
		"nil SyncContext":  d.SyncContext(context.Background()),
		"nil Close":        d.Close(),
		"nil Launch":       d.Launch(addOne, one, one, nil),
		"nil buffer Free":  b.Free(),
		"zero buffer Free": new(device.Buffer[float32]).Free(),
	}
	_, checks["nil Alloc"] = device.Alloc[float32](d, 1)
	_, checks["nil Upload"] = device.Upload(d, []float32{1})
	_, checks["nil buffer Download"] = b.Download()
	_, checks["zero buffer Download"] = new(device.Buffer[float32]).Download()
	if d.Backend() != "" || b.Len() != 0 {
		t.Errorf("nil Backend() = %q, nil Len() = %d", d.Backend(), b.Len())
	}

	c, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	buf, err := device.Alloc[int32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	checks["closed Sync"] = c.Sync()
	checks["closed Close"] = c.Close()
	checks["closed Launch"] = c.Launch(addOne, one, one, buf)
	_, checks["closed Alloc"] = device.Alloc[float32](c, 1)
	_, checks["closed Upload"] = device.Upload(c, []float32{1})
	_, checks["closed buffer Download"] = buf.Download()
	for name, err := range checks {
		if err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if err := buf.Free(); err != nil {
		t.Errorf("Free after Close: %v (the memory went with the device)", err)
	}
}

func TestLaunchLimits(t *testing.T) {
	d := openCPU(t)
	xs := upload(t, d, make([]int32, 4))
	for _, tc := range []struct {
		grid, block gpu.Dim3
		want        string
	}{
		{dim(1<<31-1, 1, 1), dim(1024, 1, 1), "cpu backend's bound of 2^36 threads"},
		{dim(1<<31, 1, 1), dim(1, 1, 1), "grid extent 2147483648 in X is more than the 2147483647 of target"},
		{dim(1, 1, 1), dim(2048, 1, 1), "block extent 2048 in X is more than the 1024 of target"},
	} {
		err := d.Launch(addOne, tc.grid, tc.block, xs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Launch grid %v block %v = %v, want %q", tc.grid, tc.block, err, tc.want)
		}
	}
	// An allocation beyond memory is an error saying how much is free.
	if _, err := device.Alloc[float64](d, 1<<50); err == nil || !strings.Contains(err.Error(), "are free") {
		t.Errorf("Alloc of 2^53 bytes = %v, want an error saying how much is free", err)
	}
	if _, err := device.Alloc[float64](d, 1<<62); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("Alloc of 2^65 bytes = %v, want an overflow error", err)
	}
}

// TestConcurrentLaunchAndClose launches from many goroutines at once and
// closes the device while they run: every launch either runs or returns an
// error, and nothing crashes (run it with -race too).
func TestConcurrentLaunchAndClose(t *testing.T) {
	d, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	xs, err := device.Upload(d, make([]int32, 256))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ok, failed int
	for range 16 {
		wg.Go(func() {
			for range 20 {
				err := d.Launch(addOne, dim(4, 1, 1), dim(64, 1, 1), xs)
				mu.Lock()
				if err != nil {
					if !strings.Contains(err.Error(), "closed") {
						t.Errorf("Launch: %v", err)
					}
					failed++
				} else {
					ok++
				}
				mu.Unlock()
			}
		})
	}
	time.Sleep(5 * time.Millisecond)
	cerr := d.Close()
	wg.Wait()
	t.Logf("%d launches ran, %d refused after Close; Close: %v", ok, failed, cerr)
	if _, err := xs.Download(); err == nil {
		t.Error("Download after Close: no error")
	}
}

// depth recurses without bound on the cpu backend's goroutine stack.
//
//gpu:kernel
func recurse(t gpu.Thread, xs []int32) { xs[0] = depth(xs, 0) }

func depth(xs []int32, n int32) int32 { return helper(xs, n+1) }

func helper(xs []int32, n int32) int32 { return depth(xs, n) }

//gpu:kernel
func selects(t gpu.Thread, xs []int32) {
	if xs[0] > 0 {
		select {}
	}
}

//gpu:kernel
func defers(t gpu.Thread, xs []int32) {
	defer func() { xs[0] = 1 }()
}

// TestForbiddenConstructs checks that Launch refuses kernels without
// generated code whose constructs would kill or hang the program.
func TestForbiddenConstructs(t *testing.T) {
	d := openCPU(t)
	xs := upload(t, d, make([]int32, 4))
	for _, tc := range []struct {
		kernel any
		want   string
	}{
		{recurse, "recursive call of depth at "},
		{selects, "select at "},
		{defers, "defer at "},
	} {
		err := d.Launch(tc.kernel, dim(1, 1, 1), dim(1, 1, 1), xs)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "memspace") {
			t.Errorf("Launch = %v, want %q", err, tc.want)
		}
	}
}
