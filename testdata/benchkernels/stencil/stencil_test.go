package stencil

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestConvJacobi(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(5)
	ni, nj := 33, 47
	w, a := r.Floats(9), r.Floats(ni*nj)
	want := make([]float32, ni*nj)
	for i := 1; i < ni-1; i++ {
		for j := 1; j < nj-1; j++ {
			var s float32
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					s += w[(di+1)*3+dj+1] * a[(i+di)*nj+j+dj]
				}
			}
			want[i*nj+j] = s
		}
	}
	b := bt.Zeros[float32](t, d, ni*nj)
	bt.Run(t, d, Conv2D, bt.Dim(bt.Blocks(nj, 32), bt.Blocks(ni, 8)), bt.Dim(32, 8), ni, nj, bt.Up(t, d, w), bt.Up(t, d, a), b)
	bt.Near(t, "conv2d", bt.Down(t, b), want, 1e-5)

	n := 1000
	x := r.Floats(n)
	bx, by := bt.Up(t, d, x), bt.Up(t, d, x)
	want1 := append([]float32(nil), x...)
	for i := 1; i < n-1; i++ {
		want1[i] = 0.33333 * (x[i-1] + x[i] + x[i+1])
	}
	bt.Run(t, d, Jacobi1D, bt.Dim(bt.Blocks(n, 256)), bt.Dim(256), bx, by)
	bt.Near(t, "jacobi1d", bt.Down(t, by), want1, 1e-6)

	m := 30
	g := r.Floats(m * m)
	cur := append([]float32(nil), g...)
	for step := 0; step < 3; step++ {
		nxt := append([]float32(nil), cur...)
		for i := 1; i < m-1; i++ {
			for j := 1; j < m-1; j++ {
				nxt[i*m+j] = 0.2 * (cur[i*m+j] + cur[i*m+j-1] + cur[i*m+j+1] + cur[(i+1)*m+j] + cur[(i-1)*m+j])
			}
		}
		cur = nxt
	}
	ga, gb := bt.Up(t, d, g), bt.Up(t, d, g)
	grid := bt.Dim(bt.Blocks(m, 16), bt.Blocks(m, 16))
	for step := 0; step < 3; step++ {
		bt.Run(t, d, Jacobi2D, grid, bt.Dim(16, 16), m, ga, gb)
		bt.Run(t, d, Copy2D, grid, bt.Dim(16, 16), m, gb, ga)
	}
	bt.Near(t, "jacobi2d", bt.Down(t, ga), cur, 1e-5)
}

func TestFdtd(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(6)
	nx, ny, steps := 21, 34, 4
	ex, ey, hz := r.Floats(nx*ny), r.Floats(nx*ny), r.Floats(nx*ny)
	bex, bey, bhz := bt.Up(t, d, ex), bt.Up(t, d, ey), bt.Up(t, d, hz)
	grid, block := bt.Dim(bt.Blocks(ny, 32), bt.Blocks(nx, 8)), bt.Dim(32, 8)
	for s := 0; s < steps; s++ {
		fict := float32(s)
		for j := 0; j < ny; j++ {
			ey[j] = fict
		}
		for i := 1; i < nx; i++ {
			for j := 0; j < ny; j++ {
				ey[i*ny+j] -= 0.5 * (hz[i*ny+j] - hz[(i-1)*ny+j])
			}
		}
		for i := 0; i < nx; i++ {
			for j := 1; j < ny; j++ {
				ex[i*ny+j] -= 0.5 * (hz[i*ny+j] - hz[i*ny+j-1])
			}
		}
		for i := 0; i < nx-1; i++ {
			for j := 0; j < ny-1; j++ {
				hz[i*ny+j] -= 0.7 * (ex[i*ny+j+1] - ex[i*ny+j] + ey[(i+1)*ny+j] - ey[i*ny+j])
			}
		}
		bt.Run(t, d, FdtdEy, grid, block, nx, ny, fict, bey, bhz)
		bt.Run(t, d, FdtdEx, grid, block, nx, ny, bex, bhz)
		bt.Run(t, d, FdtdHz, grid, block, nx, ny, bex, bey, bhz)
	}
	bt.Near(t, "fdtd hz", bt.Down(t, bhz), hz, 1e-4)
	bt.Near(t, "fdtd ex", bt.Down(t, bex), ex, 1e-4)
}

