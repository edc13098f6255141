package devmath

import "math"

func xatan(x float64) float64 {
	const (
		P0 = -8.750608600031904122785e-01
		P1 = -1.615753718733365076637e+01
		P2 = -7.500855792314704667340e+01
		P3 = -1.228866684490136173410e+02
		P4 = -6.485021904942025371773e+01
		Q0 = +2.485846490142306297962e+01
		Q1 = +1.650270098316988542046e+02
		Q2 = +4.328810604912902668951e+02
		Q3 = +4.853903996359136964868e+02
		Q4 = +1.945506571482613964425e+02
	)
	z := x * x
	z = z * ((((P0*z+P1)*z+P2)*z+P3)*z + P4) / (((((z+Q0)*z+Q1)*z+Q2)*z+Q3)*z + Q4)
	z = x*z + x
	return z
}

func satan(x float64) float64 {
	const (
		Morebits = 6.123233995736765886130e-17 // pi/2 = PIO2 + Morebits
		Tan3pio8 = 2.41421356237309504880      // tan(3*pi/8)
	)
	if x <= 0.66 {
		return xatan(x)
	}
	if x > Tan3pio8 {
		return math.Pi/2 - xatan(1/x) + Morebits
	}
	return math.Pi/4 + xatan((x-1)/(x+1)) + 0.5*Morebits
}

// Atan is math.Atan.
//
//gpu:device
func Atan(x float64) float64 {
	if x == 0 {
		return x
	}
	if x > 0 {
		return satan(x)
	}
	return -satan(-x)
}

// Atan2 is math.Atan2.
//
//gpu:device
func Atan2(y, x float64) float64 {
	switch {
	case math.IsNaN(y) || math.IsNaN(x):
		return math.NaN()
	case y == 0:
		if x >= 0 && !math.Signbit(x) {
			return math.Copysign(0, y)
		}
		return math.Copysign(math.Pi, y)
	case x == 0:
		return math.Copysign(math.Pi/2, y)
	case IsInf(x, 0):
		if IsInf(x, 1) {
			if IsInf(y, 0) {
				return math.Copysign(math.Pi/4, y)
			}
			return math.Copysign(0, y)
		}
		if IsInf(y, 0) {
			return math.Copysign(3*math.Pi/4, y)
		}
		return math.Copysign(math.Pi, y)
	case IsInf(y, 0):
		return math.Copysign(math.Pi/2, y)
	}
	q := Atan(y / x)
	if x < 0 {
		if q <= 0 {
			return q + math.Pi
		}
		return q - math.Pi
	}
	return q
}

// Asin is math.Asin.
//
//gpu:device
func Asin(x float64) float64 {
	if x == 0 {
		return x
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	if x > 1 {
		return math.NaN()
	}
	temp := math.Sqrt(1 - x*x)
	if x > 0.7 {
		temp = math.Pi/2 - satan(temp/x)
	} else {
		temp = satan(x / temp)
	}
	if sign {
		temp = -temp
	}
	return temp
}

// Acos is math.Acos.
//
//gpu:device
func Acos(x float64) float64 {
	return math.Pi/2 - Asin(x)
}

// Tanh is math.Tanh.
//
//gpu:device
func Tanh(x float64) float64 {
	const (
		MAXLOG = 8.8029691931113054295988e+01 // log(2**127)
		P0     = -9.64399179425052238628e-1
		P1     = -9.92877231001918586564e1
		P2     = -1.61468768441708447952e3
		Q0     = 1.12811678491632931402e2
		Q1     = 2.23548839060100448583e3
		Q2     = 4.84406305325125486048e3
	)
	// Go's switch, written as a run of early returns: SPIR-V's structured
	// control flow cannot express a return nested in one arm while another
	// falls through.
	z := math.Abs(x)
	if z > 0.5*MAXLOG {
		if x < 0 {
			return -1
		}
		return 1
	}
	if z >= 0.625 {
		s := Exp(2 * z)
		z = 1 - 2/(s+1)
		if x < 0 {
			z = -z
		}
		return z
	}
	if x == 0 {
		return x
	}
	s := x * x
	return x + x*s*((P0*s+P1)*s+P2)/(((s+Q0)*s+Q1)*s+Q2)
}

// Sinh is math.Sinh.
//
//gpu:device
func Sinh(x float64) float64 {
	const (
		P0 = -0.6307673640497716991184787251e+6
		P1 = -0.8991272022039509355398013511e+5
		P2 = -0.2894211355989563807284660366e+4
		P3 = -0.2630563213397497062819489000e+2
		Q0 = -0.6307673640497716991212077277e+6
		Q1 = 0.1521517378790019070696485176e+5
		Q2 = -0.173678953558233699533450911e+3
	)
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	var temp float64
	switch {
	case x > 21:
		temp = Exp(x) * 0.5
	case x > 0.5:
		ex := Exp(x)
		temp = (ex - 1/ex) * 0.5
	default:
		sq := x * x
		temp = (((P3*sq+P2)*sq+P1)*sq + P0) * x
		temp = temp / (((sq+Q2)*sq+Q1)*sq + Q0)
	}
	if sign {
		temp = -temp
	}
	return temp
}

// Cosh is math.Cosh.
//
//gpu:device
func Cosh(x float64) float64 {
	x = math.Abs(x)
	if x > 21 {
		return Exp(x) * 0.5
	}
	ex := Exp(x)
	return (ex + 1/ex) * 0.5
}

// Hypot is math.Hypot.
//
//gpu:device
func Hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	switch {
	case IsInf(p, 1) || IsInf(q, 1):
		return math.Inf(1)
	case math.IsNaN(p) || math.IsNaN(q):
		return math.NaN()
	}
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q = q / p
	return p * math.Sqrt(1+q*q)
}

// Mod is math.Mod.
//
//gpu:device
func Mod(x, y float64) float64 {
	if y == 0 || IsInf(x, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	y = math.Abs(y)
	yfr, yexp := Frexp(y)
	// |x| and the sign restored by Copysign, rather than Go's two tests
	// of x < 0 (same results, -0 included): an if just before the loop
	// is a shape the SPIR-V emitter cannot structure.
	r := math.Abs(x)
	for r >= y {
		rfr, rexp := Frexp(r)
		if rfr < yfr {
			rexp = rexp - 1
		}
		r = r - Ldexp(y, rexp-yexp)
	}
	return math.Copysign(r, x)
}
