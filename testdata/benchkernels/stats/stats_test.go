package stats

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestCovarCorr(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(9)
	n, m := 40, 33
	data := r.Floats(n * m)
	mean := make([]float32, m)
	std := make([]float32, m)
	for j := 0; j < m; j++ {
		for i := 0; i < n; i++ {
			mean[j] += data[i*m+j]
		}
		mean[j] /= float32(n)
		var s float32
		for i := 0; i < n; i++ {
			dv := data[i*m+j] - mean[j]
			s += dv * dv
		}
		std[j] = float32(math.Sqrt(float64(s / float32(n))))
	}
	cen := make([]float32, n*m)
	nor := make([]float32, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			cen[i*m+j] = data[i*m+j] - mean[j]
			nor[i*m+j] = cen[i*m+j] / (float32(math.Sqrt(float64(n))) * std[j])
		}
	}
	prod := func(x []float32, diag1 bool) []float32 {
		s := make([]float32, m*m)
		for a := 0; a < m; a++ {
			for b := 0; b < m; b++ {
				for i := 0; i < n; i++ {
					s[a*m+b] += x[i*m+a] * x[i*m+b]
				}
			}
			if diag1 {
				s[a*m+a] = 1
			}
		}
		return s
	}
	grid1, grid2 := bt.Dim(bt.Blocks(m, 256)), bt.Dim(bt.Blocks(m, 32), bt.Blocks(n, 8))

	bd, bm, bs := bt.Up(t, d, data), bt.Zeros[float32](t, d, m), bt.Zeros[float32](t, d, m*m)
	bt.Run(t, d, Mean, grid1, bt.Dim(256), n, m, bd, bm)
	bt.Near(t, "mean", bt.Down(t, bm), mean, 1e-5)
	bt.Run(t, d, Center, grid2, bt.Dim(32, 8), n, m, bd, bm)
	bt.Run(t, d, Covar, grid1, bt.Dim(256), n, m, bd, bs)
	bt.Near(t, "covariance", bt.Down(t, bs), prod(cen, false), 1e-4)

	cd, cm, cs, cstd := bt.Up(t, d, data), bt.Zeros[float32](t, d, m), bt.Zeros[float32](t, d, m*m), bt.Zeros[float32](t, d, m)
	bt.Run(t, d, Mean, grid1, bt.Dim(256), n, m, cd, cm)
	bt.Run(t, d, Std, grid1, bt.Dim(256), n, m, float32(0.005), cd, cm, cstd)
	bt.Near(t, "std", bt.Down(t, cstd), std, 1e-5)
	bt.Run(t, d, Normalize, grid2, bt.Dim(32, 8), n, m, cd, cm, cstd)
	bt.Run(t, d, Corr, grid1, bt.Dim(256), n, m, cd, cs)
	bt.Near(t, "correlation", bt.Down(t, cs), prod(nor, true), 1e-4)
}
