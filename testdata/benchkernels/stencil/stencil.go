// Package stencil holds PolyBench/GPU and Rodinia stencil kernels: a 3×3
// convolution, Jacobi 1-D and 2-D, one FDTD-2D time step, Rodinia's hotspot
// with a shared tile and halos, and the two SRAD kernels.
package stencil

import "github.com/gpukvet/gpukvet/gpu"

// Conv2D applies the 3×3 filter w (row-major) to the interior of a (ni×nj).
//
//gpu:kernel block=32,8
func Conv2D(t gpu.Thread, ni, nj int, w, a, b []float32) {
	i := t.GlobalIdx().Y
	j := t.GlobalIdx().X
	if i > 0 && i < ni-1 && j > 0 && j < nj-1 {
		var s float32
		for di := -1; di <= 1; di++ {
			for dj := -1; dj <= 1; dj++ {
				s += w[(di+1)*3+dj+1] * a[(i+di)*nj+j+dj]
			}
		}
		b[i*nj+j] = s
	}
}

// Jacobi1D computes b[i] = (a[i-1]+a[i]+a[i+1])/3 for the interior.
//
//gpu:kernel block=256
func Jacobi1D(t gpu.Thread, a, b []float32) {
	i := t.GlobalIdx().X
	if i > 0 && i < len(a)-1 {
		b[i] = 0.33333 * (a[i-1] + a[i] + a[i+1])
	}
}

// Jacobi2D computes one 5-point Jacobi step of the interior of a (n×n) into b.
//
//gpu:kernel block=16,16
func Jacobi2D(t gpu.Thread, n int, a, b []float32) {
	i := t.GlobalIdx().Y
	j := t.GlobalIdx().X
	if i >= 1 && i < n-1 && j >= 1 && j < n-1 {
		b[i*n+j] = 0.2 * (a[i*n+j] + a[i*n+j-1] + a[i*n+j+1] + a[(i+1)*n+j] + a[(i-1)*n+j])
	}
}

// Copy2D copies the interior of b back to a (the second half of a Jacobi step).
//
//gpu:kernel block=16,16
func Copy2D(t gpu.Thread, n int, b, a []float32) {
	i := t.GlobalIdx().Y
	j := t.GlobalIdx().X
	if i >= 1 && i < n-1 && j >= 1 && j < n-1 {
		a[i*n+j] = b[i*n+j]
	}
}

// FdtdEy updates ey (nx×ny) from hz; row 0 is set from the source fict.
//
//gpu:kernel block=32,8
func FdtdEy(t gpu.Thread, nx, ny int, fict float32, ey, hz []float32) {
	i := t.GlobalIdx().Y
	j := t.GlobalIdx().X
	if i < nx && j < ny {
		if i == 0 {
			ey[j] = fict
		} else {
			ey[i*ny+j] -= 0.5 * (hz[i*ny+j] - hz[(i-1)*ny+j])
		}
	}
}

// FdtdEx updates ex (nx×ny) from hz.
//
//gpu:kernel block=32,8
func FdtdEx(t gpu.Thread, nx, ny int, ex, hz []float32) {
	i := t.GlobalIdx().Y
	j := t.GlobalIdx().X
	if i < nx && j > 0 && j < ny {
		ex[i*ny+j] -= 0.5 * (hz[i*ny+j] - hz[i*ny+j-1])
	}
}

// FdtdHz updates hz from ex and ey.
//
//gpu:kernel block=32,8
func FdtdHz(t gpu.Thread, nx, ny int, ex, ey, hz []float32) {
	i := t.GlobalIdx().Y
	j := t.GlobalIdx().X
	if i < nx-1 && j < ny-1 {
		hz[i*ny+j] -= 0.7 * (ex[i*ny+j+1] - ex[i*ny+j] + ey[(i+1)*ny+j] - ey[i*ny+j])
	}
}

