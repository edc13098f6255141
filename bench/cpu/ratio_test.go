//go:build unix

package cpubench

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/saxpy"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestSaxpyRatio is issue 22's measure of the cpu backend: saxpy through
// device (LaunchSaxpy, then Sync) against the Go loop split over
// GOMAXPROCS goroutines, at 2^22 and 2^24 float32 elements, the best of
// GPUKVET_CPU_BENCH_REPS (default 20) runs of each, run alternately so
// that both see the same load (GPUKVET_CPU_BENCH_LOG2=k measures 2^k
// elements only). It prints ratio = best loop time / best
// backend time (1 = the loop's speed; the goal is at least 0.5). Like
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
	d, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
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
		backend, loop := saxpyPair(t, d, 1<<log2)
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
	start, c := time.Now(), cpuTime()
	f()
	wall, proc := time.Since(start), cpuTime()-c
	if b.wall == 0 || wall < b.wall {
		b.wall = wall
	}
	if b.proc == 0 || proc < b.proc {
		b.proc = proc
	}
}

// saxpyPair returns saxpy over n elements launched on d and the Go loop
// over the same host data.
func saxpyPair(tb testing.TB, d *device.Device, n int) (backend, loop func()) {
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000)*0.5, float32(i%777)*0.25
	}
	xb, err := device.Upload(d, x)
	if err != nil {
		tb.Fatal(err)
	}
	yb, err := device.Upload(d, y)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { xb.Free(); yb.Free() })
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
	d, err := device.OpenBackend("cpu")
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for _, log2 := range []int{22, 24} {
		backend, loop := saxpyPair(b, d, 1<<log2)
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
