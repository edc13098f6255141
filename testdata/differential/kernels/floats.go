package kernels

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
)

// FloatSpecial: arithmetic on NaN, ±Inf, ±0 and subnormals (IEEE 754, as Go).
//
//gpu:kernel
func FloatSpecial(t gpu.Thread, a, b []float64, c, d []float32, out64 []float64, out32 []float32) {
	i := t.GlobalIdx().X
	if i < len(a) {
		out64[4*i] = a[i] + b[i]
		out64[4*i+1] = a[i] - b[i]
		out64[4*i+2] = a[i] * b[i]
		out64[4*i+3] = a[i] / b[i]
		out32[4*i] = c[i] + d[i]
		out32[4*i+1] = c[i] - d[i]
		out32[4*i+2] = c[i] * d[i]
		out32[4*i+3] = c[i] / d[i]
	}
}

// FloatToInt: conversions toward zero, for values in range (Go leaves out
// of range conversions implementation-specific).
//
//gpu:kernel
func FloatToInt(t gpu.Thread, f []float64, g []float32, outi []int64, out32 []int32, outu []uint32, out8 []int8) {
	i := t.GlobalIdx().X
	if i < len(f) {
		outi[i] = int64(f[i])
		out32[i] = int32(g[i])
		outu[i] = uint32(math.Abs(f[i]))
		out8[i] = int8(g[i] / 4)
	}
}

// IntToFloat: integers to floats, rounding to nearest even, large uint64s,
// and float64 to float32 rounding.
//
//gpu:kernel
func IntToFloat(t gpu.Thread, a []int64, u []uint64, f []float64, out64 []float64, out32 []float32) {
	i := t.GlobalIdx().X
	if i < len(a) {
		out64[3*i] = float64(a[i])
		out64[3*i+1] = float64(u[i])
		out64[3*i+2] = float64(float32(f[i]))
		out32[3*i] = float32(a[i])
		out32[3*i+1] = float32(u[i])
		out32[3*i+2] = float32(f[i])
	}
}

// NoFuse: an explicit conversion rounds the product, so these must match
// Go's unfused results exactly.
//
//gpu:kernel
func NoFuse(t gpu.Thread, a, b, c []float32, d, e, f []float64, out32 []float32, out64 []float64) {
	i := t.GlobalIdx().X
	if i < len(a) {
		out32[i] = float32(a[i]*b[i]) + c[i]
		out64[i] = float64(d[i]*e[i]) - f[i]
	}
}

// Fused: x*y + z may be fused (the Go spec allows it); compared within 1 ULP.
//
//gpu:kernel
func Fused(t gpu.Thread, a, b, c []float32, out []float32) {
	i := t.GlobalIdx().X
	if i < len(a) {
		out[i] = a[i]*b[i] + c[i]
	}
}

// Math64: the math package's float64 functions; exact ones into exact,
// the transcendental ones (compared within a ULP bound) into approx.
//
//gpu:kernel
func Math64(t gpu.Thread, x, y []float64, exact, approx []float64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		v, w := x[i], y[i]
		o := exact[8*i : 8*i+8]
		o[0] = math.Sqrt(math.Abs(v))
		o[1] = math.Abs(v)
		o[2] = math.Floor(v)
		o[3] = math.Ceil(v)
		o[4] = math.Trunc(v)
		o[5] = v * w // FMA has a case of its own
		o[6] = math.Copysign(w, v)
		if math.Signbit(v) {
			o[7] = 1
		}
		a := approx[5*i : 5*i+5]
		a[0] = math.Exp(v / 8)
		a[1] = math.Log(math.Abs(v) + 0.5)
		a[2] = math.Sin(v)
		a[3] = math.Cos(v)
		a[4] = math.Pow(math.Abs(v)+0.5, w/4)
	}
}

// Bits64: Float64bits, Float64frombits, Float32bits, Float32frombits.
//
//gpu:kernel
func FloatBits(t gpu.Thread, f []float64, g []float32, bits []uint64, bits32 []uint32, back []float64, back32 []float32) {
	i := t.GlobalIdx().X
	if i < len(f) {
		bits[i] = math.Float64bits(f[i])
		bits32[i] = math.Float32bits(g[i])
		back[i] = math.Float64frombits(bits[i] ^ 1<<63)
		back32[i] = math.Float32frombits(bits32[i] + 1)
	}
}

// MathConstants: constants of package math in kernel code.
//
//gpu:kernel
func MathConstants(t gpu.Thread, out []float64, outi []int64) {
	i := t.GlobalIdx().X
	if i == 0 && len(out) >= 4 && len(outi) >= 2 {
		out[0] = math.Pi
		out[1] = math.MaxFloat64
		out[2] = math.SmallestNonzeroFloat64
		out[3] = math.MaxFloat32
		outi[0] = math.MaxInt64
		outi[1] = math.MinInt64
	}
}

// Float32Chain: a float32 computation long enough to show rounding
// differences (no products added, so nothing to fuse).
//
//gpu:kernel
func Float32Chain(t gpu.Thread, x []float32, out []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		v := x[i]
		acc := float32(0)
		for k := 0; k < 16; k++ {
			acc = acc/3 + v
			v = -v / 2
		}
		out[i] = acc
	}
}
