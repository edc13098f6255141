package device_test

// The kernels of these tests run on the cpu backend. Some are wrong on
// purpose, to show the errors the runtime gives; the //gpukvet:ignore
// comments keep the static checks quiet about them.

import (
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func addOne(t gpu.Thread, xs []int32) {
	i := t.GlobalIdx().X
	if i < len(xs) {
		xs[i]++
	}
}

type pair struct {
	A int32
	B float64
}

//gpu:kernel
func mixed(t gpu.Thread, k int32, scale float32, on bool, p pair, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) && on {
		out[i] = scale*float32(k+p.A) + float32(p.B)
	}
}

//gpu:kernel block=64
func fixedBlock(t gpu.Thread, out []int32) {
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel grid=1
func singleBlock(t gpu.Thread, out []int32) {
	out[t.ThreadIdx().X] = 1
}

//gpu:kernel
func twoD(t gpu.Thread, w int, out []int32) {
	g := t.GlobalIdx()
	//gpukvet:ignore races the test launches it with w the grid's width in threads, so each thread has its own element
	out[g.Y*w+g.X] = int32(g.X + g.Y)
}

//gpu:kernel
func threeD(t gpu.Thread, out []int32) {
	g := t.GlobalIdx()
	//gpukvet:ignore races flat numbers the threads of the grid one to one
	out[flat(t, g)] = 1
}

// flat is a device function: the kernel that calls it reads Z through it.
func flat(t gpu.Thread, g gpu.Dim3) int {
	d := t.GridDim()
	b := t.BlockDim()
	return (g.Z*d.Y*b.Y+g.Y)*d.X*b.X + g.X
}

// notKernel has a kernel's signature but no directive.
func notKernel(t gpu.Thread, xs []int32) {}

// blockSum sums each block's slice of in into out[block] with shared memory
// and barriers (sequential addressing).
//
//gpu:kernel block=64
func blockSum(t gpu.Thread, in, out []int32) {
	s := gpu.Shared[[64]int32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for stride := 32; stride > 0; stride /= 2 {
		if tid < stride {
			s[tid] += s[tid+stride]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = s[0]
	}
}

// sharedViaHelper takes its shared array from a device function called
// twice: both calls must see the same per-block instance.
//
//gpu:kernel block=32
func sharedViaHelper(t gpu.Thread, out []int32) {
	tid := t.ThreadIdx().X
	tile(t)[tid] = int32(tid)
	t.Barrier()
	out[t.GlobalIdx().X] = tile(t)[31-tid]
}

func tile(t gpu.Thread) *[32]int32 {
	return gpu.Shared[[32]int32](t)
}

// earlyReturn returns before the barrier in some threads.
//
//gpu:kernel
func earlyReturn(t gpu.Thread, n int, out []int32) {
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	t.Barrier() //gpukvet:ignore divergence the test shows the run-time error
	out[i] = 1
}

// twoBarriers sends even and odd threads to different barriers.
//
//gpu:kernel
func twoBarriers(t gpu.Thread, out []int32) {
	if t.ThreadIdx().X%2 == 0 {
		t.Barrier() //gpukvet:ignore divergence the test shows the run-time error
	} else {
		t.Barrier() //gpukvet:ignore divergence the test shows the run-time error
	}
	out[t.GlobalIdx().X] = 1
}

// outOfRange indexes past the end in one thread of one block.
//
//gpu:kernel
func outOfRange(t gpu.Thread, out []int32) {
	out[t.GlobalIdx().X+1] = 1 // traps in the last thread
}

// trapAtBarrier traps in thread 3 while the others wait at a barrier.
//
//gpu:kernel
func trapAtBarrier(t gpu.Thread, out []int32) {
	if t.ThreadIdx().X == 3 {
		panic("thread three gives up")
	}
	t.Barrier() //gpukvet:ignore divergence the test shows the run-time error
	out[t.GlobalIdx().X] = 1
}

// divide divides by a parameter that may be zero.
//
//gpu:kernel
func divide(t gpu.Thread, d int32, out []int32) {
	out[t.GlobalIdx().X] = 100 / d
}

// racyShared reads a shared element that another thread writes, with no
// barrier between.
//
//gpu:kernel block=64
func racyShared(t gpu.Thread, out []int32) {
	s := gpu.Shared[[64]int32](t)
	tid := t.ThreadIdx().X
	s[tid] = int32(tid)
	out[t.GlobalIdx().X] = s[63-tid] //gpukvet:ignore races the test shows the race detector's report
}

// racyBlocks writes one global element from a thread of every block.
//
//gpu:kernel
func racyBlocks(t gpu.Thread, out []int32) {
	if t.ThreadIdx().X == 0 {
		out[0] = int32(t.BlockIdx().X) //gpukvet:ignore races the test shows the race detector's report
	}
}

type point struct{ X, Y, Z int32 }

// pointsX reads Y and Z of its struct parameter, which are no thread
// dimensions: the kernel is one-dimensional.
//
//gpu:kernel
func pointsX(t gpu.Thread, p point, ps []point, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = p.Y + p.Z + ps[i].Y
	}
}

// trapInHelper traps inside a device function.
//
//gpu:kernel
func trapInHelper(t gpu.Thread, out []int32) {
	out[t.GlobalIdx().X] = at(out, t.GlobalIdx().X+len(out))
}

func at(xs []int32, i int) int32 {
	//gpukvet:ignore races the read is out of range on purpose and traps
	return xs[i] // the trap is here
}
