package kernels

import (
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// Math32: float32 math for kernels (gpu/math32); exact ones into exact, the
// transcendental ones into approx.
//
//gpu:kernel
func Math32(t gpu.Thread, x, y []float32, exact, approx []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		v, w := x[i], y[i]
		o := exact[6*i : 6*i+6]
		o[0] = math32.Sqrt(math32.Abs(v))
		o[1] = math32.Floor(v)
		o[2] = math32.Ceil(v)
		o[3] = math32.Trunc(v)
		o[4] = v * w // FMA has a case of its own
		o[5] = math32.Copysign(w, v)
		a := approx[5*i : 5*i+5]
		a[0] = math32.Exp(v / 8)
		a[1] = math32.Log(math32.Abs(v) + 0.5)
		a[2] = math32.Sin(v)
		a[3] = math32.Cos(v)
		a[4] = math32.Pow(math32.Abs(v)+0.5, w/4)
	}
}
