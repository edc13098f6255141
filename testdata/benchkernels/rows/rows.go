// Package rows holds row-wise kernels of neural-network inference: softmax
// (max, exp, sum) and layer normalization (mean, variance), one block per
// row with tree reductions in shared memory.
package rows

import (
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// Block is the number of threads per row.
const Block = 128

// Softmax writes softmax(in[row]) to out[row] for rows of n elements.
//
//gpu:kernel block=128
func Softmax(t gpu.Thread, n int, in, out []float32) {
	red := gpu.Shared[[Block]float32](t)
	row := t.BlockIdx().X
	tid := t.ThreadIdx().X
	base := row * n
	m := float32(-3.4e38)
	for j := tid; j < n; j += Block {
		m = max(m, in[base+j])
	}
	red[tid] = m
	t.Barrier()
	for s := Block / 2; s > 0; s /= 2 {
		if tid < s {
			red[tid] = max(red[tid], red[tid+s])
		}
		t.Barrier()
	}
	m = red[0]
	t.Barrier()
	var sum float32
	for j := tid; j < n; j += Block {
		e := math32.Exp(in[base+j] - m)
		out[base+j] = e
		sum += e
	}
	red[tid] = sum
	t.Barrier()
	for s := Block / 2; s > 0; s /= 2 {
		if tid < s {
			red[tid] += red[tid+s]
		}
		t.Barrier()
	}
	inv := 1 / red[0]
	for j := tid; j < n; j += Block {
		out[base+j] *= inv
	}
}

// blockSum returns the sum of v over the block's threads, using buf.
func blockSum(t gpu.Thread, buf *[Block]float32, v float32) float32 {
	tid := t.ThreadIdx().X
	buf[tid] = v
	t.Barrier()
	for s := Block / 2; s > 0; s >>= 1 {
		if tid < s {
			buf[tid] += buf[tid+s]
		}
		t.Barrier()
	}
	r := buf[0]
	t.Barrier()
	return r
}

// LayerNorm normalizes each row of n elements to zero mean and unit
// variance, then scales by gamma and shifts by beta.
//
//gpu:kernel block=128
func LayerNorm(t gpu.Thread, n int, eps float32, in, gamma, beta, out []float32) {
	buf := gpu.Shared[[Block]float32](t)
	base := t.BlockIdx().X * n
	tid := t.ThreadIdx().X
	var s float32
	for j := tid; j < n; j += Block {
		s += in[base+j]
	}
	mean := blockSum(t, buf, s) / float32(n)
	var v float32
	for j := tid; j < n; j += Block {
		d := in[base+j] - mean
		v += d * d
	}
	rstd := 1 / math32.Sqrt(blockSum(t, buf, v)/float32(n)+eps)
	for j := tid; j < n; j += Block {
		out[base+j] = (in[base+j]-mean)*rstd*gamma[j] + beta[j]
	}
}
