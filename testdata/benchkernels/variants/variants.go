// Package variants holds the same algorithms written the other ways CUDA
// ports are written: hand-computed global indices, range-over-int loops,
// float64 (PolyBench's double), 3-D grids, uint32 indices, switch
// statements, cooperative halo loads, interleaved-addressing reductions,
// register tiles in local arrays and device functions taking pointers.
package variants

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
)

// GemmF64 is PolyBench's gemm in double precision, with the global index
// computed by hand.
//
//gpu:kernel block=32,8
func GemmF64(t gpu.Thread, ni, nj, nk int, alpha, beta float64, a, b, c []float64) {
	j := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	i := t.BlockIdx().Y*t.BlockDim().Y + t.ThreadIdx().Y
	if i < ni && j < nj {
		acc := c[i*nj+j] * beta
		for k := range nk {
			acc += alpha * a[i*nk+k] * b[k*nj+j]
		}
		c[i*nj+j] = acc
	}
}

// Conv3D is PolyBench's 3DCONV: a 3-D grid, one thread per interior cell.
//
//gpu:kernel block=8,8,4
func Conv3D(t gpu.Thread, ni, nj, nk int, a, b []float32) {
	g := t.GlobalIdx()
	i, j, k := g.Z, g.Y, g.X
	if i < 1 || i >= ni-1 || j < 1 || j >= nj-1 || k < 1 || k >= nk-1 {
		return
	}
	p := nj * nk
	idx := i*p + j*nk + k
	b[idx] = 2*a[idx-p-nk-1] + 5*a[idx-p-1] - 8*a[idx-p+nk-1] -
		3*a[idx-nk] + 6*a[idx] - 9*a[idx+nk] + 4*a[idx+p-nk+1] + 7*a[idx+p+1] + 10*a[idx+p+nk+1]
}

// Saxpy32 uses uint32 indices and an int32 length, as CUDA code does.
//
//gpu:kernel
func Saxpy32(t gpu.Thread, n int32, a float32, x, y []float32) {
	i := uint32(t.BlockIdx().X)*uint32(t.BlockDim().X) + uint32(t.ThreadIdx().X)
	if int32(i) < n && int(i) < len(x) && int(i) < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

// Activate applies the activation function kind (0 relu, 1 sigmoid, 2 tanh,
// else identity) chosen by a switch.
//
//gpu:kernel block=256
func Activate(t gpu.Thread, kind int, x []float64) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	v := x[i]
	switch kind {
	case 0:
		v = math.Max(v, 0)
	case 1:
		v = 1 / (1 + math.Exp(-v))
	case 2:
		v = math.Tanh(v)
	}
	x[i] = v
}

// Blur5 is a 5×5 box blur with the tile and its 2-cell halo loaded
// cooperatively: each thread loads the cells at its offset, strided by the
// block size.
//
//gpu:kernel block=16,16
func Blur5(t gpu.Thread, rows, cols int, in, out []float32) {
	const tile, r = 16, 2
	s := gpu.Shared[[tile + 2*r][tile + 2*r]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	r0, c0 := t.BlockIdx().Y*tile-r, t.BlockIdx().X*tile-r
	for y := ty; y < tile+2*r; y += tile {
		for x := tx; x < tile+2*r; x += tile {
			gy := min(max(r0+y, 0), rows-1)
			gx := min(max(c0+x, 0), cols-1)
			s[y][x] = in[gy*cols+gx]
		}
	}
	t.Barrier()
	row, col := r0+r+ty, c0+r+tx
	if row < rows && col < cols {
		var sum float32
		for dy := 0; dy <= 2*r; dy++ {
			for dx := 0; dx <= 2*r; dx++ {
				sum += s[ty+dy][tx+dx]
			}
		}
		out[row*cols+col] = sum / 25
	}
}

// Reduce0 is the SDK's first reduction: interleaved addressing with a
// modulo test.
//
//gpu:kernel block=256
func Reduce0(t gpu.Thread, in, out []int32) {
	sdata := gpu.Shared[[256]int32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	sdata[tid] = 0
	if i < len(in) {
		sdata[tid] = in[i]
	}
	t.Barrier()
	for s := 1; s < t.BlockDim().X; s *= 2 {
		if tid%(2*s) == 0 {
			sdata[tid] += sdata[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sdata[0]
	}
}

// Reduce1 is the SDK's second reduction: strided index, no modulo.
//
//gpu:kernel block=256
func Reduce1(t gpu.Thread, in, out []int32) {
	sdata := gpu.Shared[[256]int32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var v int32
	if i < len(in) {
		v = in[i]
	}
	sdata[tid] = v
	t.Barrier()
	for s := 1; s < 256; s *= 2 {
		index := 2 * s * tid
		if index < 256 {
			sdata[index] += sdata[index+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sdata[0]
	}
}

// GemmReg computes four rows of c per thread, accumulating in a local
// array (register tiling).
//
//gpu:kernel block=64
func GemmReg(t gpu.Thread, ni, nj, nk int, a, b, c []float32) {
	j := t.GlobalIdx().X
	i0 := t.BlockIdx().Y * 4
	if j >= nj {
		return
	}
	var acc [4]float32
	for k := 0; k < nk; k++ {
		bv := b[k*nj+j]
		for r := 0; r < 4; r++ {
			if i0+r < ni {
				acc[r] += a[(i0+r)*nk+k] * bv
			}
		}
	}
	for r := 0; r < 4; r++ {
		if i0+r < ni {
			c[(i0+r)*nj+j] = acc[r]
		}
	}
}

// order puts the smaller of *x and *y first.
func order(x, y *float32) {
	if *y < *x {
		*x, *y = *y, *x
	}
}

// OddEven is one odd-even transposition step over pairs (2i+phase,
// 2i+phase+1), swapping through a device function that takes pointers.
//
//gpu:kernel block=128
func OddEven(t gpu.Thread, phase int, a []float32) {
	i := 2*t.GlobalIdx().X + phase
	if i+1 < len(a) {
		order(&a[i], &a[i+1])
	}
}
