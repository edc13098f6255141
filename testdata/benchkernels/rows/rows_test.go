package rows

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestSoftmaxLayerNorm(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(25)
	rows, n := 7, 300
	in := r.Floats(rows * n)
	for i := range in {
		in[i] *= 8
	}
	gamma, beta := r.Floats(n), r.Floats(n)
	sm := make([]float32, rows*n)
	ln := make([]float32, rows*n)
	for row := 0; row < rows; row++ {
		x := in[row*n : (row+1)*n]
		m := math.Inf(-1)
		var mean float64
		for _, v := range x {
			m = math.Max(m, float64(v))
			mean += float64(v)
		}
		mean /= float64(n)
		var sum, vr float64
		for _, v := range x {
			sum += math.Exp(float64(v) - m)
			vr += (float64(v) - mean) * (float64(v) - mean)
		}
		rstd := 1 / math.Sqrt(vr/float64(n)+1e-5)
		for j, v := range x {
			sm[row*n+j] = float32(math.Exp(float64(v)-m) / sum)
			ln[row*n+j] = float32((float64(v)-mean)*rstd*float64(gamma[j]) + float64(beta[j]))
		}
	}
	bin := bt.Up(t, d, in)
	out := bt.Zeros[float32](t, d, rows*n)
	bt.Run(t, d, Softmax, bt.Dim(rows), bt.Dim(Block), n, bin, out)
	bt.Near(t, "softmax", bt.Down(t, out), sm, 1e-5)
	out2 := bt.Zeros[float32](t, d, rows*n)
	bt.Run(t, d, LayerNorm, bt.Dim(rows), bt.Dim(Block), n, float32(1e-5), bin, bt.Up(t, d, gamma), bt.Up(t, d, beta), out2)
	bt.Near(t, "layernorm", bt.Down(t, out2), ln, 1e-4)
}
