package devmath

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// ulps is the distance between a and b in units in the last place (0 for
// equal values and for two NaNs).
func ulps(a, b float64) uint64 {
	if math.IsNaN(a) && math.IsNaN(b) || a == b {
		return 0
	}
	ia, ib := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if ia < 0 {
		ia = math.MinInt64 - ia
	}
	if ib < 0 {
		ib = math.MinInt64 - ib
	}
	if ia > ib {
		return uint64(ia - ib)
	}
	return uint64(ib - ia)
}

func inputs() []float64 {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2, math.Pi, -math.Pi / 2, 1e-300, 5e-324, 1e300, -1e300,
		709.7, -745, 1 << 29, 1e22, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		xs = append(xs, (r.Float64()-0.5)*200, r.NormFloat64(), math.Ldexp(r.Float64(), r.IntN(200)-100))
	}
	return xs
}

// asmTrouble reports inputs where amd64's assembly Exp and Log (which
// package math uses there instead of the pure-Go algorithms ported here)
// are themselves wrong: math.Exp overflows to +Inf above about 709.4
// (exp(709.7) is 1.65e308, finite), and math.Log of a subnormal is off by
// 35 (log(5e-324) is -744.44, math.Log says -709.09).
func asmTrouble(x float64) bool {
	return math.Abs(x) > 708 || (x != 0 && math.Abs(x) < 0x1p-1022)
}

