// Package math32 is float32 math for kernels: the functions of package
// math for float32 arguments, usable in kernel and device code on every
// backend.
//
// Each function is the float64 function of package math rounded to
// float32. Square root, absolute value, floor, ceil, trunc, copysign, min
// and max are exact, and the GPU code generator compiles them to single
// float32 instructions. Exp, Log, Sin, Cos, Pow, ... are computed in float64
// and rounded: at most 1 ULP from the exact float32 result.
package math32

import "math"

// Sqrt returns the square root of x.
//
//gpu:device
func Sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Abs returns the absolute value of x.
//
//gpu:device
func Abs(x float32) float32 { return float32(math.Abs(float64(x))) }

// Floor returns the greatest integer value less than or equal to x.
//
//gpu:device
func Floor(x float32) float32 { return float32(math.Floor(float64(x))) }

// Ceil returns the least integer value greater than or equal to x.
//
//gpu:device
func Ceil(x float32) float32 { return float32(math.Ceil(float64(x))) }

// Trunc returns the integer value of x.
//
//gpu:device
func Trunc(x float32) float32 { return float32(math.Trunc(float64(x))) }

// Round returns the nearest integer, rounding half away from zero.
//
//gpu:device
func Round(x float32) float32 { return float32(math.Round(float64(x))) }

// Copysign returns a value with the magnitude of f and the sign of sign.
//
//gpu:device
func Copysign(f, sign float32) float32 {
	return float32(math.Copysign(float64(f), float64(sign)))
}

// FMA returns x*y + z computed with one rounding.
//
//gpu:device
func FMA(x, y, z float32) float32 {
	// The float64 product of two float32 values is exact. The float64
	// sum s is rounded to odd (when inexact, its last bit set: the
	// neighbour of the exact sum on its side that is odd), which float32
	// then rounds once more without the error of double rounding: odd
	// rounding to 53 bits keeps every float32 rounding decision (53 >=
	// 24+2; Boldo and Melquiond, 2008). The GPU targets compile FMA to
	// their float32 FMA (the code generator does not compile this body).
	p := float64(x) * float64(y)
	zz := float64(z)
	s := p + zz
	if s-s != 0 { // Inf or NaN: no odd rounding (p, z or the sum overflowed)
		return float32(s)
	}
	// The sum's rounding error, exactly (TwoSum).
	bb := s - p
	e := (p - (s - bb)) + (zz - bb)
	if b := math.Float64bits(s); e != 0 && b&1 == 0 {
		// Step one ulp from s towards the exact sum (s != 0 here: a
		// float64 sum that rounds to zero is exact).
		if (e > 0) == (s > 0) {
			b++
		} else {
			b--
		}
		s = math.Float64frombits(b)
	}
	return float32(s)
}

// Exp returns e**x.
//
//gpu:device
func Exp(x float32) float32 { return float32(math.Exp(float64(x))) }

// Exp2 returns 2**x.
//
//gpu:device
func Exp2(x float32) float32 { return float32(math.Exp2(float64(x))) }

// Log returns the natural logarithm of x.
//
//gpu:device
func Log(x float32) float32 { return float32(math.Log(float64(x))) }

// Log2 returns the binary logarithm of x.
//
//gpu:device
func Log2(x float32) float32 { return float32(math.Log2(float64(x))) }

// Sin returns the sine of the radian argument x.
//
//gpu:device
func Sin(x float32) float32 { return float32(math.Sin(float64(x))) }

// Cos returns the cosine of the radian argument x.
//
//gpu:device
func Cos(x float32) float32 { return float32(math.Cos(float64(x))) }

// Pow returns x**y.
//
//gpu:device
func Pow(x, y float32) float32 { return float32(math.Pow(float64(x), float64(y))) }

// Signbit reports whether x is negative or negative zero.
//
//gpu:device
func Signbit(x float32) bool { return math.Float32bits(x)&(1<<31) != 0 }

// IsNaN reports whether x is a NaN.
//
//gpu:device
func IsNaN(x float32) bool { return x != x }

// Tan returns the tangent of the radian argument x.
//
//gpu:device
func Tan(x float32) float32 { return float32(math.Tan(float64(x))) }

// Atan returns the arctangent, in radians, of x.
//
//gpu:device
func Atan(x float32) float32 { return float32(math.Atan(float64(x))) }

// Atan2 returns the arc tangent of y/x, using the signs of the two to
// determine the quadrant.
//
//gpu:device
func Atan2(y, x float32) float32 { return float32(math.Atan2(float64(y), float64(x))) }

// Tanh returns the hyperbolic tangent of x.
//
//gpu:device
func Tanh(x float32) float32 { return float32(math.Tanh(float64(x))) }

// Hypot returns Sqrt(p*p + q*q), avoiding overflow and underflow.
//
//gpu:device
func Hypot(p, q float32) float32 { return float32(math.Hypot(float64(p), float64(q))) }

// Mod returns the floating-point remainder of x/y.
//
//gpu:device
func Mod(x, y float32) float32 { return float32(math.Mod(float64(x), float64(y))) }
