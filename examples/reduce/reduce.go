// Package reduce sums a vector with a tree reduction in shared memory: each
// block sums its part with sequential addressing (the stride halves every
// step, so active threads stay contiguous and shared-memory accesses do not
// conflict), and Sum repeats the reduction over the block sums until one
// value is left.
package reduce

//go:generate go tool gpukvet gen

import (
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// BlockSize is the number of threads of a BlockSum block.
const BlockSize = 256

// BlockSum writes the sum of block b's BlockSize elements of in to out[b].
//
//gpu:kernel block=256
func BlockSum(t gpu.Thread, in, out []float32) {
	partial := gpu.Shared[[BlockSize]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var v float32
	if i < len(in) {
		v = in[i]
	}
	partial[tid] = v
	t.Barrier()
	for stride := BlockSize / 2; stride > 0; stride /= 2 {
		if tid < stride {
			partial[tid] += partial[tid+stride]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = partial[0]
	}
}

// Sum returns the sum of the elements of in.
func Sum(d *device.Device, in *device.Buffer[float32]) (float32, error) {
	n := in.Len()
	if n == 0 {
		return 0, nil
	}
	blocks := (n + BlockSize - 1) / BlockSize
	out, err := device.Alloc[float32](d, blocks)
	if err != nil {
		return 0, err
	}
	defer out.Free()
	grid := gpu.Dim3{X: blocks, Y: 1, Z: 1}
	if err := d.Launch(BlockSum, grid, gpu.Dim3{X: BlockSize, Y: 1, Z: 1}, in, out); err != nil {
		return 0, err
	}
	if blocks == 1 {
		sums, err := out.Download()
		if err != nil {
			return 0, err
		}
		return sums[0], nil
	}
	return Sum(d, out)
}
