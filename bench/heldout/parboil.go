package heldout

import "github.com/gpukvet/gpukvet/gpu"

// Parboil 2.5 (CUDA base versions): sgemm and spmv.

// sgemm's register tiling: each thread keeps a column of 16 results, a
// block of 16×8 threads covers 128 rows of C.
const (
	tileN        = 16
	tileTBHeight = 8
	tileM        = tileN * tileTBHeight
)

// Sgemm is Parboil's mysgemmNT: C = alpha·A·Bᵀ + beta·C, column-major, A
// m×k (lda), B n×k (ldb), C m×n (ldc), a 128×16 tile of C per block with
// B's 8×16 slices in shared memory and A read straight from global
// memory.
//
//gpu:kernel block=16,8
func Sgemm(t gpu.Thread, a []float32, lda int, b []float32, ldb int, c []float32, ldc, k int, alpha, beta float32) {
	// Parboil's host code requires m%128 == 0, n%16 == 0, k%8 == 0.
	if lda != ldc || ldc%tileM != 0 || t.GridDim().X*tileM != ldc || ldb%tileN != 0 || t.GridDim().Y*tileN != ldb || k%tileTBHeight != 0 {
		panic("m must be a multiple of 128, n of 16, k of 8, and the grid m/128 × n/16")
	}
	var cr [tileN]float32 // partial results
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	mid := ty*t.BlockDim().X + tx // flattened id
	m := t.BlockIdx().X*tileM + mid
	n := t.BlockIdx().Y*tileN + tx
	bs := gpu.Shared[[tileTBHeight][tileN]float32](t)
	for i := 0; i < k; i += tileTBHeight {
		bs[ty][tx] = b[n+(i+ty)*ldb]
		t.Barrier()
		for j := 0; j < tileTBHeight; j++ {
			av := a[m+(i+j)*lda]
			for kk := 0; kk < tileN; kk++ {
				cr[kk] += av * bs[j][kk]
			}
		}
		t.Barrier()
	}
	tt := ldc*t.BlockIdx().Y*tileN + m
	for i := 0; i < tileN; i++ {
		c[tt+i*ldc] = c[tt+i*ldc]*beta + alpha*cr[i]
	}
}

// SpmvJDS is Parboil's spmv_jds_naive: y = A·x with A in jagged diagonal
// storage, a thread per (permuted) row; jdsPtr and zcnt are the source's
// constant arrays (start of each diagonal, diagonals per 32 rows).
//
//gpu:kernel block=256
func SpmvJDS(t gpu.Thread, dst, data []float32, index, perm []int32, x []float32, dim int, jdsPtr, zcnt []int32) {
	ix := t.GlobalIdx().X
	if ix < dim {
		var sum float32
		bound := int(zcnt[ix/32]) // 32 is the warp size
		for k := 0; k < bound; k++ {
			j := int(jdsPtr[k]) + ix
			in := index[j]
			d := data[j]
			xv := x[in]
			sum += d * xv
		}
		//gpukvet:ignore races perm is a permutation of the rows (JDS's row order), so no two threads write one element
		dst[perm[ix]] = sum
	}
}
