package odd

import "github.com/gpukvet/gpukvet/gpu"

// Kernels that are 2-D or 3-D only through their grid (1-D blocks of a
// fixed size): naming a witness's threads must not stop at the
// ThreadIdx().Y or .Z the indices never use (it panicked once).

// GridOfRowsHalf: Rodinia's 2-D grid of 1-D blocks, two threads a cell.
//
//gpu:kernel block=256
func GridOfRowsHalf(t gpu.Thread, out []float32, n int) {
	bid := t.BlockIdx().X + t.GridDim().X*t.BlockIdx().Y
	tid := t.BlockDim().X*bid + t.ThreadIdx().X
	if tid < n {
		out[tid/2] = 1 // want `data race on global out: thread \(\d+,0\) and thread \(\d+,0\) both write out\[\d+\]`
	}
}

// GridOfRowsOwn: its correct twin, a cell a thread.
//
//gpu:kernel block=256
func GridOfRowsOwn(t gpu.Thread, out []float32, n int) {
	bid := t.BlockIdx().X + t.GridDim().X*t.BlockIdx().Y
	tid := t.BlockDim().X*bid + t.ThreadIdx().X
	if tid < n {
		out[tid] = 1
	}
}

// GridPlanesSharedPairs: a 3-D grid of 1-D blocks whose threads share
// shared cells in pairs.
//
//gpu:kernel block=64
func GridPlanesSharedPairs(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	s[t.ThreadIdx().X/2] = float32(t.BlockIdx().Z) // want `data race on shared s: thread \(\d+,0,0\) and thread \(\d+,0,0\) both write s\[\d+\]`
	t.Barrier()
	i := t.BlockIdx().X + t.GridDim().X*(t.BlockIdx().Y+t.GridDim().Y*t.BlockIdx().Z)
	if t.ThreadIdx().X == 0 && i < len(out) {
		out[i] = s[0]
	}
}
