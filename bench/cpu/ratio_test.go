//go:build unix

package cpubench

import (
	"fmt"
	"github.com/gpukvet/gpukvet/internal/cputime"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/examples/saxpy"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestSaxpyRatio is issue 22's measure of the cpu backend: saxpy through
// device (LaunchSaxpy, then Sync) against the Go loop split over
// GOMAXPROCS goroutines, over the same buffers, at 2^22 and 2^24 float32
// elements, the best of GPUKVET_CPU_BENCH_REPS (default 20) runs of each,
// run alternately so that both see the same load
// (GPUKVET_CPU_BENCH_LOG2=k measures 2^k elements only). It prints ratio
// = best loop time / best backend time (1 = the loop's speed; the goal is
// at least 0.5), in wall time and in processor time (all threads). Like
// TestReport it is a harness, run only with GPUKVET_CPU_BENCH=1:
//
//	go test -c -o cpubench.test ./bench/cpu
//	for p in 1 2; do GOMAXPROCS=$p GPUKVET_CPU_BENCH=1 ./cpubench.test -test.run=TestSaxpyRatio -test.v; done
func TestSaxpyRatio(t *testing.T) {
	if os.Getenv("GPUKVET_CPU_BENCH") == "" {
		t.Skip("a benchmark harness: set GPUKVET_CPU_BENCH=1")
	}
	reps := 20
	fmt.Sscan(os.Getenv("GPUKVET_CPU_BENCH_REPS"), &reps)
	d, r := openRecorder(t)
	var out strings.Builder
	fmt.Fprintf(&out, "saxpy, GOMAXPROCS=%d, best of %d, blocks of %d threads\n", runtime.GOMAXPROCS(0), reps, blockSize)
	fmt.Fprintf(&out, "%-6s %14s %14s %8s   %14s %14s %8s\n", "n", "cpu best", "goloop best", "ratio",
		"cpu proc", "goloop proc", "ratio")
	sizes := []int{22, 24}
	if v := os.Getenv("GPUKVET_CPU_BENCH_LOG2"); v != "" {
		sizes = sizes[:1]
		fmt.Sscan(v, &sizes[0])
	}
	for _, log2 := range sizes {
		backend, loop := saxpyPair(t, d, r, 1<<log2)
		backend() // warm up: stacks, caches, the generated code's freshness check
		loop()
		var b, l best
		for range reps {
			b.time(backend)
			l.time(loop)
		}
		fmt.Fprintf(&out, "2^%-4d %14v %14v %8.3f   %14v %14v %8.3f\n", log2, b.wall, l.wall, float64(l.wall)/float64(b.wall),
			b.proc, l.proc, float64(l.proc)/float64(b.proc))
	}
	t.Log("\n" + out.String())
}

// best is the least wall time and the least processor time (all threads)
// of the runs of one function.
type best struct{ wall, proc time.Duration }

func (b *best) time(f func()) {
	start, c := time.Now(), cputime.Process()
	f()
	wall, proc := time.Since(start), cputime.Process()-c
	if b.wall == 0 || wall < b.wall {
		b.wall = wall
	}
	if b.proc == 0 || proc < b.proc {
		b.proc = proc
	}
}

// recorder is the cpu backend, keeping what it allocates, so that the Go
// loop can run over the very memory the backend's launch does: the
// placement of two 16 MiB buffers in physical memory changes a loop's time
// by up to 1.6x on the 2-core VM, which would otherwise bias the ratio.
type recorder struct {
	*cpu.Backend
	mems []backend.Memory
}

func (r *recorder) Alloc(elem reflect.Type, n int) (backend.Memory, error) {
	m, err := r.Backend.Alloc(elem, n)
	if err == nil {
		r.mems = append(r.mems, m)
	}
	return m, err
}

// openRecorder opens the cpu backend through a recorder.
func openRecorder(tb testing.TB) (*device.Device, *recorder) {
	be, err := cpu.Open()
	if err != nil {
		tb.Fatal(err)
	}
	r := &recorder{Backend: be.(*cpu.Backend)}
	d, err := device.New(r)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	return d, r
}

// upload puts xs on d and returns the buffer and, through r, its memory.
func upload(tb testing.TB, d *device.Device, r *recorder, xs []float32) (*device.Buffer[float32], []float32) {
	b, err := device.Upload(d, xs)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Free() })
	s, err := r.Slice(r.mems[len(r.mems)-1])
	if err != nil {
		tb.Fatal(err)
	}
	return b, s.Interface().([]float32)
}

// saxpyPair returns saxpy over n elements launched on d and the Go loop
// over the same memory.
func saxpyPair(tb testing.TB, d *device.Device, r *recorder, n int) (backend, loop func()) {
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000)*0.5, float32(i%777)*0.25
	}
	xb, x := upload(tb, d, r, x)
	yb, y := upload(tb, d, r, y)
	grid, block := gpu.Dim3{X: n / blockSize, Y: 1, Z: 1}, gpu.Dim3{X: blockSize, Y: 1, Z: 1}
	backend = func() {
		err := saxpy.LaunchSaxpy(d, grid, block, 2, xb, yb)
		if err == nil {
			err = d.Sync()
		}
		if err != nil {
			panic(err)
		}
	}
	loop = func() {
		parallel(n, func(lo, hi int) {
			x, y := x[lo:hi], y[lo:hi]
			for i := range y {
				y[i] = 2*x[i] + y[i]
			}
		})
	}
	return backend, loop
}

// BenchmarkSaxpySizes runs TestSaxpyRatio's pairs as benchmarks, for
// pprof and benchstat: go test ./bench/cpu -run NONE -bench SaxpySizes.
func BenchmarkSaxpySizes(b *testing.B) {
	d, r := openRecorder(b)
	for _, log2 := range []int{22, 24} {
		backend, loop := saxpyPair(b, d, r, 1<<log2)
		b.Run(fmt.Sprintf("n=2^%d/backend=cpu", log2), func(b *testing.B) {
			for b.Loop() {
				backend()
			}
		})
		b.Run(fmt.Sprintf("n=2^%d/backend=goloop", log2), func(b *testing.B) {
			for b.Loop() {
				loop()
			}
		})
	}
}
