package device_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/saxpy"
	"github.com/gpukvet/gpukvet/gpu"
)

// BenchmarkValidateSaxpy measures what validation costs: saxpy (generated
// code) over 2^22 and 2^24 float32 on one device without validation and on
// another with it (every launch, DefaultULPs), and reports both times per
// launch and their ratio. The backend is GPUKVET_VALBENCH_DEVICE, default
// vulkan (lavapipe where there is no GPU); it skips where that does not
// open.
//
//	go test ./device -run '^$' -bench ValidateSaxpy -benchtime 5x
func BenchmarkValidateSaxpy(b *testing.B) {
	name := os.Getenv("GPUKVET_VALBENCH_DEVICE")
	if name == "" {
		name = "vulkan"
	}
	for _, log2n := range []int{22, 24} {
		b.Run(fmt.Sprintf("%s/2^%d", name, log2n), func(b *testing.B) {
			n := 1 << log2n
			plain := openValBench(b, name)
			val := openValBench(b, name, device.WithValidation(device.Validation{ULPs: device.DefaultULPs, Every: 1}))
			runP := setupValSaxpy(b, plain, n)
			runV := setupValSaxpy(b, val, n)
			// Warm up both (compiles the kernel, faults the memory in).
			if err := runP(); err != nil {
				b.Fatal(err)
			}
			if err := runV(); err != nil {
				b.Fatal(err)
			}
			var tp, tv time.Duration
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				if err := runP(); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := runV(); err != nil {
					b.Fatal(err)
				}
				tp += t1.Sub(t0)
				tv += time.Since(t1)
			}
			b.StopTimer()
			pn := float64(tp.Nanoseconds()) / float64(b.N)
			vn := float64(tv.Nanoseconds()) / float64(b.N)
			b.ReportMetric(pn, "plain-ns/launch")
			b.ReportMetric(vn, "validated-ns/launch")
			b.ReportMetric(vn/pn, "validated/plain")
		})
	}
}

func openValBench(b *testing.B, name string, opts ...device.Option) *device.Device {
	b.Helper()
	d, err := device.OpenBackend(name, opts...)
	if err != nil {
		b.Skipf("backend %s: %v", name, err)
	}
	b.Cleanup(func() { d.Close() })
	return d
}

// setupValSaxpy uploads x and y of n elements and returns one launch of
// saxpy over them followed by a Sync.
func setupValSaxpy(b *testing.B, d *device.Device, n int) func() error {
	r := rand.New(rand.NewPCG(1, 2))
	xs, ys := make([]float32, n), make([]float32, n)
	for i := range xs {
		xs[i], ys[i] = r.Float32(), r.Float32()
	}
	x, err := device.Upload(d, xs)
	if err != nil {
		b.Fatal(err)
	}
	y, err := device.Upload(d, ys)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { x.Free(); y.Free() })
	block := 256
	if n/block > 65535 {
		block = 1024 // lavapipe allows 65535 blocks in X
	}
	grid, blk := gpu.Dim3{X: n / block, Y: 1, Z: 1}, gpu.Dim3{X: block, Y: 1, Z: 1}
	return func() error {
		if err := saxpy.LaunchSaxpy(d, grid, blk, 1e-3, x, y); err != nil {
			return err
		}
		return d.Sync()
	}
}

// BenchmarkCompare is device.Compare over 2^24 float32 at DefaultULPs:
// equal buffers, and buffers where every third element is one ULP off (as
// where a GPU fuses a multiply-add the cpu backend rounds twice).
func BenchmarkCompare(b *testing.B) {
	const n = 1 << 24
	r := rand.New(rand.NewPCG(3, 4))
	want := make([]float32, n)
	for i := range want {
		want[i] = r.Float32()*2 - 1
	}
	off := slices.Clone(want)
	for i := 0; i < n; i += 3 {
		off[i] = math.Nextafter32(off[i], 2)
	}
	for _, c := range []struct {
		name string
		got  []float32
	}{{"equal", slices.Clone(want)}, {"1ulp-every-3rd", off}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(2 * 4 * n)
			for range b.N {
				if err := device.Compare(want, c.got, device.DefaultULPs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
