package phases

import "github.com/gpukvet/gpukvet/gpu"

// The kernels below read only their thread's global index, so that their
// block loops run spans of blocks (backend.CPUCode.Spans), and index
// slices with it, so that their rows have a copy with fewer checks.

// SpanDiv divides by d[i]: an integer division can trap, so the copy of
// its row loop where d and out hold the row still records the thread.
//
//gpu:kernel
func SpanDiv(t gpu.Thread, d, out []int32) {
	i := t.GlobalIdx().X
	out[i] = 100 / d[i] // the division trap
}

// SpanCopy copies x into y: its copy where x and y hold the row cannot
// trap and records no thread; a row past x's end runs the checked copy.
//
//gpu:kernel
func SpanCopy(t gpu.Thread, x, y []float32) {
	i := t.GlobalIdx().X
	if i < len(y) {
		y[i] = x[i] + 1 // the copy trap
	}
}

// SpanCount adds its row's number plus one to one element per thread of
// a 2-d grid: a span of blocks lies in one row of the grid.
//
//gpu:kernel
func SpanCount(t gpu.Thread, w int, out []int32) {
	g := t.GlobalIdx()
	if g.X < w {
		out[g.Y*w+g.X] += int32(g.Y + 1)
	}
}
