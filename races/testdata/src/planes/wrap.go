package planes

import "github.com/gpukvet/gpukvet/gpu"

// Columns one past the row: in a flat row-major index r·w + c, a column
// c = w is cell 0 of row r + 1. HeCBench matrix-rotate's ring written with
// its last index w − layer reaches it: ring L keeps rows and columns L and
// w − L, ring M > L only ones strictly between, and ring 0's column w
// wraps onto its own column 0. The row-major fact reads such an index as
// that cell. Each clean kernel has a racy twin whose ring reaches one
// further (ring 0's column w + 1 is ring 1's corner).

// RingsToLast: the four-way swap along ring `layer`'s sides, last = w − layer.
//
//gpu:kernel
func RingsToLast(t gpu.Thread, m []float32, w int) {
	layer := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if layer < w/2 {
		first, last := layer, w-layer
		for i := first; i < last; i++ {
			offset := i - first
			top := m[first*w+i]
			m[first*w+i] = m[(last-offset)*w+first]
			m[(last-offset)*w+first] = m[last*w+last-offset]
			m[last*w+last-offset] = m[i*w+last]
			m[i*w+last] = top
		}
	}
}

// RingsPastLast: last = w − layer + 1.
//
//gpu:kernel
func RingsPastLast(t gpu.Thread, m []float32, w int) {
	layer := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if layer < w/2 {
		first, last := layer, w-layer+1
		for i := first; i < last; i++ {
			offset := i - first
			top := m[first*w+i]
			m[first*w+i] = m[(last-offset)*w+first]
			m[(last-offset)*w+first] = m[last*w+last-offset] // want `race on global m`
			m[last*w+last-offset] = m[i*w+last]              // want `race on global m`
			m[i*w+last] = top                                // want `race on global m`
		}
	}
}

// RingSidesToLast: ring `layer`'s top row and right column stored, its
// columns and rows running to w − layer.
//
//gpu:kernel
func RingSidesToLast(t gpu.Thread, m []float32, w int) {
	layer := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if layer < w/2 {
		last := w - layer
		for i := layer; i < last; i++ {
			m[layer*w+i] = 1
			m[i*w+last] = 2
		}
	}
}

// RingSidesPastLast: running to w − layer + 1.
//
//gpu:kernel
func RingSidesPastLast(t gpu.Thread, m []float32, w int) {
	layer := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if layer < w/2 {
		last := w - layer + 1
		for i := layer; i < last; i++ {
			m[layer*w+i] = 1
			m[i*w+last] = 2 // want `race on global m`
		}
	}
}
