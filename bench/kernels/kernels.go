// Package kernels holds the Go side of the side-by-side benchmark against
// nvcc: every kernel here has a CUDA C twin in twins.cu, written statement
// for statement (same block shape, shared arrays, barriers and arithmetic;
// Go's int is `long long` there, as it is 64 bits in Go). bench/twins runs
// both on one GPU and compares their times.
package kernels

import "github.com/gpukvet/gpukvet/gpu"

//go:generate go tool gpukvet gen

// Triad computes a = b + s*c (STREAM's triad).
//
//gpu:kernel
func Triad(t gpu.Thread, s float32, a, b, c []float32) {
	i := t.GlobalIdx().X
	if i < len(a) && i < len(b) && i < len(c) {
		a[i] = b[i] + s*c[i]
	}
}

// StridedCopy copies every stride-th element of in to out.
//
//gpu:kernel
func StridedCopy(t gpu.Thread, stride int, in, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = in[i*stride]
	}
}

// ReduceTree sums each block's 256 elements in shared memory by halving
// the active threads per step, writing one partial sum per block.
//
//gpu:kernel block=256
func ReduceTree(t gpu.Thread, in, partial []float32) {
	buf := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var v float32
	if i < len(in) {
		v = in[i]
	}
	buf[tid] = v
	t.Barrier()
	for s := 128; s > 0; s >>= 1 {
		if tid < s {
			buf[tid] += buf[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		partial[t.BlockIdx().X] = buf[0]
	}
}

// ReduceGridStride sums in with a grid-stride loop per thread, then a tree
// in shared memory, one partial sum per block.
//
//gpu:kernel block=256
func ReduceGridStride(t gpu.Thread, in, partial []float32) {
	buf := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	stride := t.BlockDim().X * t.GridDim().X
	var sum float32
	for i := t.GlobalIdx().X; i < len(in); i += stride {
		sum += in[i]
	}
	buf[tid] = sum
	t.Barrier()
	for s := 128; s > 0; s >>= 1 {
		if tid < s {
			buf[tid] += buf[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		partial[t.BlockIdx().X] = buf[0]
	}
}

// Stencil2D applies a 5-point stencil to the interior of an nx×ny grid.
//
//gpu:kernel block=32,8
func Stencil2D(t gpu.Thread, nx, ny int, c0, c1 float32, in, out []float32) {
	g := t.GlobalIdx()
	x, y := g.X, g.Y
	if x >= 1 && x < nx-1 && y >= 1 && y < ny-1 {
		c := y*nx + x
		out[c] = c0*in[c] + c1*(in[c-1]+in[c+1]+in[c-nx]+in[c+nx])
	}
}

// Stencil3D applies a 7-point stencil to the interior of an nx×ny×nz grid.
//
//gpu:kernel block=32,4,2
func Stencil3D(t gpu.Thread, nx, ny, nz int, c0, c1 float32, in, out []float32) {
	g := t.GlobalIdx()
	x, y, z := g.X, g.Y, g.Z
	if x >= 1 && x < nx-1 && y >= 1 && y < ny-1 && z >= 1 && z < nz-1 {
		plane := nx * ny
		c := z*plane + y*nx + x
		//gpukvet:ignore races c = (z*ny + y)*nx + x with 0 <= x < nx and 0 <= y < ny is one-to-one in (x, y, z); the solver does not flatten over three free extents (README gap)
		out[c] = c0*in[c] + c1*(in[c-1]+in[c+1]+in[c-nx]+in[c+nx]+in[c-plane]+in[c+plane])
	}
}

// Tile is the edge of the matrix-multiply tile.
const Tile = 16

// MatMul computes c = a×b for n×n matrices through 16×16 shared tiles.
//
//gpu:kernel block=16,16
func MatMul(t gpu.Thread, n int, a, b, c []float32) {
	as := gpu.Shared[[Tile][Tile]float32](t)
	bs := gpu.Shared[[Tile][Tile]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*Tile + ty
	col := t.BlockIdx().X*Tile + tx
	var sum float32
	for k0 := 0; k0 < n; k0 += Tile {
		as[ty][tx] = a[row*n+k0+tx]
		bs[ty][tx] = b[(k0+ty)*n+col]
		t.Barrier()
		for k := 0; k < Tile; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	if row < n && col < n {
		c[row*n+col] = sum
	}
}

// TDim is the edge of the transpose tile; TRows the rows a block covers
// per step.
const (
	TDim  = 32
	TRows = 8
)

// Transpose writes the transpose of the n×n matrix in to out through a
// padded shared tile (no bank conflicts), 32×8 threads per 32×32 tile.
//
//gpu:kernel block=32,8
func Transpose(t gpu.Thread, n int, in, out []float32) {
	tile := gpu.Shared[[TDim][TDim + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*TDim + tx
	y := t.BlockIdx().Y*TDim + ty
	for j := 0; j < TDim; j += TRows {
		if x < n && y+j < n {
			tile[ty+j][tx] = in[(y+j)*n+x]
		}
	}
	t.Barrier()
	x = t.BlockIdx().Y*TDim + tx
	y = t.BlockIdx().X*TDim + ty
	for j := 0; j < TDim; j += TRows {
		if x < n && y+j < n {
			out[(y+j)*n+x] = tile[tx][ty+j]
		}
	}
}

// HistShared counts bytes into 256 bins: per-block bins in shared memory
// with shared atomics, then one global atomic per bin and block.
//
//gpu:kernel block=256
func HistShared(t gpu.Thread, data []uint8, hist []uint32) {
	bins := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	bins[tid] = 0
	t.Barrier()
	stride := t.BlockDim().X * t.GridDim().X
	for i := t.GlobalIdx().X; i < len(data); i += stride {
		gpu.AtomicAdd(&bins[data[i]], 1)
	}
	t.Barrier()
	if c := bins[tid]; c > 0 {
		gpu.AtomicAdd(&hist[tid], c)
	}
}

// HistGlobal counts bytes into 256 bins with global atomics only.
//
//gpu:kernel
func HistGlobal(t gpu.Thread, data []uint8, hist []uint32) {
	i := t.GlobalIdx().X
	if i < len(data) {
		gpu.AtomicAdd(&hist[data[i]], 1)
	}
}

// Scan computes the inclusive prefix sum of each block's 256 elements
// (Hillis and Steele, double-buffered in shared memory).
//
//gpu:kernel block=256
func Scan(t gpu.Thread, in, out []float32) {
	buf := gpu.Shared[[2][256]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var v float32
	if i < len(in) {
		v = in[i]
	}
	buf[0][tid] = v
	t.Barrier()
	src := 0
	for off := 1; off < 256; off <<= 1 {
		x := buf[src][tid]
		if tid >= off {
			x += buf[src][tid-off]
		}
		buf[1-src][tid] = x
		src = 1 - src
		t.Barrier()
	}
	if i < len(out) {
		out[i] = buf[src][tid]
	}
}

// Degree is the degree of the polynomial Horner evaluates.
const Degree = 64

// Horner evaluates the polynomial with coefficients 1/(k+1), k = 0..64, at
// every x by Horner's rule: compute-bound.
//
//gpu:kernel
func Horner(t gpu.Thread, x, y []float32) {
	i := t.GlobalIdx().X
	if i < len(x) && i < len(y) {
		v := x[i]
		var p float32
		for k := Degree; k >= 0; k-- {
			p = p*v + 1/float32(k+1)
		}
		y[i] = p
	}
}

// Gather reads in through an index array: out[i] = in[idx[i]].
//
//gpu:kernel
func Gather(t gpu.Thread, idx []int32, in, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) && i < len(idx) {
		out[i] = in[idx[i]]
	}
}

// Scatter writes through an index array: out[idx[i]] = in[i].
//
//gpu:kernel
func Scatter(t gpu.Thread, idx []int32, in, out []float32) {
	i := t.GlobalIdx().X
	if i < len(in) && i < len(idx) {
		//gpukvet:ignore races idx is a permutation (the caller's precondition), so no two threads write one element
		out[idx[i]] = in[i]
	}
}

// Daxpy computes y = a*x + y in float64.
//
//gpu:kernel
func Daxpy(t gpu.Thread, a float64, x, y []float64) {
	i := t.GlobalIdx().X
	if i < len(x) && i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

// Mix64 scrambles each int64 with 8 rounds of a multiply-xorshift mix:
// 64-bit integer arithmetic.
//
//gpu:kernel
func Mix64(t gpu.Thread, in, out []int64) {
	i := t.GlobalIdx().X
	if i < len(in) && i < len(out) {
		x := in[i]
		for r := 0; r < 8; r++ {
			x = x*6364136223846793005 + 1442695040888963407
			x ^= x >> 29
		}
		out[i] = x
	}
}

// Smooth2D averages each point's 3×3 neighbourhood (a local array of
// weights, indexed by the loop variables) on a 2-D grid.
//
//gpu:kernel block=16,16
func Smooth2D(t gpu.Thread, nx, ny int, in, out []float32) {
	w := [3][3]float32{{1, 2, 1}, {2, 4, 2}, {1, 2, 1}}
	g := t.GlobalIdx()
	x, y := g.X, g.Y
	if x >= 1 && x < nx-1 && y >= 1 && y < ny-1 {
		var s float32
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				s += w[dy+1][dx+1] * in[(y+dy)*nx+x+dx]
			}
		}
		out[y*nx+x] = s / 16
	}
}
