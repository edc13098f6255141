// Package precondfix holds barriers that only some threads reach for
// sizes a precondition would exclude: the diagnostic names the guard and
// offers it as a fix.
package precondfix

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func StrideLoop(t gpu.Thread, n int, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < n; i += t.BlockDim().X {
		s[tid] = a[i]
		t.Barrier() // want "trip count differs between threads: .*; it needs n%t.BlockDim\\(\\).X != 0, which the kernel can exclude as a precondition: if n%t.BlockDim\\(\\).X != 0 \\{ panic\\(...\\) \\} at its top"
	}
}

//gpu:kernel
func BoundBelowBlock(t gpu.Thread, n int, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	if tid < n {
		s[tid] = a[tid]
		t.Barrier() // want "under the condition `tid < n` .*; it needs n < t.BlockDim\\(\\).X, which the kernel can exclude"
	}
}

//gpu:kernel block=256
func LenStride(t gpu.Thread, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < len(a); i += 256 {
		s[tid] = a[i]
		t.Barrier() // want "trip count differs between threads: .*; it needs len\\(a\\)%256 != 0"
	}
}

// No size makes the even threads all threads: no guard is offered.
//
//gpu:kernel
func EvenThreads(t gpu.Thread, n int, a []float32) {
	tid := t.ThreadIdx().X
	if tid%2 == 0 && n > 0 {
		t.Barrier() // want "under the condition `tid % 2 == 0` \\(line 43\\), which depends on ThreadIdx at line 42$"
	}
}

// After an early return the guard is named, and the fix offered is the
// one that keeps the bounds check.
//
//gpu:kernel
func EarlyReturn(t gpu.Thread, n int, a []float32) {
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	a[i] = 1
	t.Barrier() // want "some threads return .*; it needs n%t.BlockDim\\(\\).X != 0"
}
