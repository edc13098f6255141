package linalg

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func matmulRef(ni, nj, nk int, a, b []float32) []float32 {
	c := make([]float32, ni*nj)
	for i := 0; i < ni; i++ {
		for j := 0; j < nj; j++ {
			var s float32
			for k := 0; k < nk; k++ {
				s += a[i*nk+k] * b[k*nj+j]
			}
			c[i*nj+j] = s
		}
	}
	return c
}

func TestGemm(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(1)
	ni, nj, nk := 37, 41, 29
	a, b, c := r.Floats(ni*nk), r.Floats(nk*nj), r.Floats(ni*nj)
	const alpha, beta = 1.5, 0.5
	ab := matmulRef(ni, nj, nk, a, b)
	want := make([]float32, len(c))
	for i := range want {
		want[i] = alpha*ab[i] + beta*c[i]
	}
	ba, bb := bt.Up(t, d, a), bt.Up(t, d, b)
	c1, c2 := bt.Up(t, d, c), bt.Up(t, d, c)
	bt.Run(t, d, Gemm, bt.Dim(bt.Blocks(nj, 32), bt.Blocks(ni, 8)), bt.Dim(32, 8), ni, nj, nk, float32(alpha), float32(beta), ba, bb, c1)
	bt.Near(t, "Gemm", bt.Down(t, c1), want, 1e-4)
	bt.Run(t, d, GemmTiled, bt.Dim(bt.Blocks(nj, Tile), bt.Blocks(ni, Tile)), bt.Dim(Tile, Tile), ni, nj, nk, float32(alpha), float32(beta), ba, bb, c2)
	bt.Near(t, "GemmTiled", bt.Down(t, c2), want, 1e-4)
}

func Test2mm3mm(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(2)
	ni, nj, nk, nl := 20, 24, 18, 22
	a, b, c, dd := r.Floats(ni*nk), r.Floats(nk*nj), r.Floats(nj*nl), r.Floats(ni*nl)
	tmp := matmulRef(ni, nj, nk, a, b)
	for i := range tmp {
		tmp[i] *= 2
	}
	td := matmulRef(ni, nl, nj, tmp, c)
	want := make([]float32, len(dd))
	for i := range want {
		want[i] = td[i] + 0.25*dd[i]
	}
	btmp := bt.Zeros[float32](t, d, ni*nj)
	bd := bt.Up(t, d, dd)
	bt.Run(t, d, Mm2First, bt.Dim(bt.Blocks(nj, 32), bt.Blocks(ni, 8)), bt.Dim(32, 8), ni, nj, nk, float32(2), bt.Up(t, d, a), bt.Up(t, d, b), btmp)
	bt.Run(t, d, Mm2Second, bt.Dim(bt.Blocks(nl, 32), bt.Blocks(ni, 8)), bt.Dim(32, 8), ni, nl, nj, float32(0.25), btmp, bt.Up(t, d, c), bd)
	bt.Near(t, "2mm", bt.Down(t, bd), want, 1e-4)

	// 3mm: G = (A·B)·(C·D) with A ni×nk, B nk×nj, C nj×nm, D nm×nl.
	nm := 15
	c3, d3 := r.Floats(nj*nm), r.Floats(nm*nl)
	e := bt.Zeros[float32](t, d, ni*nj)
	f := bt.Zeros[float32](t, d, nj*nl)
	g := bt.Zeros[float32](t, d, ni*nl)
	bt.Run(t, d, MatMul, bt.Dim(bt.Blocks(nj, 16), bt.Blocks(ni, 16)), bt.Dim(16, 16), ni, nj, nk, bt.Up(t, d, a), bt.Up(t, d, b), e)
	bt.Run(t, d, MatMul, bt.Dim(bt.Blocks(nl, 16), bt.Blocks(nj, 16)), bt.Dim(16, 16), nj, nl, nm, bt.Up(t, d, c3), bt.Up(t, d, d3), f)
	bt.Run(t, d, MatMul, bt.Dim(bt.Blocks(nl, 16), bt.Blocks(ni, 16)), bt.Dim(16, 16), ni, nl, nj, e, f, g)
	want3 := matmulRef(ni, nl, nj, matmulRef(ni, nj, nk, a, b), matmulRef(nj, nl, nm, c3, d3))
	bt.Near(t, "3mm", bt.Down(t, g), want3, 1e-4)
}

