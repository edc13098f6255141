package kernels

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// FloatIdentities64 applies the operations whose Go result an algebraic
// rewrite by a driver would change (x+0 is not x for x = -0, 0-x is not -x
// for x = +0, x*0 is not 0 for x = ±Inf, NaN or a negative x), with
// constant operands (out) and the same operands read from memory (vout).
//
//gpu:kernel
func FloatIdentities64(t gpu.Thread, x, zero, one []float64, out, vout []float64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		a, z, o := x[i], zero[i], one[i]
		nz := math.Copysign(0, -1)
		out[18*i] = 0 - a
		out[18*i+1] = a + 0
		out[18*i+2] = 0 + a
		out[18*i+3] = a - 0
		out[18*i+4] = a * 0
		out[18*i+5] = 0 * a
		out[18*i+6] = a * 1
		out[18*i+7] = a / 1
		out[18*i+8] = nz + a
		out[18*i+9] = a - nz
		out[18*i+10] = a * nz
		out[18*i+11] = a * -1
		out[18*i+12] = a / -1
		out[18*i+13] = 0 / a
		out[18*i+14] = a - a
		out[18*i+15] = 1 * a
		out[18*i+16] = a / 0
		out[18*i+17] = (a * 0.5) * 2
		vout[9*i] = z - a
		vout[9*i+1] = a + z
		vout[9*i+2] = z + a
		vout[9*i+3] = a - z
		vout[9*i+4] = a * z
		vout[9*i+5] = a * o
		vout[9*i+6] = a / o
		vout[9*i+7] = z / a
		vout[9*i+8] = a / z
	}
}

// FloatIdentities32 is FloatIdentities64 for float32.
//
//gpu:kernel
func FloatIdentities32(t gpu.Thread, x, zero, one []float32, out, vout []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		a, z, o := x[i], zero[i], one[i]
		nz := math32.Copysign(0, -1)
		out[18*i] = 0 - a
		out[18*i+1] = a + 0
		out[18*i+2] = 0 + a
		out[18*i+3] = a - 0
		out[18*i+4] = a * 0
		out[18*i+5] = 0 * a
		out[18*i+6] = a * 1
		out[18*i+7] = a / 1
		out[18*i+8] = nz + a
		out[18*i+9] = a - nz
		out[18*i+10] = a * nz
		out[18*i+11] = a * -1
		out[18*i+12] = a / -1
		out[18*i+13] = 0 / a
		out[18*i+14] = a - a
		out[18*i+15] = 1 * a
		out[18*i+16] = a / 0
		out[18*i+17] = (a * 0.5) * 2
		vout[9*i] = z - a
		vout[9*i+1] = a + z
		vout[9*i+2] = z + a
		vout[9*i+3] = a - z
		vout[9*i+4] = a * z
		vout[9*i+5] = a * o
		vout[9*i+6] = a / o
		vout[9*i+7] = z / a
		vout[9*i+8] = a / z
	}
}

// b2i is 1 for true, 0 for false.
//
//gpu:device
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// FloatPredicates64 asks questions whose answers a rewrite across NaN,
// infinities or signed zeros would change: self-comparisons, the sign of
// a sum with zero, whether a product with zero is zero, and NaN compares
// as values, as branch conditions (negated too) and in selects.
//
//gpu:kernel
func FloatPredicates64(t gpu.Thread, x, y []float64, flags []int32, sel []float64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		a, b := x[i], y[i]
		f := flags[16*i : 16*i+16]
		f[0] = b2i(a != a)
		f[1] = b2i(a == a)
		f[2] = b2i(math.Signbit(a + 0))
		f[3] = b2i(a*0 == 0)
		f[4] = b2i(math.Signbit(0 - a))
		f[5] = b2i(!(a < b))
		f[6] = b2i(!(a >= b))
		f[7] = b2i(math.IsNaN(a * 0))
		if !(a < b) {
			f[8] = 1
		}
		if !(a <= b) {
			f[9] = 1
		}
		if a != a {
			f[10] = 1
		}
		if a == a {
			f[11] = 1
		}
		if a < b || a >= b {
			f[12] = 1
		}
		if a+0 == a && math.Signbit(a+0) == math.Signbit(a) {
			f[13] = 1
		}
		if a*1 != a {
			f[14] = 1
		}
		if a-a == 0 {
			f[15] = 1
		}
		m := a
		if b < a {
			m = b
		}
		sel[4*i] = m
		m = a
		if !(a <= b) {
			m = b
		}
		sel[4*i+1] = m
		m = b
		if a > b {
			m = a
		}
		sel[4*i+2] = m
		m = b
		if a == a {
			m = a
		}
		sel[4*i+3] = m
	}
}

// FloatPredicates32 is FloatPredicates64 for float32.
//
//gpu:kernel
func FloatPredicates32(t gpu.Thread, x, y []float32, flags []int32, sel []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		a, b := x[i], y[i]
		f := flags[16*i : 16*i+16]
		f[0] = b2i(a != a)
		f[1] = b2i(a == a)
		f[2] = b2i(math32.Signbit(a + 0))
		f[3] = b2i(a*0 == 0)
		f[4] = b2i(math32.Signbit(0 - a))
		f[5] = b2i(!(a < b))
		f[6] = b2i(!(a >= b))
		f[7] = b2i(math32.IsNaN(a * 0))
		if !(a < b) {
			f[8] = 1
		}
		if !(a <= b) {
			f[9] = 1
		}
		if a != a {
			f[10] = 1
		}
		if a == a {
			f[11] = 1
		}
		if a < b || a >= b {
			f[12] = 1
		}
		if a+0 == a && math32.Signbit(a+0) == math32.Signbit(a) {
			f[13] = 1
		}
		if a*1 != a {
			f[14] = 1
		}
		if a-a == 0 {
			f[15] = 1
		}
		m := a
		if b < a {
			m = b
		}
		sel[4*i] = m
		m = a
		if !(a <= b) {
			m = b
		}
		sel[4*i+1] = m
		m = b
		if a > b {
			m = a
		}
		sel[4*i+2] = m
		m = b
		if a == a {
			m = a
		}
		sel[4*i+3] = m
	}
}
