package phases

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// schedules opens the cpu backend twice: with the loops gen wrote (the
// default schedule without -race) and with the race-detecting schedule,
// which calls the kernel as written, one goroutine per thread.
func schedules(t *testing.T) map[string]*device.Device {
	t.Helper()
	out := map[string]*device.Device{}
	for _, s := range []string{"coroutines", "goroutines"} {
		t.Setenv("GPUKVET_CPU_THREADS", s)
		d, err := device.OpenBackend("cpu")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		out[s] = d
	}
	return out
}

func upload[T any](t *testing.T, d *device.Device, xs []T) *device.Buffer[T] {
	t.Helper()
	b, err := device.Upload(d, xs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

func download[T any](t *testing.T, b *device.Buffer[T]) []T {
	t.Helper()
	xs, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

func dim(x, y int) gpu.Dim3 { return gpu.Dim3{X: x, Y: y, Z: 1} }

// run launches with every schedule and checks that each computes want.
func run[T any](t *testing.T, n int, want []T, launch func(d *device.Device, out *device.Buffer[T]) error) {
	t.Helper()
	for name, d := range schedules(t) {
		out := upload(t, d, make([]T, n))
		if err := launch(d, out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := download(t, out); !reflect.DeepEqual(got, want) {
			t.Errorf("%s schedule: got %v\nwant %v", name, got, want)
		}
	}
}

func TestLoopLocals(t *testing.T) {
	const blocks, bs = 3, 64
	in := make([]float32, blocks*bs)
	for i := range in {
		in[i] = float32(i%7) + 0.5
	}
	want := make([]float32, len(in))
	for b := range blocks {
		for tid := range bs {
			var acc0, acc1 float32
			pb := float32(1)
			for s := 1; s < 64; s *= 2 {
				acc0 += in[b*bs+(tid+s)%64]
				acc1 = float32(s)
				pb *= 2
			}
			want[b*bs+tid] = acc0 + acc1 + pb
		}
	}
	run(t, len(in), want, func(d *device.Device, out *device.Buffer[float32]) error {
		return LaunchLoopLocals(d, dim(blocks, 1), dim(bs, 1), upload(t, d, in), out)
	})
}

func TestTile2D(t *testing.T) {
	const gx, gy = 3, 2
	w, h := gx*8, gy*4
	in := make([]int32, w*h)
	for i := range in {
		in[i] = int32(i * 3)
	}
	want := make([]int32, len(in))
	for y := range h {
		for x := range w {
			bx, by, tx, ty := x/8, y/4, x%8, y%4
			want[y*w+x] = in[(by*4+3-ty)*w+bx*8+7-tx] + int32(by)
		}
	}
	run(t, len(in), want, func(d *device.Device, out *device.Buffer[int32]) error {
		return LaunchTile2D(d, dim(gx, gy), dim(8, 4), upload(t, d, in), out)
	})
}

func TestEarlyReturn(t *testing.T) {
	const blocks, n = 4, 2
	in := make([]int32, blocks*32)
	for i := range in {
		in[i] = int32(i)
	}
	want := make([]int32, len(in))
	for b := range n {
		for tid := range 16 {
			want[b*32+tid] = in[b*32+tid] + in[b*32+tid+16]
		}
	}
	run(t, len(in), want, func(d *device.Device, out *device.Buffer[int32]) error {
		return LaunchEarlyReturn(d, dim(blocks, 1), dim(32, 1), n, upload(t, d, in), out)
	})
}

func TestIfBarrier(t *testing.T) {
	in := make([]int32, 64)
	for i := range in {
		in[i] = int32(i*i - 100)
	}
	for _, twice := range []bool{true, false} {
		want := make([]int32, len(in))
		for i := range in {
			if twice {
				want[i] = in[i] + in[i/32*32+31-i%32]
			} else {
				want[i] = -in[i]
			}
		}
		run(t, len(in), want, func(d *device.Device, out *device.Buffer[int32]) error {
			return LaunchIfBarrier(d, dim(2, 1), dim(32, 1), twice, upload(t, d, in), out)
		})
	}
}

func TestParamAcross(t *testing.T) {
	const k = 1000
	want := make([]int32, 64)
	for i := range want {
		tid := i % 32
		want[i] = int32(k+(tid+1)%32) + int32(k+tid)
	}
	run(t, len(want), want, func(d *device.Device, out *device.Buffer[int32]) error {
		return LaunchParamAcross(d, dim(2, 1), dim(32, 1), k, out)
	})
}

// TestTrapInPhase checks that a trap between two barriers names the
// thread that trapped, its block and the kernel's line, on every schedule
// alike.
func TestTrapInPhase(t *testing.T) {
	k := make([]int, 96)
	for i := range k {
		k[i] = (i + 1) % 32
	}
	k[37] = 99 // block 1, thread 5
	_, file, _, _ := runtime.Caller(0)
	line := 0
	src := filepath.Join(filepath.Dir(file), "phases.go")
	for i, l := range strings.Split(readFile(t, src), "\n") {
		if strings.Contains(l, "// the trap") {
			line = i + 1
		}
	}
	for name, d := range schedules(t) {
		out := upload(t, d, make([]int32, len(k)))
		err := LaunchTrapInPhase(d, dim(3, 1), dim(32, 1), upload(t, d, k), upload(t, d, make([]int32, len(k))), out)
		if err == nil {
			err = d.Sync()
		}
		var trap *backend.Trap
		if !errors.As(err, &trap) {
			t.Fatalf("%s: got %v, want a trap", name, err)
		}
		if trap.Kernel != "github.com/gpukvet/gpukvet/testdata/phases.TrapInPhase" && !strings.HasSuffix(trap.Kernel, "TrapInPhase") {
			t.Errorf("%s: trap names kernel %q", name, trap.Kernel)
		}
		if trap.Block != (gpu.Dim3{X: 1}) || trap.Thread != (gpu.Dim3{X: 5}) {
			t.Errorf("%s: trap in block %v thread %v, want block (1,0,0) thread (5,0,0): %v", name, trap.Block, trap.Thread, err)
		}
		if want := fmt.Sprintf("%s:%d", src, line); trap.Pos != want {
			t.Errorf("%s: trap at %q, want %q", name, trap.Pos, want)
		}
		if !strings.Contains(trap.Msg, "index out of range [99]") {
			t.Errorf("%s: trap message %q", name, trap.Msg)
		}
	}
}
