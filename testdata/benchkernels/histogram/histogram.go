// Package histogram is the CUDA SDK's histogram256: each block counts its
// part of the data in a shared histogram with shared-memory atomics, then
// adds it to the global histogram with global atomics.
package histogram

import "github.com/gpukvet/gpukvet/gpu"

// Bins is the number of bins and of threads per block.
const Bins = 256

// Hist256 adds the byte histogram of data to hist.
//
//gpu:kernel block=256
func Hist256(t gpu.Thread, data []uint32, hist []uint32) {
	local := gpu.Shared[[Bins]uint32](t)
	tid := t.ThreadIdx().X
	local[tid] = 0
	t.Barrier()
	stride := t.GridDim().X * Bins
	for i := t.GlobalIdx().X; i < len(data); i += stride {
		v := data[i]
		gpu.AtomicAdd(&local[v&0xff], 1)
		gpu.AtomicAdd(&local[(v>>8)&0xff], 1)
		gpu.AtomicAdd(&local[(v>>16)&0xff], 1)
		gpu.AtomicAdd(&local[v>>24], 1)
	}
	t.Barrier()
	gpu.AtomicAdd(&hist[tid], local[tid])
}
