// Package histogram counts the bytes of a buffer into 256 bins. Each block
// counts into a private histogram in shared memory with shared atomics, then
// adds it to the global histogram with one global atomic per bin, so global
// memory sees 256 atomics per block instead of one per byte.
package histogram

//go:generate go tool gpukvet gen

import "github.com/gpukvet/gpukvet/gpu"

// Bins is the number of bins, one per byte value, and the block size.
const Bins = 256

// Histogram adds the count of each byte value in data to hist, which must hold
// Bins counters. Any grid size works: the threads stride over data.
//
//gpu:kernel block=256
func Histogram(t gpu.Thread, data []uint8, hist []uint32) {
	local := gpu.Shared[[Bins]uint32](t)
	tid := t.ThreadIdx().X
	local[tid] = 0
	t.Barrier()
	stride := t.BlockDim().X * t.GridDim().X
	for i := t.GlobalIdx().X; i < len(data); i += stride {
		gpu.AtomicAdd(&local[data[i]], 1)
	}
	t.Barrier()
	if count := local[tid]; count > 0 {
		gpu.AtomicAdd(&hist[tid], count)
	}
}
