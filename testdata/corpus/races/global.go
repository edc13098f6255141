package racecorpus

import "github.com/gpukvet/gpukvet/gpu"

// GlobalSingleSlot: every thread of the grid writes out[0].
// verdict: race
//
//gpu:kernel
func GlobalSingleSlot(t gpu.Thread, in, out []float32) {
	out[0] = in[t.GlobalIdx().X]
}

// GlobalPerBlockSlot: every thread of a block writes its block's slot.
// verdict: race
//
//gpu:kernel
func GlobalPerBlockSlot(t gpu.Thread, in, out []float32) {
	out[t.BlockIdx().X] = in[t.GlobalIdx().X]
}

// GlobalPerBlockSlotGuarded: only thread 0 of each block writes it.
// verdict: clean
//
//gpu:kernel
func GlobalPerBlockSlotGuarded(t gpu.Thread, in, out []float32) {
	if t.ThreadIdx().X == 0 {
		out[t.BlockIdx().X] = in[t.GlobalIdx().X]
	}
}

// GlobalThreadIdxAcrossBlocks indexes global memory by ThreadIdx, so the
// same element is written by one thread of every block.
// verdict: race
//
//gpu:kernel
func GlobalThreadIdxAcrossBlocks(t gpu.Thread, in, out []float32) {
	out[t.ThreadIdx().X] = in[t.GlobalIdx().X]
}

// GlobalThreadIdxOneBlock indexes by ThreadIdx in a single-block grid.
// verdict: clean
//
//gpu:kernel grid=1
func GlobalThreadIdxOneBlock(t gpu.Thread, in, out []float32) {
	out[t.ThreadIdx().X] = in[t.ThreadIdx().X]
}

// GlobalNextBlockRead is GPUVerify's inter-block example: block b updates
// its segment from block b+1's segment, which block b+1 updates.
// verdict: race
//
//gpu:kernel block=256
func GlobalNextBlockRead(t gpu.Thread, a []float32) {
	b, d, i := t.BlockIdx().X, 256, t.ThreadIdx().X
	if b+1 < t.GridDim().X {
		a[b*d+i] += a[(b+1)*d+i]
	}
}

// GlobalInPlace scales each element in place by its own thread.
// verdict: clean
//
//gpu:kernel
func GlobalInPlace(t gpu.Thread, a []float32, n int) {
	i := t.GlobalIdx().X
	if i < n {
		a[i] *= 2
	}
}

// GlobalShiftInPlace shifts an array in place: thread i reads a[i+1]
// which thread i+1 writes.
// verdict: race
//
//gpu:kernel
func GlobalShiftInPlace(t gpu.Thread, a []float32, n int) {
	i := t.GlobalIdx().X
	if i+1 < n {
		a[i] = a[i+1]
	}
}

// GlobalShiftOutOfPlace shifts into another buffer.
// verdict: clean
//
//gpu:kernel
func GlobalShiftOutOfPlace(t gpu.Thread, in, out []float32, n int) {
	i := t.GlobalIdx().X
	if i+1 < n {
		out[i] = in[i+1]
	}
}

// GlobalGridStride processes n elements with a grid-stride loop.
// verdict: clean
//
//gpu:kernel block=256
func GlobalGridStride(t gpu.Thread, in, out []float32, n int) {
	for i := t.GlobalIdx().X; i < n; i += 256 * t.GridDim().X {
		out[i] = in[i] * 2
	}
}

// GlobalGridStrideOverlap strides by the block size only, so blocks
// overlap.
// verdict: race
//
//gpu:kernel block=256
func GlobalGridStrideOverlap(t gpu.Thread, in, out []float32, n int) {
	for i := t.GlobalIdx().X; i < n; i += 256 {
		out[i] = in[i] * 2
	}
}

// Global2D writes a row-major 2-D array indexed by the 2-D global index.
// verdict: clean
//
//gpu:kernel block=16,16
func Global2D(t gpu.Thread, out []float32, w, h int) {
	x, y := t.GlobalIdx().X, t.GlobalIdx().Y
	if x < w && y < h {
		out[y*w+x] = float32(x + y)
	}
}

// Global2DSwapped writes with a hard-coded row width of 8 although x runs
// up to w: thread (8,0) and thread (0,1) both write out[8].
// verdict: race
//
//gpu:kernel block=16,16
func Global2DSwapped(t gpu.Thread, out []float32, w, h int) {
	x, y := t.GlobalIdx().X, t.GlobalIdx().Y
	if x < w && y < h {
		out[y*8+x] = float32(x + y)
	}
}

// GlobalPairSum: block-local pair sums written out by the even threads.
// verdict: clean
//
//gpu:kernel
func GlobalPairSum(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	if i%2 == 0 {
		out[i/2] = in[i] + in[i+1]
	}
}

// GlobalHalfIndex: two threads write each out[i/2].
// verdict: race
//
//gpu:kernel
func GlobalHalfIndex(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	out[i/2] = in[i]
}

// GlobalBlockResultThenRead: thread 0 of each block writes a partial sum,
// and every thread then reads all partial sums of the grid, which other
// blocks may not have written yet.
// verdict: race
//
//gpu:kernel block=256
func GlobalBlockResultThenRead(t gpu.Thread, partial, out []float32) {
	if t.ThreadIdx().X == 0 {
		partial[t.BlockIdx().X] = float32(t.BlockIdx().X)
	}
	t.Barrier()
	var s float32
	for b := 0; b < t.GridDim().X; b++ {
		s += partial[b]
	}
	out[t.GlobalIdx().X] = s
}

// GlobalBlockResultOwnRead reads only its own block's partial after the
// barrier.
// verdict: clean
//
//gpu:kernel block=256
func GlobalBlockResultOwnRead(t gpu.Thread, partial, out []float32) {
	if t.ThreadIdx().X == 0 {
		partial[t.BlockIdx().X] = float32(t.BlockIdx().X)
	}
	t.Barrier()
	out[t.GlobalIdx().X] = partial[t.BlockIdx().X]
}

// GlobalGridStrideAnyBlock is the grid-stride loop with no fixed block
// shape: the stride BlockDim·GridDim is symbolic.
// verdict: clean
//
//gpu:kernel
func GlobalGridStrideAnyBlock(t gpu.Thread, in, out []float32, n int) {
	for i := t.GlobalIdx().X; i < n; i += t.BlockDim().X * t.GridDim().X {
		out[i] = in[i] + 1
	}
}

// GlobalGridStrideAnyBlockShort strides by the block size only, so the
// next block's first pass meets this block's second.
// verdict: race
//
//gpu:kernel
func GlobalGridStrideAnyBlockShort(t gpu.Thread, in, out []float32, n int) {
	for i := t.GlobalIdx().X; i < n; i += t.BlockDim().X {
		out[i] = in[i] + 1
	}
}
