// Package compact is prefix-sum based stream compaction: Scan computes, per
// block, the exclusive scan of the keep flags (x > threshold) and the
// block's count; after the host scans the counts, Scatter writes every kept
// element to its position.
package compact

import "github.com/gpukvet/gpukvet/gpu"

// Block is the number of threads per block.
const Block = 256

// Scan writes, for each element, its position among the kept elements of
// its block to pos, and each block's number of kept elements to counts.
//
//gpu:kernel block=256
func Scan(t gpu.Thread, threshold float32, in []float32, pos, counts []int32) {
	buf := gpu.Shared[[2][Block]int32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var keep int32
	if i < len(in) && in[i] > threshold {
		keep = 1
	}
	cur := 0
	buf[0][tid] = keep
	t.Barrier()
	for off := 1; off < Block; off <<= 1 {
		nxt := 1 - cur
		v := buf[cur][tid]
		if tid >= off {
			v += buf[cur][tid-off]
		}
		buf[nxt][tid] = v
		cur = nxt
		t.Barrier()
	}
	if i < len(pos) {
		pos[i] = buf[cur][tid] - keep // exclusive
	}
	if tid == Block-1 {
		counts[t.BlockIdx().X] = buf[cur][tid]
	}
}

// Scatter copies each kept element in[i] to out[offsets[block]+pos[i]].
//
//gpu:kernel block=256
func Scatter(t gpu.Thread, threshold float32, in []float32, pos, offsets []int32, out []float32) {
	i := t.GlobalIdx().X
	if i < len(in) && i < len(pos) && in[i] > threshold {
		// Positions come from an exclusive scan of the keep flags, so
		// distinct kept elements get distinct slots; no analysis sees that.
		//gpukvet:ignore races scan positions are distinct for distinct kept elements
		out[offsets[t.BlockIdx().X]+pos[i]] = in[i]
	}
}
