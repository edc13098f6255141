//go:build unix

// Package cpubench measures the cpu backend against plain Go: saxpy and
// vector add (examples/saxpy, examples/vecadd) over 2^24 float32, and the
// block-sum reduction (examples/reduce.Sum) over 2^24 float32, each beside
// a Go loop over the same data on the same cores (GOMAXPROCS goroutines,
// one contiguous chunk each), buffers already on the device.
//
//	go test ./bench/cpu -bench . -benchtime 5x -count 5
//	go test ./bench/cpu -run TestReport -v    # with GPUKVET_CPU_BENCH=1
//
// TestReport runs every pair in one process, alternating them, and prints
// the ratio Go loop time / cpu backend time (1 means the backend runs the
// kernel as fast as the loop) with the minimum and median of each, in wall
// time and in processor time (getrusage, all threads), which says more on
// a shared machine.
package cpubench

import (
	"fmt"
	"github.com/gpukvet/gpukvet/internal/cputime"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/reduce"
	"github.com/gpukvet/gpukvet/examples/saxpy"
	"github.com/gpukvet/gpukvet/examples/vecadd"
	"github.com/gpukvet/gpukvet/gpu"
)

const (
	n         = 1 << 24
	blockSize = 256
)

// data is the inputs of every benchmark, on the host and on the device.
type data struct {
	d          *device.Device
	x, y, z    []float32
	xb, yb, zb *device.Buffer[float32]
}

func setup(tb testing.TB) *data {
	tb.Helper()
	d, err := device.OpenBackend("cpu")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	s := &data{d: d, x: make([]float32, n), y: make([]float32, n), z: make([]float32, n)}
	for i := range s.x {
		s.x[i] = float32(i%1000) * 0.5
		s.y[i] = float32(i%777) * 0.25
	}
	for _, p := range []struct {
		host []float32
		dev  **device.Buffer[float32]
	}{{s.x, &s.xb}, {s.y, &s.yb}, {s.z, &s.zb}} {
		b, err := device.Upload(d, p.host)
		if err != nil {
			tb.Fatal(err)
		}
		*p.dev = b
		tb.Cleanup(func() { b.Free() })
	}
	return s
}

// parallel runs body over [0, n) in GOMAXPROCS contiguous chunks at once:
// the plain Go loop the backend is measured against.
func parallel(n int, body func(lo, hi int)) {
	w := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for i := range w {
		lo, hi := n*i/w, n*(i+1)/w
		wg.Go(func() { body(lo, hi) })
	}
	wg.Wait()
}

var sink float32

// pairs lists each kernel run on the cpu backend and as a Go loop.
func pairs(s *data) []pair {
	grid := gpu.Dim3{X: n / blockSize, Y: 1, Z: 1}
	block := gpu.Dim3{X: blockSize, Y: 1, Z: 1}
	wait := func(err error) {
		if err == nil {
			err = s.d.Sync()
		}
		if err != nil {
			panic(err)
		}
	}
	return []pair{
		{"saxpy",
			func() { wait(saxpy.LaunchSaxpy(s.d, grid, block, 2, s.xb, s.yb)) },
			func() {
				parallel(n, func(lo, hi int) {
					x, y := s.x[lo:hi], s.y[lo:hi]
					for i := range y {
						y[i] = 2*x[i] + y[i]
					}
				})
			}},
		{"vecadd",
			func() { wait(vecadd.LaunchVecAdd(s.d, grid, block, s.xb, s.yb, s.zb)) },
			func() {
				parallel(n, func(lo, hi int) {
					a, b, c := s.x[lo:hi], s.y[lo:hi], s.z[lo:hi]
					for i := range c {
						c[i] = a[i] + b[i]
					}
				})
			}},
		{"reduce",
			func() {
				v, err := reduce.Sum(s.d, s.xb)
				if err != nil {
					panic(err)
				}
				sink = v
			},
			func() {
				var mu sync.Mutex
				var total float32
				parallel(n, func(lo, hi int) {
					var sum float32
					for _, v := range s.x[lo:hi] {
						sum += v
					}
					mu.Lock()
					total += sum
					mu.Unlock()
				})
				sink = total
			}},
	}
}

type pair struct {
	name          string
	backend, loop func()
}

func BenchmarkSaxpy(b *testing.B)  { benchPair(b, "saxpy") }
func BenchmarkVecAdd(b *testing.B) { benchPair(b, "vecadd") }
func BenchmarkReduce(b *testing.B) { benchPair(b, "reduce") }

func benchPair(b *testing.B, name string) {
	s := setup(b)
	for _, p := range pairs(s) {
		if p.name != name {
			continue
		}
		b.Run("backend=cpu", func(b *testing.B) {
			for b.Loop() {
				p.backend()
			}
		})
		b.Run("backend=goloop", func(b *testing.B) {
			for b.Loop() {
				p.loop()
			}
		})
	}
}

// TestReport times each pair reps times, alternating the backend and the
// loop so that both see the same load, and prints the ratios. It is a
// benchmark harness, not a test: it runs only with GPUKVET_CPU_BENCH=1
// (GPUKVET_CPU_BENCH_REPS sets the repetitions, default 5).
func TestReport(t *testing.T) {
	if os.Getenv("GPUKVET_CPU_BENCH") == "" {
		t.Skip("a benchmark harness: set GPUKVET_CPU_BENCH=1")
	}
	reps := 5
	fmt.Sscan(os.Getenv("GPUKVET_CPU_BENCH_REPS"), &reps)
	s := setup(t)
	var out strings.Builder
	fmt.Fprintf(&out, "GOMAXPROCS=%d, %d repetitions, 2^24 float32 elements, blocks of %d threads\n", runtime.GOMAXPROCS(0), reps, blockSize)
	fmt.Fprintf(&out, "%-8s %14s %14s %14s %14s %10s %10s\n", "kernel", "cpu min", "cpu median", "goloop min", "goloop median", "ratio min", "ratio med")
	for _, p := range pairs(s) {
		p.backend() // warm up: stacks, caches
		p.loop()
		var tb, tl, cb, cl []time.Duration
		for range reps {
			start, c := time.Now(), cputime.Process()
			p.backend()
			tb, cb = append(tb, time.Since(start)), append(cb, cputime.Process()-c)
			start, c = time.Now(), cputime.Process()
			p.loop()
			tl, cl = append(tl, time.Since(start)), append(cl, cputime.Process()-c)
		}
		for _, ds := range [][]time.Duration{tb, tl, cb, cl} {
			slices.Sort(ds)
		}
		med := func(ds []time.Duration) time.Duration { return ds[len(ds)/2] }
		fmt.Fprintf(&out, "%-8s %14v %14v %14v %14v %10.3f %10.3f   wall\n", p.name, tb[0], med(tb), tl[0], med(tl),
			float64(tl[0])/float64(tb[0]), float64(med(tl))/float64(med(tb)))
		fmt.Fprintf(&out, "%-8s %14v %14v %14v %14v %10.3f %10.3f   processor time (all threads)\n", "", cb[0], med(cb), cl[0], med(cl),
			float64(cl[0])/float64(max(cb[0], 1)), float64(med(cl))/float64(max(med(cb), 1)))
	}
	t.Log("\n" + out.String())
	if path := os.Getenv("GPUKVET_CPU_BENCH_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
