// Package sort holds bitonic sort kernels: the global compare-and-swap step
// of one (k, j) stage, with the partner ixj := i ^ j, and the CUDA SDK's
// shared-memory sort of one block's elements.
package sort

import "github.com/gpukvet/gpukvet/gpu"

// Block is the number of threads (and elements) of a shared sort block.
const Block = 256

// Step performs stage (k, j) of a bitonic sort of a (len a a power of two).
//
//gpu:kernel block=256
func Step(t gpu.Thread, j, k int, a []int32) {
	i := t.GlobalIdx().X
	ixj := i ^ j
	if ixj > i && ixj < len(a) {
		x, y := a[i], a[ixj]
		if (i&k == 0 && x > y) || (i&k != 0 && x < y) {
			a[i], a[ixj] = y, x
		}
	}
}

// Shared sorts each block's Block elements of a ascending.
//
//gpu:kernel block=256
func Shared(t gpu.Thread, a []float32) {
	s := gpu.Shared[[Block]float32](t)
	tid := t.ThreadIdx().X
	g := t.GlobalIdx().X
	if g < len(a) {
		s[tid] = a[g]
	} else {
		s[tid] = 3.4e38
	}
	t.Barrier()
	for k := 2; k <= Block; k <<= 1 {
		for j := k >> 1; j > 0; j >>= 1 {
			ixj := tid ^ j
			if ixj > tid {
				up := tid&k == 0
				if (s[tid] > s[ixj]) == up {
					s[tid], s[ixj] = s[ixj], s[tid]
				}
			}
			t.Barrier()
		}
	}
	if g < len(a) {
		a[g] = s[tid]
	}
}
