// Package scan computes inclusive prefix sums. BlockScan scans each block's
// part with the Hillis–Steele algorithm in double-buffered shared memory:
// in step k every thread adds the element 2^k places to its left, reading one
// buffer and writing the other, so no thread overwrites a value another
// thread still has to read in the same step. Scan scans the block totals the
// same way, recursively, and AddOffsets adds each block's offset.
package scan

//go:generate go tool gpukvet gen

import (
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// BlockSize is the number of threads, and of elements, of a block.
const BlockSize = 256

// BlockScan writes to out the inclusive prefix sums of each block's
// BlockSize elements of in, and to sums[b] the total of block b.
//
//gpu:kernel block=256
func BlockScan(t gpu.Thread, in, out, sums []int32) {
	buf := gpu.Shared[[2][BlockSize]int32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var v int32
	if i < len(in) {
		v = in[i]
	}
	buf[0][tid] = v
	t.Barrier()
	src := 0
	for offset := 1; offset < BlockSize; offset *= 2 {
		x := buf[src][tid]
		if tid >= offset {
			x += buf[src][tid-offset]
		}
		buf[1-src][tid] = x
		t.Barrier()
		src = 1 - src
	}
	if i < len(out) {
		out[i] = buf[src][tid]
	}
	if tid == BlockSize-1 {
		sums[t.BlockIdx().X] = buf[src][tid]
	}
}

// AddOffsets adds to each element of block b > 0 of out the inclusive scan of
// the block totals up to block b-1.
//
//gpu:kernel block=256
func AddOffsets(t gpu.Thread, offsets, out []int32) {
	i := t.GlobalIdx().X
	b := t.BlockIdx().X
	if b > 0 && i < len(out) {
		out[i] += offsets[b-1]
	}
}

// Scan replaces the contents of data by their inclusive prefix sums.
func Scan(d *device.Device, data *device.Buffer[int32]) error {
	n := data.Len()
	if n == 0 {
		return nil
	}
	blocks := (n + BlockSize - 1) / BlockSize
	sums, err := device.Alloc[int32](d, blocks)
	if err != nil {
		return err
	}
	defer sums.Free()
	grid := gpu.Dim3{X: blocks, Y: 1, Z: 1}
	block := gpu.Dim3{X: BlockSize, Y: 1, Z: 1}
	if err := d.Launch(BlockScan, grid, block, data, data, sums); err != nil {
		return err
	}
	if blocks == 1 {
		return d.Sync()
	}
	if err := Scan(d, sums); err != nil {
		return err
	}
	if err := d.Launch(AddOffsets, grid, block, sums, data); err != nil {
		return err
	}
	return d.Sync()
}
