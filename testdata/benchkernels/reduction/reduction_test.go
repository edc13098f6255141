package reduction

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestSum(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(19)
	n := 3000
	in := r.Floats(n)
	blocks := bt.Blocks(n, 2*Block)
	out := bt.Zeros[float32](t, d, blocks)
	bt.Run(t, d, Sum, bt.Dim(blocks), bt.Dim(Block), bt.Up(t, d, in), out)
	want := make([]float32, blocks)
	for i, v := range in {
		want[i/(2*Block)] += v
	}
	bt.Near(t, "sum", bt.Down(t, out), want, 1e-5)
}

func TestMaxDot(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(20)
	n := 5000
	ints := make([]int32, n)
	want := int32(-1 << 31)
	for i := range ints {
		ints[i] = int32(r.Intn(1<<30)) - 1<<29
		want = max(want, ints[i])
	}
	m := bt.Up(t, d, []int32{-1 << 31})
	bt.Run(t, d, MaxInt, bt.Dim(5), bt.Dim(Block), bt.Up(t, d, ints), m)
	bt.Equal(t, "max", bt.Down(t, m), []int32{want})

	x, y := r.Floats(n), r.Floats(n)
	var dot float32
	for i := range x {
		dot += x[i] * y[i]
	}
	out := bt.Zeros[float32](t, d, 1)
	bt.Run(t, d, Dot, bt.Dim(7), bt.Dim(Block), bt.Up(t, d, x), bt.Up(t, d, y), out)
	bt.Near(t, "dot", bt.Down(t, out), []float32{dot}, 1e-4)
}
