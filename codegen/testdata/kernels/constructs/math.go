package constructs

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// Math64 calls every float64 math function.
//
//gpu:kernel
func Math64(t gpu.Thread, x []float64, out []float64) {
	i := t.GlobalIdx().X
	if i >= len(x) || i >= len(out) {
		return
	}
	v := x[i]
	r := math.Sqrt(v) + math.Abs(v) + math.Floor(v) + math.Ceil(v) + math.Trunc(v) + math.Round(v)
	r += math.FMA(v, v, 1) + math.Copysign(3, v) + math.Exp(v) + math.Log(v) + math.Sin(v) + math.Cos(v)
	r += math.Pow(v, 1.5) + math.Exp2(v) + math.Log2(v) + math.Log10(v) + math.Tan(v)
	r += math.Atan(v) + math.Atan2(v, r) + math.Asin(v) + math.Acos(v) + math.Sinh(v) + math.Cosh(v)
	r += math.Tanh(v) + math.Hypot(v, r) + math.Mod(r, v)
	r += min(v, r) + max(v, 2, r) + math.Max(v, 1) + math.Min(v, -1)
	if math.Signbit(v) || math.IsNaN(v) || math.IsInf(v, 0) {
		r = math.Inf(1)
	}
	r += math.Float64frombits(math.Float64bits(v) ^ 1)
	out[i] = r
}

// Math32 calls the float32 math functions.
//
//gpu:kernel
func Math32(t gpu.Thread, x []float32, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(x) || i >= len(out) {
		return
	}
	v := x[i]
	r := math32.Sqrt(v) + math32.Abs(v) + math32.Floor(v) + math32.Ceil(v) + math32.Trunc(v)
	r += math32.FMA(v, v, 1) + math32.Copysign(2, v) + math32.Exp(v) + math32.Log(v)
	r += math32.Sin(v) + math32.Cos(v) + math32.Pow(v, 2.5) + min(r, v) + max(r, v)
	r += math32.Tan(v) + math32.Atan(v) + math32.Atan2(r, v) + math32.Tanh(v) + math32.Hypot(r, v) + math32.Mod(r, v)
	r += math32.Round(v) + math32.Exp2(v) + math32.Log2(v)
	if math32.Signbit(v) || math32.IsNaN(v) {
		r = 0
	}
	r += math.Float32frombits(math.Float32bits(v) | 1)
	out[i] = r
}

// NoFuse rounds a product explicitly, which must not be fused.
//
//gpu:kernel
func NoFuse(t gpu.Thread, x, y, z []float32) {
	i := t.GlobalIdx().X
	if i < len(x) && i < len(y) && i < len(z) {
		z[i] = float32(x[i]*y[i]) + z[i]
	}
}

// Fuse lets a product and a sum fuse.
//
//gpu:kernel
func Fuse(t gpu.Thread, x, y, z []float32) {
	i := t.GlobalIdx().X
	if i < len(x) && i < len(y) && i < len(z) {
		z[i] = x[i]*y[i] + z[i]
	}
}
