package heldout

import "github.com/gpukvet/gpukvet/gpu"

// The issue-22 outside twins that bench/kernels lacks (it has the triad,
// the padded transpose, the shared-atomic histogram, the 5-point stencil
// and Horner): BabelStream's dot, a 32×32 shared-tile matmul with its
// precondition guard, Harris's reduce3 (as the CUDA samples have it) and
// a row step of Rodinia's pathfinder.

// dotBlock is BabelStream's TBSIZE.
const dotBlock = 1024

// Dot is BabelStream's dot_kernel: a grid-stride sum of a[i]*b[i] per
// thread, then a tree in shared memory, one partial sum per block.
//
//gpu:kernel block=1024
func Dot(t gpu.Thread, a, b, sum []float32) {
	tbSum := gpu.Shared[[dotBlock]float32](t)
	i := t.GlobalIdx().X
	localI := t.ThreadIdx().X
	tbSum[localI] = 0
	for ; i < len(a); i += t.BlockDim().X * t.GridDim().X {
		tbSum[localI] += a[i] * b[i]
	}
	for offset := t.BlockDim().X / 2; offset > 0; offset /= 2 {
		t.Barrier()
		if localI < offset {
			tbSum[localI] += tbSum[localI+offset]
		}
	}
	if localI == 0 {
		sum[t.BlockIdx().X] = tbSum[localI]
	}
}

// mmTile is the edge of MatMul32's shared tiles.
const mmTile = 32

// MatMul32 computes c = a×b for n×n matrices through 32×32 shared tiles;
// the guard states the sizes it assumes.
//
//gpu:kernel block=32,32
func MatMul32(t gpu.Thread, n int, a, b, c []float32) {
	if n%mmTile != 0 || t.GridDim().X*mmTile != n {
		panic("n must be a multiple of 32 and the grid n/32 blocks wide")
	}
	as := gpu.Shared[[mmTile][mmTile]float32](t)
	bs := gpu.Shared[[mmTile][mmTile]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*mmTile + ty
	col := t.BlockIdx().X*mmTile + tx
	var sum float32
	for k0 := 0; k0 < n; k0 += mmTile {
		as[ty][tx] = a[row*n+k0+tx]
		bs[ty][tx] = b[(k0+ty)*n+col]
		t.Barrier()
		for k := 0; k < mmTile; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	c[row*n+col] = sum
}

// reduce3Block is the block size Reduce3 is launched with.
const reduce3Block = 256

// Reduce3 is the CUDA samples' reduce3 (Harris's third reduction): each
// thread adds two elements a block apart as it loads, then a tree in
// shared memory that keeps the running sum in a register.
//
//gpu:kernel block=256
func Reduce3(t gpu.Thread, in, out []float32) {
	sdata := gpu.Shared[[reduce3Block]float32](t)
	tid := t.ThreadIdx().X
	i := t.BlockIdx().X*(t.BlockDim().X*2) + tid
	var mySum float32
	if i < len(in) {
		mySum = in[i]
	}
	if i+t.BlockDim().X < len(in) {
		mySum += in[i+t.BlockDim().X]
	}
	sdata[tid] = mySum
	t.Barrier()
	for s := t.BlockDim().X / 2; s > 0; s >>= 1 {
		if tid < s {
			mySum += sdata[tid+s]
			sdata[tid] = mySum
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = mySum
	}
}

// pathBlock is PathRow's block size.
const pathBlock = 256

// PathRow is one row step of Rodinia's pathfinder: dst[x] = wall[x] plus
// the least of src[x-1], src[x], src[x+1] (clamped at the edges), the
// previous row staged in shared memory with a halo cell each side.
//
//gpu:kernel block=256
func PathRow(t gpu.Thread, cols int, wall, src, dst []int32) {
	prev := gpu.Shared[[pathBlock + 2]int32](t)
	tx := t.ThreadIdx().X
	x := t.GlobalIdx().X
	if x < cols {
		prev[tx+1] = src[x]
	}
	if tx == 0 && x > 0 && x-1 < cols {
		prev[0] = src[x-1]
	}
	if tx == pathBlock-1 && x+1 < cols {
		prev[pathBlock+1] = src[x+1]
	}
	t.Barrier()
	if x < cols {
		m := prev[tx+1]
		if x > 0 {
			m = min(m, prev[tx])
		}
		if x+1 < cols {
			m = min(m, prev[tx+2])
		}
		dst[x] = wall[x] + m
	}
}
