package kerngen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// A Type is one of Go's numeric types (or bool) as the generated kernels
// use it: every kernel passes its operands and results as the raw bits a
// []uint64 element holds, and converts them from and to the type itself.
type Type struct {
	Name   string
	Bits   int  // width in bits
	Signed bool // a signed integer
	Float  bool
	Bool   bool
}

// Int reports whether t is an integer type.
func (t Type) Int() bool { return !t.Float && !t.Bool }

// Numeric is every numeric type of the dialect (Go's, less the complex
// types), in a fixed order.
var Numeric = []Type{
	{Name: "int", Bits: 64, Signed: true}, {Name: "int8", Bits: 8, Signed: true}, {Name: "int16", Bits: 16, Signed: true},
	{Name: "int32", Bits: 32, Signed: true}, {Name: "int64", Bits: 64, Signed: true},
	{Name: "uint", Bits: 64}, {Name: "uint8", Bits: 8}, {Name: "uint16", Bits: 16}, {Name: "uint32", Bits: 32},
	{Name: "uint64", Bits: 64}, {Name: "uintptr", Bits: 64},
	{Name: "float32", Bits: 32, Float: true}, {Name: "float64", Bits: 64, Float: true},
}

// BoolType is bool.
var BoolType = Type{Name: "bool", Bits: 1, Bool: true}

// TypeNamed returns the type called name; ok is false for any other name.
func TypeNamed(name string) (Type, bool) {
	if name == "bool" {
		return BoolType, true
	}
	i := slices.IndexFunc(Numeric, func(t Type) bool { return t.Name == name })
	if i < 0 {
		return Type{}, false
	}
	return Numeric[i], true
}

// FromBits is the Go expression that reads a value of type t from the
// uint64 expression x.
func (t Type) FromBits(x string) string {
	switch {
	case t.Bool:
		return x + "&1 != 0"
	case t.Name == "float64":
		return "math.Float64frombits(" + x + ")"
	case t.Name == "float32":
		return "math.Float32frombits(uint32(" + x + "))"
	}
	return t.Name + "(" + x + ")"
}

// ToBits is the Go expression of type uint64 holding the bits of the value
// x of type t (a bool as 0 or 1 needs a statement: see storeBits).
func (t Type) ToBits(x string) string {
	switch t.Name {
	case "float64":
		return "math.Float64bits(" + x + ")"
	case "float32":
		return "uint64(math.Float32bits(" + x + "))"
	}
	return "uint64(" + x + ")"
}

// Canon reduces bits, as a kernel stored a value of type t, to the bits
// that identify the value: the low bits of an integer (sign-extended or
// not, the type's value is the same), one NaN for every NaN.
func (t Type) Canon(bits uint64) uint64 {
	switch {
	case t.Name == "float64":
		if math.IsNaN(math.Float64frombits(bits)) {
			return math.Float64bits(math.NaN())
		}
	case t.Name == "float32":
		if f := math.Float32frombits(uint32(bits)); f != f {
			return uint64(math.Float32bits(float32(math.NaN())))
		}
		return bits & math.MaxUint32
	case t.Bits < 64:
		return bits & (1<<t.Bits - 1)
	}
	return bits
}

// qnanBits are the bits of a quiet NaN of float type t, positive.
func (t Type) qnanBits() uint64 {
	if t.Bits == 32 {
		return 0x7fc00000
	}
	return 0x7ff8000000000000
}

// ULPs is the distance between two float results of type t in units in
// the last place (0 for other types and for equal canonical bits).
func (t Type) ULPs(a, b uint64) uint64 {
	a, b = t.Canon(a), t.Canon(b)
	if !t.Float || a == b {
		return 0
	}
	ord := func(x uint64, sign uint64) int64 { // monotone integer order of floats
		if x&sign != 0 {
			return -int64(x &^ sign)
		}
		return int64(x)
	}
	sign := uint64(1) << 63
	if t.Bits == 32 {
		sign = 1 << 31
	}
	d := ord(a, sign) - ord(b, sign)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// Edges are the edge values of type t, as bits: 0, ±1, the minimum and
// maximum, the sign bit, and for floats ±0, ±Inf, NaN, subnormals and
// values that round or overflow when converted.
func (t Type) Edges() []uint64 {
	if t.Bool {
		return []uint64{0, 1}
	}
	if t.Float {
		fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, -2.5, 3.7, -0.1, 127.9, -128.5, 255.5, 65535.9,
			2147483647.5, -2147483649, 4294967296, 9.3e18, -9.3e18, 1.9e19, 1e300, -1e300, math.MaxFloat64,
			math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
			math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 1.17549435e-38,
			math.Inf(1), math.Inf(-1), math.NaN()}
		var xs []uint64
		for _, f := range fs {
			if t.Bits == 32 {
				xs = append(xs, uint64(math.Float32bits(float32(f))))
			} else {
				xs = append(xs, math.Float64bits(f))
			}
		}
		return xs
	}
	w := uint(t.Bits)
	mask := uint64(1)<<w - 1
	if w == 64 {
		mask = math.MaxUint64
	}
	xs := []uint64{0, 1, 2, 3, 7, mask, mask - 1, mask >> 1, (mask >> 1) + 1, mask >> 2, 0x5A5A5A5A5A5A5A5A & mask}
	if t.Signed {
		xs = append(xs, (mask>>1)+2) // min+1
	}
	return dedup(xs)
}

// ShiftCounts are the shift counts tried for a value of type t: 0, 1,
// around the width, past it, and huge (as bits: a signed count type reads
// some of them as negative).
func (t Type) ShiftCounts() []uint64 {
	w := uint64(t.Bits)
	return dedup([]uint64{0, 1, w - 1, w, w + 1, 2*w - 1, 63, 64, 65, 127, 128, 255, 256, 1 << 15, 1<<31 + 3, 1 << 32, 1<<63 + 1, math.MaxUint64})
}

// Random is a random value of type t, as bits: random bits half of the
// time, else (floats) a value of a random magnitude or (integers) a small
// one, so that both the whole range and ordinary values come up.
func (t Type) Random(r *rand.Rand) uint64 {
	if r.IntN(2) == 0 {
		return r.Uint64()
	}
	switch {
	case t.Name == "float64":
		return math.Float64bits(r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)))
	case t.Name == "float32":
		return uint64(math.Float32bits(float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10)))))
	}
	return uint64(r.IntN(200) - 100)
}

func dedup(xs []uint64) []uint64 {
	var out []uint64
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// constants are typed Go constants of type t for the generated kernels'
// constant operands: 0, 1, the maximum, and -1 or the minimum.
func (t Type) constants() []string {
	switch {
	case t.Float:
		return []string{"0", "1", "-1", "0.5", "-2.5e-3"}
	case t.Signed:
		return []string{"0", "1", "-1", fmt.Sprintf("%d", int64(1)<<(t.Bits-1)-1), fmt.Sprintf("%d", -(int64(1) << (t.Bits - 1)))}
	}
	return []string{"0", "1", "2", fmt.Sprintf("%d", uint64(1)<<(t.Bits-1)), fmt.Sprintf("%d", uint64(math.MaxUint64)>>(64-t.Bits))}
}
