// Package spmv is Parboil's sparse matrix-vector product over a CSR matrix,
// one thread per row, plus a vector-per-row form with a shared reduction.
package spmv

import "github.com/gpukvet/gpukvet/gpu"

// CSR computes y = A*x for A in CSR form (rowPtr, cols, vals).
//
//gpu:kernel block=128
func CSR(t gpu.Thread, rowPtr, cols []int32, vals, x, y []float32) {
	r := t.GlobalIdx().X
	if r < len(y) && r+1 < len(rowPtr) {
		var s float32
		for k := rowPtr[r]; k < rowPtr[r+1]; k++ {
			s += vals[k] * x[cols[k]]
		}
		y[r] = s
	}
}

// CSRVector computes y = A*x with one block of 64 threads per row.
//
//gpu:kernel block=64
func CSRVector(t gpu.Thread, rowPtr, cols []int32, vals, x, y []float32) {
	part := gpu.Shared[[64]float32](t)
	r := t.BlockIdx().X
	tid := t.ThreadIdx().X
	var s float32
	if r < len(y) {
		for k := int(rowPtr[r]) + tid; k < int(rowPtr[r+1]); k += 64 {
			s += vals[k] * x[cols[k]]
		}
	}
	part[tid] = s
	t.Barrier()
	for h := 32; h > 0; h /= 2 {
		if tid < h {
			part[tid] += part[tid+h]
		}
		t.Barrier()
	}
	if tid == 0 && r < len(y) {
		y[r] = part[0]
	}
}
