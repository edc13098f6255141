// Package s27 holds kernels translated by hand from public GPU suites that
// the project's corpora had not used, written before they were run through
// gpukvet, to score the checks and the emitters on code nobody tuned them
// for (see ../README.md). Each kernel's doc comment says where it comes
// from and its verdict, decided from the code and DIALECT.md.
package s27

import "github.com/gpukvet/gpukvet/gpu"

// Mvt2Wrong: mvt kernel 2 written with the loops swapped by mistake: each
// thread adds into every x2[j], so all threads write every element.
// verdict: race
//
//gpu:kernel
func Mvt2Wrong(t gpu.Thread, n int, A, x2, y2 []float32) {
	i := t.GlobalIdx().X
	if i < n && i < len(y2) {
		for j := 0; j < n && j < len(x2); j++ {
			x2[j] += A[i*n+j] * y2[i]
		}
	}
}

// BlellochScanNoDownBarrier: the same scan with the barrier of the
// down-sweep left out: level d reads temp[ai] that level d/2 writes.
// verdict: race
//
//gpu:kernel block=256
func BlellochScanNoDownBarrier(t gpu.Thread, g []float32) {
	temp := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	base := t.BlockIdx().X * 512
	if base+2*tid+1 < len(g) {
		temp[2*tid] = g[base+2*tid]
		temp[2*tid+1] = g[base+2*tid+1]
	}
	offset := 1
	for d := 512 >> 1; d > 0; d >>= 1 {
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			temp[bi] += temp[ai]
		}
		offset *= 2
	}
	if tid == 0 {
		temp[511] = 0
	}
	t.Barrier()
	for d := 1; d < 512; d *= 2 {
		offset >>= 1
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			v := temp[ai]
			temp[ai] = temp[bi]
			temp[bi] += v
		}
	}
	t.Barrier()
	if base+2*tid+1 < len(g) {
		g[base+2*tid] = temp[2*tid]
		g[base+2*tid+1] = temp[2*tid+1]
	}
}

// CounterMixed: a global counter reset by thread 0 with a plain store
// while every thread adds to it atomically (CUDA samples'
// simpleAtomicIntrinsics, with the reset moved into the kernel).
// verdict: race
//
//gpu:kernel
func CounterMixed(t gpu.Thread, counter []int32) {
	if len(counter) == 0 {
		return
	}
	if t.GlobalIdx().X == 0 {
		counter[0] = 0
	}
	gpu.AtomicAdd(&counter[0], 1)
}

var scale = []float32{1, 2, 3}

// ScaleFromPackageVar: reads a package-level slice, host memory, in the
// kernel (a mistake Numba and CUDA Python users make with globals).
// verdict: memspace
//
//gpu:kernel
func ScaleFromPackageVar(t gpu.Thread, x []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		x[i] *= scale[i%3]
	}
}
