// Package scan holds the CUDA SDK's block scans: the work-efficient
// (Blelloch) exclusive scan with an up-sweep and a down-sweep over a shared
// array of 2*Block elements, and the naive double-buffered inclusive
// (Hillis-Steele) scan; AddSums adds scanned block sums to finish a long scan.
package scan

import "github.com/gpukvet/gpukvet/gpu"

// Block is the number of threads per block.
const Block = 128

// Exclusive scans each 2*Block-element part of in into out (exclusive) and
// writes each part's total to sums[block].
//
//gpu:kernel block=128
func Exclusive(t gpu.Thread, in, out, sums []int32) {
	temp := gpu.Shared[[2 * Block]int32](t)
	tid := t.ThreadIdx().X
	base := t.BlockIdx().X * 2 * Block
	n := 2 * Block
	var a, b int32
	if base+2*tid < len(in) {
		a = in[base+2*tid]
	}
	if base+2*tid+1 < len(in) {
		b = in[base+2*tid+1]
	}
	temp[2*tid] = a
	temp[2*tid+1] = b
	offset := 1
	for d := n >> 1; d > 0; d >>= 1 {
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			temp[bi] += temp[ai]
		}
		offset *= 2
	}
	if tid == 0 {
		sums[t.BlockIdx().X] = temp[n-1]
		temp[n-1] = 0
	}
	for d := 1; d < n; d *= 2 {
		offset >>= 1
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			v := temp[ai]
			temp[ai] = temp[bi]
			temp[bi] += v
		}
	}
	t.Barrier()
	if base+2*tid < len(out) {
		out[base+2*tid] = temp[2*tid]
	}
	if base+2*tid+1 < len(out) {
		out[base+2*tid+1] = temp[2*tid+1]
	}
}

// AddSums adds the exclusive scan of the block sums, scanned[b], to every
// element of part b (2*Block elements each).
//
//gpu:kernel block=128
func AddSums(t gpu.Thread, scanned, out []int32) {
	b := t.BlockIdx().X
	i := b*2*Block + 2*t.ThreadIdx().X
	if i < len(out) {
		out[i] += scanned[b]
	}
	if i+1 < len(out) {
		out[i+1] += scanned[b]
	}
}

// Inclusive is the naive double-buffered inclusive scan of one block's
// Block elements of in into out.
//
//gpu:kernel block=128
func Inclusive(t gpu.Thread, in, out []float32) {
	buf := gpu.Shared[[2][Block]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var v float32
	if i < len(in) {
		v = in[i]
	}
	pout, pin := 0, 1
	buf[pout][tid] = v
	t.Barrier()
	for off := 1; off < Block; off *= 2 {
		pout = 1 - pout
		pin = 1 - pout
		if tid >= off {
			buf[pout][tid] = buf[pin][tid] + buf[pin][tid-off]
		} else {
			buf[pout][tid] = buf[pin][tid]
		}
		t.Barrier()
	}
	if i < len(out) {
		out[i] = buf[pout][tid]
	}
}
