package saxpy

import (
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/internal/testdevice"
	"github.com/gpukvet/gpukvet/gpu"
)

const blockSize = 256

// benchLog2 is log2 of the number of elements BenchmarkSaxpy works on.
const benchLog2 = 24

// run computes a*x + y on d.
func run(tb testing.TB, d *device.Device, a float32, x, y []float32) []float32 {
	tb.Helper()
	xb, err := device.Upload(d, x)
	if err != nil {
		tb.Fatal(err)
	}
	defer xb.Free()
	yb, err := device.Upload(d, y)
	if err != nil {
		tb.Fatal(err)
	}
	defer yb.Free()
	grid := gpu.Dim3{X: (len(y) + blockSize - 1) / blockSize, Y: 1, Z: 1}
	if err := d.Launch(Saxpy, grid, gpu.Dim3{X: blockSize, Y: 1, Z: 1}, a, xb, yb); err != nil {
		tb.Fatal(err)
	}
	out, err := yb.Download()
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestSaxpy(t *testing.T) {
	d := testdevice.Open(t)
	const n = 10_000 // not a multiple of the block size
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i] = float32(i) / 7
		y[i] = float32(n-i) * 0.25
	}
	got := run(t, d, 1.5, x, y)
	for i := range y {
		if want := 1.5*x[i] + y[i]; !near(got[i], want) {
			t.Fatalf("y[%d] = %v, want %v", i, got[i], want)
		}
	}
}

// near allows the one rounding that a fused multiply-add saves.
func near(a, b float32) bool {
	d := a - b
	return d <= 1e-6*max(1, abs(b)) && -d <= 1e-6*max(1, abs(b))
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// BenchmarkSaxpy runs saxpy over 2^24 elements, buffers already on the
// device.
func BenchmarkSaxpy(b *testing.B) {
	d := testdevice.Open(b)
	const n = 1 << benchLog2
	xb, err := device.Alloc[float32](d, n)
	if err != nil {
		b.Fatal(err)
	}
	defer xb.Free()
	yb, err := device.Alloc[float32](d, n)
	if err != nil {
		b.Fatal(err)
	}
	defer yb.Free()
	grid := gpu.Dim3{X: n / blockSize, Y: 1, Z: 1}
	b.SetBytes(3 * 4 * n) // read x and y, write y
	cpu := testdevice.StartCPUTimer()
	for b.Loop() {
		if err := d.Launch(Saxpy, grid, gpu.Dim3{X: blockSize, Y: 1, Z: 1}, float32(2), xb, yb); err != nil {
			b.Fatal(err)
		}
		if err := d.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(b, n)
}
