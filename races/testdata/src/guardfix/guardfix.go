// Package guardfix holds races that happen only for sizes a guard at the
// kernel's top excludes; the diagnostic offers the guard as a fix.
package guardfix

import "github.com/gpukvet/gpukvet/gpu"

// ColumnScale races only for an empty row (n = 0: every thread writes
// q[k]).
//
//gpu:kernel block=256
func ColumnScale(t gpu.Thread, m, n, k int, a, q []float32) {
	i := t.GlobalIdx().X
	if i < m {
		q[i*n+k] = a[i*n+k] * 2 // want `data race on global q: .*\(when .*n = 0\); it needs n < 1, which the kernel can exclude as a precondition: if n < 1 \{ panic\(...\) \} at its top`
	}
}

// Tiles races only without tiles: each thread's four cells are x·(tiles+3)
// + r, overlapping the next thread's when tiles+3 < 4.
//
//gpu:kernel block=16 grid=1
func Tiles(t gpu.Thread, out []float32, tiles int) {
	x := t.ThreadIdx().X
	for r := 0; r < 4; r++ {
		out[x*(tiles+3)+r] = 1 // want `it needs tiles < 1`
	}
}

// Shifted races for every size: no guard is offered.
//
//gpu:kernel block=64 grid=1
func Shifted(t gpu.Thread, out []float32, n int) {
	x := t.ThreadIdx().X
	if x < n {
		out[x/2] = 1 // want `data race on global out: thread 0 and thread 1 both write out\[0\] \(line 35\) with no barrier between \(when n = 2\)$`
	}
}

// StripTranspose writes a 256 × m strip transposed, m = len(in)/256:
// element i goes to (i%256)·m + i/256. With a length that is not a
// multiple of the block, the last partial column lands on the next row's
// first element.
//
//gpu:kernel block=256
func StripTranspose(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(in) {
		return
	}
	m := len(in) / 256
	out[(i%256)*m+i/256] = in[i] // want `data race on global out: .*; it needs len\(in\)%256 != 0, which the kernel can exclude as a precondition: if len\(in\)%256 != 0 \{ panic\(...\) \} at its top`
}

// StripTransposeAnyBlock: the same with the block size a launch choice.
//
//gpu:kernel
func StripTransposeAnyBlock(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(in) {
		return
	}
	bd := t.BlockDim().X
	m := len(in) / bd
	out[(i%bd)*m+i/bd] = in[i] // want `it needs len\(in\)%t.BlockDim\(\).X != 0`
}

// Wrap folds the block onto n shared slots: with n smaller than the block,
// two threads share one.
//
//gpu:kernel
func Wrap(t gpu.Thread, n int, out []float32) {
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	s[tid%n] = float32(tid) // want `data race on shared s: .*; it needs n < t.BlockDim\(\).X, which the kernel can exclude as a precondition: if n < t.BlockDim\(\).X \{ panic\(...\) \} at its top`
	t.Barrier()
	if tid == 0 {
		out[t.BlockIdx().X] = s[0]
	}
}

// PairSweep is one step of a bitonic merge: thread g compares elements
// i = 2g − (g mod n) and i + n, which are the distinct pairs of the
// sweep only when n is a power of two (g & (n−1) is g mod n then).
//
//gpu:kernel
func PairSweep(t gpu.Thread, n int, a []float32) {
	g := t.GlobalIdx().X
	i := 2*g - (g & (n - 1))
	j := i + n
	if j < len(a) {
		x, y := a[i], a[j]
		if x > y {
			a[i], a[j] = y, x // want `possible data race on global a: .*; it needs n&\(n-1\) != 0, which the kernel can exclude as a precondition: if n&\(n-1\) != 0 \{ panic\(...\) \} at its top`
		}
	}
}

// Ring wraps n threads onto the slice: with more threads than elements,
// two of them update one.
//
//gpu:kernel
func Ring(t gpu.Thread, n int, a []float32) {
	i := t.GlobalIdx().X
	if i < n {
		a[i%len(a)] += 1 // want `data race on global a: .*; it needs n > len\(a\), which the kernel can exclude as a precondition: if n > len\(a\) \{ panic\(...\) \} at its top`
	}
}