// TestAgainstMath compares each function with package math: Go's own
// algorithms, so within 1 ULP (Exp and Log use assembly on some platforms).
func TestAgainstMath(t *testing.T) {
	xs := inputs()
	tan := func(x float64) float64 { return math.Sin(x) / math.Cos(x) }
	one := map[string][2]func(float64) float64{
		"Exp": {Exp, math.Exp}, "Exp2": {Exp2, math.Exp2}, "Log": {Log, math.Log}, "Log2": {Log2, math.Log2},
		"Log10": {Log10, math.Log10}, "Sin": {Sin, math.Sin}, "Cos": {Cos, math.Cos}, "Tan": {Tan, tan},
		"Atan": {Atan, math.Atan}, "Asin": {Asin, math.Asin}, "Acos": {Acos, math.Acos}, "Tanh": {Tanh, math.Tanh},
		"Sinh": {Sinh, math.Sinh}, "Cosh": {Cosh, math.Cosh},
	}
	for name, fs := range one {
		worst := uint64(0)
		var at float64
		for _, x := range xs {
			if asmTrouble(x) && (name == "Exp" || name[:3] == "Log" || name == "Sinh" || name == "Cosh") {
				continue
			}
			if d := ulps(fs[0](x), fs[1](x)); d > worst {
				worst, at = d, x
			}
		}
		limit := uint64(1)
		switch name {
		case "Exp", "Exp2", "Log", "Log2", "Log10", "Tanh", "Cosh":
			limit = 2 // here and in math (assembly on amd64) each within 1 ULP, on either side
		case "Sinh":
			limit = 4 // (e^x - e^-x)/2 cancels what Exp differs by
		}
		if worst > limit {
			t.Errorf("%s: %d ULP from math.%s at %v", name, worst, name, at)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	worst := uint64(0)
	for _, x := range xs[:2000] {
		if asmTrouble(x) {
			continue
		}
		for _, y := range []float64{0, 1, -1, 0.5, -0.5, 2, 3, -3, 1.5, math.Inf(1), math.Inf(-1), math.NaN(), r.Float64() * 10, -r.Float64() * 10} {
			if d := ulps(Pow(x, y), math.Pow(x, y)); d > worst {
				worst = d
				if d > 4 { // Exp and Log each within 2 ULP of math's, amplified
					t.Errorf("Pow(%v, %v) = %v, math.Pow says %v", x, y, Pow(x, y), math.Pow(x, y))
				}
			}
		}
	}
	two := map[string][2]func(x, y float64) float64{"Atan2": {Atan2, math.Atan2}, "Hypot": {Hypot, math.Hypot}, "Mod": {Mod, math.Mod}}
	for name, fs := range two {
		for i, x := range xs[:3000] {
			y := xs[(i*7+3)%len(xs)]
			if d := ulps(fs[0](x, y), fs[1](x, y)); d > 1 {
				t.Errorf("%s(%v, %v) = %v, math says %v (%d ULP)", name, x, y, fs[0](x, y), fs[1](x, y), d)
			}
		}
	}
	for _, x := range xs {
		f, e := Frexp(x)
		mf, me := math.Frexp(x)
		if ulps(f, mf) != 0 || (e != me && !math.IsNaN(x) && !math.IsInf(x, 0)) {
			t.Errorf("Frexp(%v) = %v, %d; math says %v, %d", x, f, e, mf, me)
		}
		if ulps(Ldexp(x, 7), math.Ldexp(x, 7)) != 0 || ulps(Ldexp(x, -1070), math.Ldexp(x, -1070)) != 0 {
			t.Errorf("Ldexp(%v, ...) differs from math.Ldexp", x)
		}
		i, fr := Modf(x)
		mi, mfr := math.Modf(x)
		if ulps(i, mi) != 0 || ulps(fr, mfr) != 0 {
			t.Errorf("Modf(%v) = %v, %v; math says %v, %v", x, i, fr, mi, mfr)
		}
	}
}

// TestPortsAgainstMath compares the functions ported from math's pure-Go
// code, restructured for SPIR-V, with math (pure Go on amd64 too): they
// must agree bit for bit, up to the FMA contraction some platforms do.
func TestPortsAgainstMath(t *testing.T) {
	xs := inputs()
	limit := uint64(0)
	if runtime.GOARCH != "amd64" {
		limit = 1
	}
	one := map[string][2]func(float64) float64{
		"Cbrt": {Cbrt, math.Cbrt}, "Expm1": {Expm1, math.Expm1}, "Log1p": {Log1p, math.Log1p},
		"RoundToEven": {RoundToEven, math.RoundToEven},
	}
	for name, fs := range one {
		for _, x := range append(xs, 0.25, -0.25, 0.347, -0.347, 1.04, -1.04, 38.9, -38.9, 0x1p-55, 0x1p-30, -0.29, 0.41, 2.5, 3.5, -2.5) {
			if d := ulps(fs[0](x), fs[1](x)); d > limit {
				t.Errorf("%s(%v) = %v, math says %v (%d ULP)", name, x, fs[0](x), fs[1](x), d)
			}
		}
	}
	two := map[string][2]func(x, y float64) float64{"Remainder": {Remainder, math.Remainder}, "Dim": {Dim, math.Dim}, "Mod": {Mod, math.Mod}}
	for name, fs := range two {
		for i, x := range xs[:3000] {
			for _, y := range []float64{xs[(i*7+3)%len(xs)], 0, math.Copysign(0, -1), math.Inf(1), math.NaN(), x, -x, 1e-310} {
				if d := ulps(fs[0](x, y), fs[1](x, y)); d > limit || math.Signbit(fs[0](x, y)) != math.Signbit(fs[1](x, y)) && !math.IsNaN(fs[1](x, y)) {
					t.Errorf("%s(%v, %v) = %v, math says %v", name, x, y, fs[0](x, y), fs[1](x, y))
				}
			}
		}
	}
	// Pow's loop over the bits of an integer y, where the exponent leaves
	// the range and the loop stops early.
	for _, x := range []float64{2, -2, 1e300, 1e-300, 0.5, 3, -1.0000001, 1.0000001, 7e-5} {
		for _, y := range []float64{5, 8, 9, 100, 1000, 12345, -777, 1 << 40, 1<<53 + 2, -(1 << 52)} {
			if d := ulps(Pow(x, y), math.Pow(x, y)); d > limit {
				t.Errorf("Pow(%v, %v) = %v, math.Pow says %v", x, y, Pow(x, y), math.Pow(x, y))
			}
		}
	}
}

// TestDivAgainstBits compares the divisions with math/bits, panics
// included.
func TestDivAgainstBits(t *testing.T) {
	vals := []uint64{0, 1, 2, 3, 7, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1<<63 - 1, 1 << 63, 1<<64 - 1, 0x0123456789abcdef, 0xfedcba9876543210}
	try := func(f func()) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		f()
		return ""
	}
	for _, hi := range vals {
		for _, lo := range vals {
			for _, y := range vals {
				var q, r, mq, mr uint64
				got := try(func() { q, r = Div64(hi, lo, y) })
				want := try(func() { mq, mr = bits.Div64(hi, lo, y) })
				if !strings.Contains(want, got) || (got == "") != (want == "") || q != mq || r != mr {
					t.Errorf("Div64(%#x, %#x, %#x) = %#x, %#x, panic %q; bits says %#x, %#x, panic %q", hi, lo, y, q, r, got, mq, mr, want)
				}
				got = try(func() { r = Rem64(hi, lo, y) })
				want = try(func() { mr = bits.Rem64(hi, lo, y) })
				if !strings.Contains(want, got) || (got == "") != (want == "") || r != mr {
					t.Errorf("Rem64(%#x, %#x, %#x) = %#x, panic %q; bits says %#x, panic %q", hi, lo, y, r, got, mr, want)
				}
				h, l, y32 := uint32(hi), uint32(lo), uint32(y)
				var q32, r32, mq32, mr32 uint32
				got = try(func() { q32, r32 = Div32(h, l, y32) })
				want = try(func() { mq32, mr32 = bits.Div32(h, l, y32) })
				if !strings.Contains(want, got) || (got == "") != (want == "") || q32 != mq32 || r32 != mr32 {
					t.Errorf("Div32(%#x, %#x, %#x) = %#x, %#x, panic %q; bits says %#x, %#x, panic %q", h, l, y32, q32, r32, got, mq32, mr32, want)
				}
				got = try(func() { r32 = Rem32(h, l, y32) })
				want = try(func() { mr32 = bits.Rem32(h, l, y32) })
				if !strings.Contains(want, got) || (got == "") != (want == "") || r32 != mr32 {
					t.Errorf("Rem32(%#x, %#x, %#x) = %#x, panic %q; bits says %#x, panic %q", h, l, y32, r32, got, mr32, want)
				}
			}
		}
	}
}
