// Package devmath implements the float64 functions of package math that
// have no single GPU instruction (Exp, Log, Sin, Cos, Pow, ...), and the
// divisions of math/bits (Div64, Rem64, ...), in the gpukvet kernel
// dialect, so that the codegen can compile them for every target by
// inlining them where a kernel calls math.Exp and friends.
//
// Where Go's code nests a return inside one arm of an if or switch whose
// other arm goes on, or breaks out of a loop, the code here tests the same
// conditions as a run of early returns, or in the loop's condition: the
// SPIR-V emitter cannot structure those shapes once inlined, and the
// results are the same (the tests compare with math and math/bits).
//
// The algorithms are those of Go's own math package (pure Go versions),
// ported without package-level tables, so a kernel computes what the cpu
// backend computes: within 1 ULP of it where Go uses assembly (Exp and Log
// on amd64), bit-for-bit otherwise, up to FMA contraction. Functions in
// this package run on the CPU too, where the tests compare them with math.
//
// Portions Copyright 2009 The Go Authors (BSD-style license, see Go's
// LICENSE file): exp.go, log.go, sin.go, trig_reduce.go, pow.go, ldexp.go,
// frexp.go, expm1.go, log1p.go, cbrt.go, remainder.go, dim.go, floor.go of
// Go's math package, and bits.go of math/bits.
package devmath

import "math"

const (
	mask  = 0x7FF
	shift = 64 - 11 - 1
	bias  = 1023
)

// IsInf reports whether f is an infinity, according to sign (math.IsInf).
//
//gpu:device
func IsInf(f float64, sign int) bool {
	return sign >= 0 && f > math.MaxFloat64 || sign <= 0 && f < -math.MaxFloat64
}

func normalize(x float64) (y float64, exp int) {
	const SmallestNormal = 2.2250738585072014e-308 // 2**-1022
	if math.Abs(x) < SmallestNormal {
		return x * (1 << 52), -52
	}
	return x, 0
}

// Frexp is math.Frexp.
//
//gpu:device
func Frexp(f float64) (frac float64, exp int) {
	switch {
	case f == 0:
		return f, 0 // correctly return -0
	case IsInf(f, 0) || math.IsNaN(f):
		return f, 0
	}
	f, exp = normalize(f)
	x := math.Float64bits(f)
	exp += int((x>>shift)&mask) - bias + 1
	x &^= mask << shift
	x |= (-1 + bias) << shift
	frac = math.Float64frombits(x)
	return
}

// Ldexp is math.Ldexp.
//
//gpu:device
func Ldexp(frac float64, exp int) float64 {
	switch {
	case frac == 0:
		return frac // correctly return -0
	case IsInf(frac, 0) || math.IsNaN(frac):
		return frac
	}
	frac, e := normalize(frac)
	exp += e
	x := math.Float64bits(frac)
	exp += int(x>>shift)&mask - bias
	if exp < -1075 {
		return math.Copysign(0, frac) // underflow
	}
	if exp > 1023 { // overflow
		if frac < 0 {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	var m float64 = 1
	if exp < -1022 { // denormal
		exp += 53
		m = 1.0 / (1 << 53) // 2**-53
	}
	x &^= mask << shift
	x |= uint64(exp+bias) << shift
	return m * math.Float64frombits(x)
}

// Modf is math.Modf.
//
//gpu:device
func Modf(f float64) (int float64, frac float64) {
	if IsInf(f, 0) {
		return f, math.NaN()
	}
	int = math.Trunc(f)
	frac = math.Copysign(f-int, f)
	return
}
