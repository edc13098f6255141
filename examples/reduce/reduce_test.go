package reduce

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/internal/testdevice"
)

func TestSum(t *testing.T) {
	d := testdevice.Open(t)
	for _, n := range []int{1, 255, 256, 1000, 70_000} {
		in := make([]float32, n)
		var want float64
		for i := range in {
			in[i] = float32(i%97) * 0.125
			want += float64(in[i])
		}
		b, err := device.Upload(d, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Sum(d, b)
		b.Free()
		if err != nil {
			t.Fatal(err)
		}
		// The tree adds in another order than a loop: allow float32
		// rounding of each partial sum.
		if math.Abs(float64(got)-want) > 1e-6*want {
			t.Errorf("n=%d: Sum = %v, want %v", n, got, want)
		}
	}
}

// benchLog2 is log2 of the number of elements BenchmarkSum sums.
const benchLog2 = 24

// BenchmarkSum sums 2^24 elements already on the device.
func BenchmarkSum(b *testing.B) {
	d := testdevice.Open(b)
	const n = 1 << benchLog2
	in, err := device.Alloc[float32](d, n)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Free()
	b.SetBytes(4 * n)
	cpu := testdevice.StartCPUTimer()
	for b.Loop() {
		if _, err := Sum(d, in); err != nil {
			b.Fatal(err)
		}
	}
	// Sum launches n threads, then n/256 for the block sums, then one block.
	cpu.Report(b, n+n/BlockSize+BlockSize)
}
