// Package reduction holds the CUDA SDK's tree reduction (reduce3: the first
// add during the load, sequential addressing, no warp unrolling) and a dot
// product that finishes with one atomic add per block.
package reduction

import "github.com/gpukvet/gpukvet/gpu"

// Block is the number of threads per block.
const Block = 256

// Sum writes the sum of block b's 2*Block elements of in to out[b].
//
//gpu:kernel block=256
func Sum(t gpu.Thread, in, out []float32) {
	sdata := gpu.Shared[[Block]float32](t)
	tid := t.ThreadIdx().X
	i := t.BlockIdx().X*(2*Block) + tid
	var v float32
	if i < len(in) {
		v = in[i]
	}
	if i+Block < len(in) {
		v += in[i+Block]
	}
	sdata[tid] = v
	t.Barrier()
	for s := t.BlockDim().X / 2; s > 0; s >>= 1 {
		if tid < s {
			sdata[tid] += sdata[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sdata[0]
	}
}

// MaxInt writes the maximum of in to out[0] with a grid-stride loop, a shared
// tree and one atomic per block.
//
//gpu:kernel block=256
func MaxInt(t gpu.Thread, in, out []int32) {
	sdata := gpu.Shared[[Block]int32](t)
	tid := t.ThreadIdx().X
	m := int32(-1 << 31)
	for i := t.GlobalIdx().X; i < len(in); i += t.GridDim().X * Block {
		m = max(m, in[i])
	}
	sdata[tid] = m
	t.Barrier()
	for s := Block / 2; s > 0; s /= 2 {
		if tid < s {
			sdata[tid] = max(sdata[tid], sdata[tid+s])
		}
		t.Barrier()
	}
	if tid == 0 {
		gpu.AtomicMax(&out[0], sdata[0])
	}
}

// Dot adds the dot product of x and y to out[0].
//
//gpu:kernel block=256
func Dot(t gpu.Thread, x, y, out []float32) {
	cache := gpu.Shared[[Block]float32](t)
	tid := t.ThreadIdx().X
	var s float32
	for i := t.GlobalIdx().X; i < len(x) && i < len(y); i += t.GridDim().X * t.BlockDim().X {
		s += x[i] * y[i]
	}
	cache[tid] = s
	t.Barrier()
	for h := Block / 2; h != 0; h /= 2 {
		if tid < h {
			cache[tid] += cache[tid+h]
		}
		t.Barrier()
	}
	if tid == 0 {
		gpu.AtomicAdd(&out[0], cache[0])
	}
}
