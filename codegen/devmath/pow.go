package devmath

import "math"

func isOddInt(x float64) bool {
	if math.Abs(x) >= (1 << 53) {
		return false
	}
	xi, xf := Modf(x)
	return xf == 0 && int64(xi)&1 == 1
}

// powZero is Pow(±0, y) for y != 0.
func powZero(x, y float64) float64 {
	switch {
	case y < 0:
		if math.Signbit(x) && isOddInt(y) {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case y > 0:
		if math.Signbit(x) && isOddInt(y) {
			return x
		}
		return 0
	}
	return 1
}

// Pow is math.Pow.
//
//gpu:device
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case x == 0:
		return powZero(x, y)
	case IsInf(y, 0):
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == IsInf(y, 1):
			return 0
		default:
			return math.Inf(1)
		}
	case IsInf(x, 0):
		if IsInf(x, -1) {
			return powZero(math.Copysign(0, -1), -y) // Pow(1/x, -y)
		}
		// y is neither 0 nor NaN here: Go's case y > 0 is every other
		// y, and an arm that cannot fall through suits SPIR-V.
		if y < 0 {
			return 0
		}
		return math.Inf(1)
	case y == 0.5:
		return math.Sqrt(x)
	case y == -0.5:
		return 1 / math.Sqrt(x)
	}

	yi, yf := Modf(math.Abs(y))
	if yf != 0 && x < 0 {
		return math.NaN()
	}
	if yi >= 1<<63 {
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == (y > 0):
			return 0
		default:
			return math.Inf(1)
		}
	}

	a1 := 1.0
	ae := 0
	if yf != 0 {
		if yf > 0.5 {
			yf--
			yi++
		}
		a1 = Exp(yf * Log(x))
	}
	x1, xe := Frexp(x)
	// Go's loop breaks out when xe leaves [-1<<12, 1<<12], after adding xe
	// to ae; here that test is part of the loop's condition and the
	// addition follows the loop, since the SPIR-V emitter cannot structure
	// a break.
	i := int64(yi)
	for ; i != 0 && -1<<12 <= xe && xe <= 1<<12; i >>= 1 {
		if i&1 == 1 {
			a1 *= x1
			ae += xe
		}
		x1 *= x1
		xe <<= 1
		if x1 < .5 {
			x1 += x1
			xe--
		}
	}
	if i != 0 {
		ae += xe
	}
	if y < 0 {
		a1 = 1 / a1
		ae = -ae
	}
	return Ldexp(a1, ae)
}