func TestHotspot(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(7)
	rows, cols := 40, 27
	p := HotspotParams{Rx: 0.1, Ry: 0.2, Rz: 0.05, Step: 0.5, Amb: 80}
	power, temp := r.Floats(rows*cols), make([]float32, rows*cols)
	for i := range temp {
		temp[i] = 320 + 10*r.Float()
	}
	want := make([]float32, rows*cols)
	at := func(i, j int) float32 {
		return temp[min(max(i, 0), rows-1)*cols+min(max(j, 0), cols-1)]
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			tc := temp[i*cols+j]
			n, s, w, e := at(i-1, j), at(i+1, j), at(i, j-1), at(i, j+1)
			want[i*cols+j] = tc + p.Step*(power[i*cols+j]+(s+n-2*tc)*p.Ry+(e+w-2*tc)*p.Rx+(p.Amb-tc)*p.Rz)
		}
	}
	out := bt.Zeros[float32](t, d, rows*cols)
	bt.Run(t, d, Hotspot, bt.Dim(bt.Blocks(cols, HotTile), bt.Blocks(rows, HotTile)), bt.Dim(HotTile, HotTile), rows, cols, p, bt.Up(t, d, power), bt.Up(t, d, temp), out)
	bt.Near(t, "hotspot", bt.Down(t, out), want, 1e-5)
}

func TestSrad(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(8)
	rows, cols := 23, 31
	img := make([]float32, rows*cols)
	for i := range img {
		img[i] = 1 + 0.5*r.Float()
	}
	const q0sqr, lambda = 0.05, 0.5
	n := rows * cols
	dN, dS, dW, dE, c := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	want := append([]float32(nil), img...)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			k := i*cols + j
			jc := img[k]
			dN[k] = img[max(i-1, 0)*cols+j] - jc
			dS[k] = img[min(i+1, rows-1)*cols+j] - jc
			dW[k] = img[i*cols+max(j-1, 0)] - jc
			dE[k] = img[i*cols+min(j+1, cols-1)] - jc
			g2 := (dN[k]*dN[k] + dS[k]*dS[k] + dW[k]*dW[k] + dE[k]*dE[k]) / (jc * jc)
			l := (dN[k] + dS[k] + dW[k] + dE[k]) / jc
			num := 0.5*g2 - (1.0/16.0)*(l*l)
			den := 1 + 0.25*l
			qsqr := num / (den * den)
			den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr))
			c[k] = max(0, min(1/(1+den), 1))
		}
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			k := i*cols + j
			dd := c[k]*dN[k] + c[min(i+1, rows-1)*cols+j]*dS[k] + c[k]*dW[k] + c[i*cols+min(j+1, cols-1)]*dE[k]
			want[k] += 0.25 * lambda * dd
		}
	}
	bj := bt.Up(t, d, img)
	bc := bt.Zeros[float32](t, d, n)
	bN, bS, bW, bE := bt.Zeros[float32](t, d, n), bt.Zeros[float32](t, d, n), bt.Zeros[float32](t, d, n), bt.Zeros[float32](t, d, n)
	grid := bt.Dim(bt.Blocks(cols, 16), bt.Blocks(rows, 16))
	bt.Run(t, d, Srad1, grid, bt.Dim(16, 16), rows, cols, float32(q0sqr), bj, bc, bN, bS, bW, bE)
	bt.Run(t, d, Srad2, grid, bt.Dim(16, 16), rows, cols, float32(lambda), bj, bc, bN, bS, bW, bE)
	bt.Near(t, "srad c", bt.Down(t, bc), c, 1e-4)
	bt.Near(t, "srad", bt.Down(t, bj), want, 1e-4)
}