func TestMatVec(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(3)
	m, n := 45, 300
	a, x, rr := r.Floats(m*n), r.Floats(n), r.Floats(m)
	ba := bt.Up(t, d, a)
	blocksM, blocksN := bt.Dim(bt.Blocks(m, 256)), bt.Dim(bt.Blocks(n, 256))
	one := bt.Dim(256)

	// atax
	tmpW := make([]float32, m)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			tmpW[i] += a[i*n+j] * x[j]
		}
	}
	yW := make([]float32, n)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			yW[j] += a[i*n+j] * tmpW[i]
		}
	}
	tmp, y := bt.Zeros[float32](t, d, m), bt.Zeros[float32](t, d, n)
	bt.Run(t, d, AtaxTmp, blocksM, one, m, n, ba, bt.Up(t, d, x), tmp)
	bt.Run(t, d, AtaxY, blocksN, one, m, n, ba, tmp, y)
	bt.Near(t, "atax", bt.Down(t, y), yW, 1e-3)

	// bicg: q = A p (p = x), s = Aᵀ r
	q, s := bt.Zeros[float32](t, d, m), bt.Zeros[float32](t, d, n)
	bt.Run(t, d, BicgQ, blocksM, one, m, n, ba, bt.Up(t, d, x), q)
	bt.Run(t, d, BicgS, blocksN, one, m, n, ba, bt.Up(t, d, rr), s)
	sW := make([]float32, n)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			sW[j] += rr[i] * a[i*n+j]
		}
	}
	bt.Near(t, "bicg q", bt.Down(t, q), tmpW, 1e-4)
	bt.Near(t, "bicg s", bt.Down(t, s), sW, 1e-4)

	// sgemv with one block per row
	y0 := r.Floats(m)
	by := bt.Up(t, d, y0)
	bt.Run(t, d, SgemvBlock, bt.Dim(m), bt.Dim(128), m, n, float32(2), float32(-1), ba, bt.Up(t, d, x), by)
	gW := make([]float32, m)
	for i := range gW {
		gW[i] = 2*tmpW[i] - y0[i]
	}
	bt.Near(t, "sgemv", bt.Down(t, by), gW, 1e-4)
}

func TestSquare(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(4)
	n := 70
	a, b := r.Floats(n*n), r.Floats(n*n)
	x1, x2, y1, y2 := r.Floats(n), r.Floats(n), r.Floats(n), r.Floats(n)
	ba := bt.Up(t, d, a)
	grid, block := bt.Dim(bt.Blocks(n, 256)), bt.Dim(256)
	w1, w2 := append([]float32(nil), x1...), append([]float32(nil), x2...)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w1[i] += a[i*n+j] * y1[j]
			w2[i] += a[j*n+i] * y2[j]
		}
	}
	bx1, bx2 := bt.Up(t, d, x1), bt.Up(t, d, x2)
	bt.Run(t, d, MvtX1, grid, block, n, ba, bx1, bt.Up(t, d, y1))
	bt.Run(t, d, MvtX2, grid, block, n, ba, bx2, bt.Up(t, d, y2))
	bt.Near(t, "mvt x1", bt.Down(t, bx1), w1, 1e-4)
	bt.Near(t, "mvt x2", bt.Down(t, bx2), w2, 1e-4)

	gy := make([]float32, n)
	for i := 0; i < n; i++ {
		var s1, s2 float32
		for j := 0; j < n; j++ {
			s1 += a[i*n+j] * x1[j]
			s2 += b[i*n+j] * x1[j]
		}
		gy[i] = 1.5*s1 + 0.5*s2
	}
	by, bt2 := bt.Zeros[float32](t, d, n), bt.Zeros[float32](t, d, n)
	bt.Run(t, d, Gesummv, grid, block, n, float32(1.5), float32(0.5), ba, bt.Up(t, d, b), bt.Up(t, d, x1), by, bt2)
	bt.Near(t, "gesummv", bt.Down(t, by), gy, 1e-4)

	rows, cols := 37, 53
	in := r.Floats(rows * cols)
	out := bt.Zeros[float32](t, d, rows*cols)
	bt.Run(t, d, Transpose, bt.Dim(bt.Blocks(cols, Tile), bt.Blocks(rows, Tile)), bt.Dim(Tile, Tile), rows, cols, bt.Up(t, d, in), out)
	tw := make([]float32, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			tw[j*rows+i] = in[i*cols+j]
		}
	}
	bt.Equal(t, "transpose", bt.Down(t, out), tw)
}