// HotspotParams are the physical constants of one hotspot step.
type HotspotParams struct {
	Rx, Ry, Rz float32 // thermal resistances
	Step       float32 // time step over capacitance
	Amb        float32 // ambient temperature
}

// HotTile is the side of a hotspot block.
const HotTile = 16

// Hotspot computes one step of the chip temperature (rows×cols): each block
// stages its tile plus a one-cell halo (clamped at the chip's edges) in
// shared memory.
//
//gpu:kernel block=16,16
func Hotspot(t gpu.Thread, rows, cols int, p HotspotParams, power, temp, out []float32) {
	tile := gpu.Shared[[HotTile + 2][HotTile + 2]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	r := t.GlobalIdx().Y
	c := t.GlobalIdx().X
	rc := min(r, rows-1)
	cc := min(c, cols-1)
	tile[ty+1][tx+1] = temp[rc*cols+cc]
	if tx == 0 {
		tile[ty+1][0] = temp[rc*cols+max(cc-1, 0)]
	}
	if tx == HotTile-1 {
		tile[ty+1][HotTile+1] = temp[rc*cols+min(cc+1, cols-1)]
	}
	if ty == 0 {
		tile[0][tx+1] = temp[max(rc-1, 0)*cols+cc]
	}
	if ty == HotTile-1 {
		tile[HotTile+1][tx+1] = temp[min(rc+1, rows-1)*cols+cc]
	}
	t.Barrier()
	if r < rows && c < cols {
		tc := tile[ty+1][tx+1]
		n, s := tile[ty][tx+1], tile[ty+2][tx+1]
		w, e := tile[ty+1][tx], tile[ty+1][tx+2]
		// Cells at the chip's edge see themselves beyond it.
		if r == 0 {
			n = tc
		}
		if r == rows-1 {
			s = tc
		}
		if c == 0 {
			w = tc
		}
		if c == cols-1 {
			e = tc
		}
		out[r*cols+c] = tc + p.Step*(power[r*cols+c]+(s+n-2*tc)*p.Ry+(e+w-2*tc)*p.Rx+(p.Amb-tc)*p.Rz)
	}
}

// Srad1 computes the directional derivatives and the diffusion coefficient of
// Rodinia's SRAD for image j (rows×cols).
//
//gpu:kernel block=16,16
func Srad1(t gpu.Thread, rows, cols int, q0sqr float32, j, c, dN, dS, dW, dE []float32) {
	r := t.GlobalIdx().Y
	col := t.GlobalIdx().X
	if r >= rows || col >= cols {
		return
	}
	k := r*cols + col
	jc := j[k]
	n := j[max(r-1, 0)*cols+col] - jc
	s := j[min(r+1, rows-1)*cols+col] - jc
	w := j[r*cols+max(col-1, 0)] - jc
	e := j[r*cols+min(col+1, cols-1)] - jc
	g2 := (n*n + s*s + w*w + e*e) / (jc * jc)
	l := (n + s + w + e) / jc
	num := 0.5*g2 - (1.0/16.0)*(l*l)
	den := 1 + 0.25*l
	qsqr := num / (den * den)
	den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr))
	cv := 1 / (1 + den)
	cv = max(0, min(cv, 1))
	dN[k], dS[k], dW[k], dE[k] = n, s, w, e
	c[k] = cv
}

// Srad2 applies the SRAD update with step lambda.
//
//gpu:kernel block=16,16
func Srad2(t gpu.Thread, rows, cols int, lambda float32, j, c, dN, dS, dW, dE []float32) {
	r := t.GlobalIdx().Y
	col := t.GlobalIdx().X
	if r >= rows || col >= cols {
		return
	}
	k := r*cols + col
	cN := c[k]
	cS := c[min(r+1, rows-1)*cols+col]
	cW := c[k]
	cE := c[r*cols+min(col+1, cols-1)]
	d := cN*dN[k] + cS*dS[k] + cW*dW[k] + cE*dE[k]
	j[k] += 0.25 * lambda * d
}
