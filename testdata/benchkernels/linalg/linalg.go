// Package linalg holds PolyBench/GPU-style dense linear algebra kernels:
// gemm (naive and tiled), 2mm, 3mm, atax, bicg, mvt, gesummv, sgemv and a
// shared-memory transpose. Matrices are row-major.
package linalg

import "github.com/gpukvet/gpukvet/gpu"

// Tile is the side of a shared-memory tile and of a 2-D block.
const Tile = 16

// Gemm computes c = alpha*a*b + beta*c for a (ni×nk), b (nk×nj), c (ni×nj),
// one thread per element of c.
//
//gpu:kernel block=32,8
func Gemm(t gpu.Thread, ni, nj, nk int, alpha, beta float32, a, b, c []float32) {
	i := t.GlobalIdx().Y
	j := t.GlobalIdx().X
	if i < ni && j < nj {
		c[i*nj+j] *= beta
		for k := 0; k < nk; k++ {
			c[i*nj+j] += alpha * a[i*nk+k] * b[k*nj+j]
		}
	}
}

// GemmTiled computes c = alpha*a*b + beta*c with Tile×Tile tiles of a and b
// staged in shared memory.
//
//gpu:kernel block=16,16
func GemmTiled(t gpu.Thread, ni, nj, nk int, alpha, beta float32, a, b, c []float32) {
	as := gpu.Shared[[Tile][Tile]float32](t)
	bs := gpu.Shared[[Tile][Tile]float32](t)
	tx := t.ThreadIdx().X
	ty := t.ThreadIdx().Y
	row := t.BlockIdx().Y*Tile + ty
	col := t.BlockIdx().X*Tile + tx
	var acc float32
	for k0 := 0; k0 < nk; k0 += Tile {
		if row < ni && k0+tx < nk {
			as[ty][tx] = a[row*nk+k0+tx]
		} else {
			as[ty][tx] = 0
		}
		if k0+ty < nk && col < nj {
			bs[ty][tx] = b[(k0+ty)*nj+col]
		} else {
			bs[ty][tx] = 0
		}
		t.Barrier()
		for k := 0; k < Tile; k++ {
			acc += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	if row < ni && col < nj {
		c[row*nj+col] = alpha*acc + beta*c[row*nj+col]
	}
}

// MatMul computes c = a*b (used three times for 3mm: E=A*B, F=C*D, G=E*F).
//
//gpu:kernel block=16,16
func MatMul(t gpu.Thread, ni, nj, nk int, a, b, c []float32) {
	g := t.GlobalIdx()
	if g.Y >= ni || g.X >= nj {
		return
	}
	var sum float32
	for k := 0; k < nk; k++ {
		sum += a[g.Y*nk+k] * b[k*nj+g.X]
	}
	c[g.Y*nj+g.X] = sum
}

// Mm2First is the first step of 2mm: tmp = alpha*a*b.
//
//gpu:kernel block=32,8
func Mm2First(t gpu.Thread, ni, nj, nk int, alpha float32, a, b, tmp []float32) {
	i, j := t.GlobalIdx().Y, t.GlobalIdx().X
	if i < ni && j < nj {
		tmp[i*nj+j] = 0
		for k := 0; k < nk; k++ {
			tmp[i*nj+j] += alpha * a[i*nk+k] * b[k*nj+j]
		}
	}
}

// Mm2Second is the second step of 2mm: d = tmp*c + beta*d.
//
//gpu:kernel block=32,8
func Mm2Second(t gpu.Thread, ni, nl, nj int, beta float32, tmp, c, d []float32) {
	i, l := t.GlobalIdx().Y, t.GlobalIdx().X
	if i < ni && l < nl {
		d[i*nl+l] *= beta
		for j := 0; j < nj; j++ {
			d[i*nl+l] += tmp[i*nj+j] * c[j*nl+l]
		}
	}
}

// AtaxTmp computes tmp = a*x for a (m×n).
//
//gpu:kernel block=256
func AtaxTmp(t gpu.Thread, m, n int, a, x, tmp []float32) {
	i := t.GlobalIdx().X
	if i < m {
		tmp[i] = 0
		for j := 0; j < n; j++ {
			tmp[i] += a[i*n+j] * x[j]
		}
	}
}

// AtaxY computes y = aᵀ*tmp.
//
//gpu:kernel block=256
func AtaxY(t gpu.Thread, m, n int, a, tmp, y []float32) {
	j := t.GlobalIdx().X
	if j < n {
		y[j] = 0
		for i := 0; i < m; i++ {
			y[j] += a[i*n+j] * tmp[i]
		}
	}
}

// BicgQ computes q = a*p.
//
//gpu:kernel block=256
func BicgQ(t gpu.Thread, nx, ny int, a, p, q []float32) {
	i := t.GlobalIdx().X
	if i < nx {
		var s float32
		for j := 0; j < ny; j++ {
			s += a[i*ny+j] * p[j]
		}
		q[i] = s
	}
}

// BicgS computes s = aᵀ*r.
//
//gpu:kernel block=256
func BicgS(t gpu.Thread, nx, ny int, a, r, s []float32) {
	j := t.GlobalIdx().X
	if j < ny {
		var sum float32
		for i := 0; i < nx; i++ {
			sum += r[i] * a[i*ny+j]
		}
		s[j] = sum
	}
}

// MvtX1 computes x1 += a*y1.
//
//gpu:kernel block=256
func MvtX1(t gpu.Thread, n int, a, x1, y1 []float32) {
	i := t.GlobalIdx().X
	if i < n {
		for j := 0; j < n; j++ {
			x1[i] += a[i*n+j] * y1[j]
		}
	}
}

// MvtX2 computes x2 += aᵀ*y2.
//
//gpu:kernel block=256
func MvtX2(t gpu.Thread, n int, a, x2, y2 []float32) {
	i := t.GlobalIdx().X
	if i < n {
		for j := 0; j < n; j++ {
			x2[i] += a[j*n+i] * y2[j]
		}
	}
}

// Gesummv computes y = alpha*a*x + beta*b*x.
//
//gpu:kernel block=256
func Gesummv(t gpu.Thread, n int, alpha, beta float32, a, b, x, y, tmp []float32) {
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	tmp[i] = 0
	y[i] = 0
	for j := 0; j < n; j++ {
		tmp[i] += a[i*n+j] * x[j]
		y[i] += b[i*n+j] * x[j]
	}
	y[i] = alpha*tmp[i] + beta*y[i]
}

// SgemvBlock is y = alpha*a*x + beta*y with one block per row: each thread
// sums a strided part of the row, then the block adds the partial sums with
// a tree in shared memory.
//
//gpu:kernel block=128
func SgemvBlock(t gpu.Thread, m, n int, alpha, beta float32, a, x, y []float32) {
	part := gpu.Shared[[128]float32](t)
	row := t.BlockIdx().X
	tid := t.ThreadIdx().X
	var s float32
	if row < m {
		for j := tid; j < n; j += 128 {
			s += a[row*n+j] * x[j]
		}
	}
	part[tid] = s
	t.Barrier()
	for half := 64; half > 0; half >>= 1 {
		if tid < half {
			part[tid] += part[tid+half]
		}
		t.Barrier()
	}
	if tid == 0 && row < m {
		y[row] = alpha*part[0] + beta*y[row]
	}
}

// Transpose writes out = inᵀ for in (rows×cols) through a padded shared tile,
// so both the global reads and the global writes are coalesced.
//
//gpu:kernel block=16,16
func Transpose(t gpu.Thread, rows, cols int, in, out []float32) {
	tile := gpu.Shared[[Tile][Tile + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	bx, by := t.BlockIdx().X*Tile, t.BlockIdx().Y*Tile
	if by+ty < rows && bx+tx < cols {
		tile[ty][tx] = in[(by+ty)*cols+bx+tx]
	}
	t.Barrier()
	r, c := bx+ty, by+tx
	if r < cols && c < rows {
		out[r*rows+c] = tile[tx][ty]
	}
}
