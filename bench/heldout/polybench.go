package heldout

import "github.com/gpukvet/gpukvet/gpu"

// PolyBench/GPU 1.0 (CUDA): 2-D kernels run 32×8 blocks, 1-D kernels 256.

// Gemm is PolyBench's gemm_kernel: c = alpha·a·b + beta·c, one thread per
// element of c (ni×nj), a ni×nk, b nk×nj.
//
//gpu:kernel block=32,8
func Gemm(t gpu.Thread, ni, nj, nk int, alpha, beta float32, a, b, c []float32) {
	j := t.GlobalIdx().X
	i := t.GlobalIdx().Y
	if i < ni && j < nj {
		c[i*nj+j] *= beta
		for k := 0; k < nk; k++ {
			c[i*nj+j] += alpha * a[i*nk+k] * b[k*nj+j]
		}
	}
}

// Atax1 is PolyBench's atax_kernel1: tmp = A·x (A nx×ny).
//
//gpu:kernel block=256
func Atax1(t gpu.Thread, nx, ny int, a, x, tmp []float32) {
	i := t.GlobalIdx().X
	if i < nx {
		for j := 0; j < ny; j++ {
			tmp[i] += a[i*ny+j] * x[j]
		}
	}
}

// Atax2 is PolyBench's atax_kernel2: y = Aᵀ·tmp.
//
//gpu:kernel block=256
func Atax2(t gpu.Thread, nx, ny int, a, y, tmp []float32) {
	j := t.GlobalIdx().X
	if j < ny {
		for i := 0; i < nx; i++ {
			y[j] += a[i*ny+j] * tmp[i]
		}
	}
}

// Bicg1 is PolyBench's bicg_kernel1: s = rᵀ·A.
//
//gpu:kernel block=256
func Bicg1(t gpu.Thread, nx, ny int, a, r, s []float32) {
	j := t.GlobalIdx().X
	if j < ny {
		s[j] = 0
		for i := 0; i < nx; i++ {
			s[j] += r[i] * a[i*ny+j]
		}
	}
}

// Bicg2 is PolyBench's bicg_kernel2: q = A·p.
//
//gpu:kernel block=256
func Bicg2(t gpu.Thread, nx, ny int, a, p, q []float32) {
	i := t.GlobalIdx().X
	if i < nx {
		q[i] = 0
		for j := 0; j < ny; j++ {
			q[i] += a[i*ny+j] * p[j]
		}
	}
}

// Gesummv is PolyBench's gesummv_kernel: y = alpha·A·x + beta·B·x.
//
//gpu:kernel block=256
func Gesummv(t gpu.Thread, n int, alpha, beta float32, a, b, tmp, x, y []float32) {
	i := t.GlobalIdx().X
	if i < n {
		for j := 0; j < n; j++ {
			tmp[i] += a[i*n+j] * x[j]
			y[i] += b[i*n+j] * x[j]
		}
		y[i] = alpha*tmp[i] + beta*y[i]
	}
}

// Mvt1 is PolyBench's mvt_kernel1: x1 += A·y1.
//
//gpu:kernel block=256
func Mvt1(t gpu.Thread, n int, a, x1, y1 []float32) {
	i := t.GlobalIdx().X
	if i < n {
		for j := 0; j < n; j++ {
			x1[i] += a[i*n+j] * y1[j]
		}
	}
}

// Jacobi2D is PolyBench's runJacobiCUDA_kernel1: one 5-point averaging
// step of the interior of an n×n grid from a into b.
//
//gpu:kernel block=32,8
func Jacobi2D(t gpu.Thread, n int, a, b []float32) {
	i := t.GlobalIdx().Y
	j := t.GlobalIdx().X
	if i >= 1 && i < n-1 && j >= 1 && j < n-1 {
		b[i*n+j] = 0.2 * (a[i*n+j] + a[i*n+(j-1)] + a[i*n+(1+j)] + a[(1+i)*n+j] + a[(i-1)*n+j])
	}
}

// Conv2D is PolyBench's convolution2D_kernel: a 3×3 filter with constant
// coefficients over the interior of an ni×nj grid.
//
//gpu:kernel block=32,8
func Conv2D(t gpu.Thread, ni, nj int, a, b []float32) {
	j := t.GlobalIdx().X
	i := t.GlobalIdx().Y
	const (
		c11, c21, c31 = +0.2, +0.5, -0.8
		c12, c22, c32 = -0.3, +0.6, -0.9
		c13, c23, c33 = +0.4, +0.7, +0.10
	)
	if i < ni-1 && j < nj-1 && i > 0 && j > 0 {
		b[i*nj+j] = c11*a[(i-1)*nj+(j-1)] + c21*a[(i-1)*nj+(j+0)] + c31*a[(i-1)*nj+(j+1)] +
			c12*a[(i+0)*nj+(j-1)] + c22*a[(i+0)*nj+(j+0)] + c32*a[(i+0)*nj+(j+1)] +
			c13*a[(i+1)*nj+(j-1)] + c23*a[(i+1)*nj+(j+0)] + c33*a[(i+1)*nj+(j+1)]
	}
}
