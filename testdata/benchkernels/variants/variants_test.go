package variants

import (
	"math"
	"slices"
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestGemmF64(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(30)
	ni, nj, nk := 19, 37, 23
	f := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.Float())
		}
		return v
	}
	a, b, c := f(ni*nk), f(nk*nj), f(ni*nj)
	want := slices.Clone(c)
	for i := 0; i < ni; i++ {
		for j := 0; j < nj; j++ {
			acc := want[i*nj+j] * 0.5
			for k := 0; k < nk; k++ {
				acc += 1.5 * a[i*nk+k] * b[k*nj+j]
			}
			want[i*nj+j] = acc
		}
	}
	bc := bt.Up(t, d, c)
	bt.Run(t, d, GemmF64, bt.Dim(bt.Blocks(nj, 32), bt.Blocks(ni, 8)), bt.Dim(32, 8), ni, nj, nk, 1.5, 0.5, bt.Up(t, d, a), bt.Up(t, d, b), bc)
	bt.Near(t, "gemm f64", bt.Down(t, bc), want, 1e-12)
}

func TestConv3D(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(31)
	ni, nj, nk := 7, 9, 11
	a := r.Floats(ni * nj * nk)
	want := make([]float32, len(a))
	p := nj * nk
	for i := 1; i < ni-1; i++ {
		for j := 1; j < nj-1; j++ {
			for k := 1; k < nk-1; k++ {
				idx := i*p + j*nk + k
				want[idx] = 2*a[idx-p-nk-1] + 5*a[idx-p-1] - 8*a[idx-p+nk-1] -
					3*a[idx-nk] + 6*a[idx] - 9*a[idx+nk] + 4*a[idx+p-nk+1] + 7*a[idx+p+1] + 10*a[idx+p+nk+1]
			}
		}
	}
	b := bt.Zeros[float32](t, d, len(a))
	bt.Run(t, d, Conv3D, bt.Dim(bt.Blocks(nk, 8), bt.Blocks(nj, 8), bt.Blocks(ni, 4)), bt.Dim(8, 8, 4), ni, nj, nk, bt.Up(t, d, a), b)
	bt.Near(t, "conv3d", bt.Down(t, b), want, 1e-5)
}

func TestElementwise(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(32)
	n := 1000
	x, y := r.Floats(n), r.Floats(n)
	want := make([]float32, n)
	for i := range want {
		want[i] = 3*x[i] + y[i]
	}
	by := bt.Up(t, d, y)
	bt.Run(t, d, Saxpy32, bt.Dim(bt.Blocks(n, 128)), bt.Dim(128), int32(n), float32(3), bt.Up(t, d, x), by)
	bt.Near(t, "saxpy32", bt.Down(t, by), want, 1e-6)

	for kind, f := range []func(float64) float64{
		func(v float64) float64 { return math.Max(v, 0) },
		func(v float64) float64 { return 1 / (1 + math.Exp(-v)) },
		math.Tanh,
		func(v float64) float64 { return v },
	} {
		v := make([]float64, 300)
		for i := range v {
			v[i] = 4 * float64(r.Float())
		}
		w := make([]float64, len(v))
		for i := range v {
			w[i] = f(v[i])
		}
		bv := bt.Up(t, d, v)
		bt.Run(t, d, Activate, bt.Dim(2), bt.Dim(256), kind, bv)
		bt.Near(t, "activate", bt.Down(t, bv), w, 1e-14)
	}
}

func TestBlur5(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(33)
	rows, cols := 29, 35
	in := r.Floats(rows * cols)
	want := make([]float32, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			var s float32
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					s += in[min(max(i+dy, 0), rows-1)*cols+min(max(j+dx, 0), cols-1)]
				}
			}
			want[i*cols+j] = s / 25
		}
	}
	out := bt.Zeros[float32](t, d, rows*cols)
	bt.Run(t, d, Blur5, bt.Dim(bt.Blocks(cols, 16), bt.Blocks(rows, 16)), bt.Dim(16, 16), rows, cols, bt.Up(t, d, in), out)
	bt.Near(t, "blur5", bt.Down(t, out), want, 1e-5)
}

func TestReductions(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(34)
	n := 1000
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(r.Intn(1000))
	}
	blocks := bt.Blocks(n, 256)
	want := make([]int32, blocks)
	for i, v := range in {
		want[i/256] += v
	}
	bin := bt.Up(t, d, in)
	for name, k := range map[string]any{"reduce0": Reduce0, "reduce1": Reduce1} {
		out := bt.Zeros[int32](t, d, blocks)
		bt.Run(t, d, k, bt.Dim(blocks), bt.Dim(256), bin, out)
		bt.Equal(t, name, bt.Down(t, out), want)
	}
}

func TestGemmRegOddEven(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(35)
	ni, nj, nk := 13, 70, 9
	a, b := r.Floats(ni*nk), r.Floats(nk*nj)
	want := make([]float32, ni*nj)
	for i := 0; i < ni; i++ {
		for j := 0; j < nj; j++ {
			for k := 0; k < nk; k++ {
				want[i*nj+j] += a[i*nk+k] * b[k*nj+j]
			}
		}
	}
	c := bt.Zeros[float32](t, d, ni*nj)
	bt.Run(t, d, GemmReg, bt.Dim(bt.Blocks(nj, 64), bt.Blocks(ni, 4)), bt.Dim(64), ni, nj, nk, bt.Up(t, d, a), bt.Up(t, d, b), c)
	bt.Near(t, "gemm reg", bt.Down(t, c), want, 1e-5)

	n := 301
	v := r.Floats(n)
	bv := bt.Up(t, d, v)
	for phase := 0; phase < n; phase++ {
		bt.Run(t, d, OddEven, bt.Dim(bt.Blocks(n/2+1, 128)), bt.Dim(128), phase%2, bv)
	}
	slices.Sort(v)
	bt.Equal(t, "odd-even sorted", bt.Down(t, bv), v)
}
