package divergence

import "github.com/gpukvet/gpukvet/gpu"

// Preconditions: a guard at the kernel's top that panics states what the
// kernel assumes, and the divergence check takes it as a fact. Each clean
// kernel here has a divergent twin without the guard.

// StrideTilesGuarded walks a block-stride loop over n elements with two
// barriers per tile; n a multiple of the block gives every thread n/BlockDim
// iterations.
//
// verdict: clean
// launch: block=64 grid=1 n=192
//
//gpu:kernel
func StrideTilesGuarded(t gpu.Thread, n int, in, out []float32) {
	if n%t.BlockDim().X != 0 {
		panic("n must be a multiple of the block size")
	}
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < n; i += t.BlockDim().X {
		s[tid] = in[i]
		t.Barrier()
		out[i] = s[(tid+1)%t.BlockDim().X]
		t.Barrier()
	}
}

// StrideTilesAnyN: the same loop with no guard; with n = 100 the threads
// past 35 run one iteration fewer.
//
// verdict: divergent
// launch: block=64 grid=1 n=100
//
//gpu:kernel
func StrideTilesAnyN(t gpu.Thread, n int, in, out []float32) {
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < n; i += t.BlockDim().X {
		s[tid] = in[i]
		t.Barrier()
		out[i] = s[(tid+1)%t.BlockDim().X]
		t.Barrier()
	}
}

// ExactGridReturn keeps the usual bounds check, which the guard makes
// never true: the grid covers n exactly.
//
// verdict: clean
// launch: block=64 grid=2 n=128
//
//gpu:kernel
func ExactGridReturn(t gpu.Thread, n int, in, out []float32) {
	if t.GridDim().X*t.BlockDim().X != n {
		panic("the grid must cover n exactly")
	}
	s := gpu.Shared[[1024]float32](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	if i >= n {
		return
	}
	s[tid] = in[i]
	t.Barrier()
	out[i] = s[(tid+1)%t.BlockDim().X]
}

// WholeTileLength: a block of 64 and a length that is a multiple of it:
// each block is wholly inside or wholly outside the slice.
//
// verdict: clean
// launch: block=64 grid=3 len=128
//
//gpu:kernel block=64
func WholeTileLength(t gpu.Thread, in []float32) {
	if len(in)%64 != 0 {
		panic("len(in) must be a multiple of 64")
	}
	s := gpu.Shared[[64]float32](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	if i < len(in) {
		s[tid] = in[i]
		t.Barrier()
		in[i] = s[63-tid]
	}
}

// PartialTileLength: the same with no guard; with 100 elements the second
// block's threads past 35 skip the barrier.
//
// verdict: divergent
// launch: block=64 grid=2 len=100
//
//gpu:kernel block=64
func PartialTileLength(t gpu.Thread, in []float32) {
	s := gpu.Shared[[64]float32](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	if i < len(in) {
		s[tid] = in[i]
		t.Barrier()
		in[i] = s[63-tid]
	}
}
