package scan

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestExclusive(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(21)
	n := 1000 // four parts of 256, the last partial
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(r.Intn(100))
	}
	parts := bt.Blocks(n, 2*Block)
	out, sums := bt.Zeros[int32](t, d, n), bt.Zeros[int32](t, d, parts)
	bt.Run(t, d, Exclusive, bt.Dim(parts), bt.Dim(Block), bt.Up(t, d, in), out, sums)
	s := bt.Down(t, sums)
	scanned := make([]int32, parts)
	for b := 1; b < parts; b++ {
		scanned[b] = scanned[b-1] + s[b-1]
	}
	bt.Run(t, d, AddSums, bt.Dim(parts), bt.Dim(Block), bt.Up(t, d, scanned), out)
	want := make([]int32, n)
	for i := 1; i < n; i++ {
		want[i] = want[i-1] + in[i-1]
	}
	bt.Equal(t, "exclusive", bt.Down(t, out), want)
}

func TestInclusive(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(22)
	n := 300
	in := r.Floats(n)
	out := bt.Zeros[float32](t, d, n)
	bt.Run(t, d, Inclusive, bt.Dim(bt.Blocks(n, Block)), bt.Dim(Block), bt.Up(t, d, in), out)
	want := make([]float32, n)
	for i := range in {
		want[i] = in[i]
		if i%Block != 0 {
			want[i] += want[i-1]
		}
	}
	bt.Near(t, "inclusive", bt.Down(t, out), want, 1e-5)
}
