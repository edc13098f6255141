package spirv

import (
	"math"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// Float operations with a constant zero operand are computed on the other
// operand's bits. A driver may rewrite x+0 as x, 0-x as -x, x*0 and 0/x as
// 0 whatever float controls the module declares: lavapipe (Mesa 22.3's
// llvmpipe, whose gallivm helpers return an operand or zero when the other
// is the constant +0) does so although it reports
// shaderSignedZeroInfNanPreserve, and Go's results differ there: -0+0 is
// +0, 0-(+0) is +0, x*0 is NaN for an infinite or NaN x and -0 for a
// negative one, 0/x is NaN for a zero or NaN x. Integer code has no such
// rewrites. The other identity-like forms (x*±1, x/±1, x-(+0), (-0)+x) are
// exact identities, which a driver may fold without changing a result, and
// an operation whose operands are both variables is one float instruction
// as before (testdata/differential's FloatIdentities cases, by experiment
// on lavapipe). The forms are rare in kernels, so their few integer
// instructions cost nothing measurable.

// zeroConst reports whether v is a float constant ±0 and whether it is -0.
func zeroConst(v *kir.Value) (isZero, neg bool) {
	if v.Op != kir.OpConst || !v.Type.Kind.IsFloat() {
		return false, false
	}
	sign := uint64(1) << (v.Type.Kind.Bits() - 1)
	return v.Imm&^sign == 0, v.Imm&sign != 0
}

// zeroForm emits v in integer code when it is a float add, subtract,
// multiply or divide with a constant ±0 operand, and reports whether it did.
func (e *funcEmitter) zeroForm(v *kir.Value) bool {
	if !v.Type.Kind.IsFloat() || len(v.Args) != 2 {
		return false
	}
	x, y := v.Args[0], v.Args[1]
	xz, xneg := zeroConst(x)
	yz, yneg := zeroConst(y)
	if !xz && !yz {
		return false
	}
	f := e.floatBits(v.Type.Kind)
	id := e.val[v.ID]
	bx, by := f.bits(e.val[x.ID]), f.bits(e.val[y.ID])
	switch {
	case v.Op == kir.OpAdd && xz:
		f.to(id, f.plusZero(by, xneg))
	case v.Op == kir.OpAdd:
		f.to(id, f.plusZero(bx, yneg))
	case v.Op == kir.OpSub && yz:
		f.to(id, f.plusZero(bx, !yneg)) // x - c is x + (-c)
	case v.Op == kir.OpSub:
		f.to(id, f.keepNaN(by, f.plusZero(f.negate(by), xneg))) // c - y is (-y) + c
	case v.Op == kir.OpMul && xz:
		f.to(id, f.timesZero(by, xneg))
	case v.Op == kir.OpMul:
		f.to(id, f.timesZero(bx, yneg))
	case v.Op == kir.OpDiv && xz:
		f.to(id, f.zeroOver(by, xneg))
	case v.Op == kir.OpDiv:
		f.to(id, f.overZero(bx, yneg))
	default:
		return false
	}
	return true
}

// floatBits emits integer code on the bits of floats of one width.
type floatBits struct {
	e               *funcEmitter
	ft, it          uint32 // the float and integer types
	width           int
	sign, inf, qnan uint64 // the sign bit, +Inf's and a quiet NaN's bits
	zero, signBit   uint32 // the constants 0 and sign
}

func (e *funcEmitter) floatBits(k kir.Kind) floatBits {
	w := k.Bits()
	f := floatBits{e: e, ft: e.typ(k), it: e.b.tInt(w), width: w}
	if w == 64 {
		f.sign, f.inf, f.qnan = 1<<63, math.Float64bits(math.Inf(1)), 0x7ff8000000000000
	} else {
		f.sign, f.inf, f.qnan = 1<<31, uint64(math.Float32bits(float32(math.Inf(1)))), 0x7fc00000
	}
	f.zero, f.signBit = f.k(0), f.k(f.sign)
	return f
}

// k is an integer constant of the width.
func (f floatBits) k(c uint64) uint32 {
	if f.width == 64 {
		return f.e.b.constU64(c)
	}
	return f.e.b.constU32(uint32(c))
}

func (f floatBits) bits(x uint32) uint32 { return f.e.op(opBitcast, f.it, x) }

// to writes bits b as a float to id.
func (f floatBits) to(id, b uint32) { f.e.opTo(id, opBitcast, f.ft, b) }

func (f floatBits) op(op uint32, args ...uint32) uint32 { return f.e.op(op, f.it, args...) }

func (f floatBits) cmp(op uint32, a, b uint32) uint32 { return f.e.op(op, f.e.b.tBool(), a, b) }

func (f floatBits) sel(c, a, b uint32) uint32 { return f.e.op(opSelect, f.it, c, a, b) }

func (f floatBits) negate(b uint32) uint32 { return f.op(opBitwiseXor, b, f.signBit) }

// plusZero is b + (+0), or b + (-0) when neg: the sum with +0 turns -0 into
// +0 and keeps every other value (NaNs stay NaNs); the sum with -0 is b.
func (f floatBits) plusZero(b uint32, neg bool) uint32 {
	if neg {
		return b
	}
	return f.sel(f.cmp(opIEqual, b, f.signBit), f.zero, b)
}

// magSign splits b into its magnitude and the sign of a quotient or
// product with a zero of sign neg.
func (f floatBits) magSign(b uint32, neg bool) (mag, sign uint32) {
	mag = f.op(opBitwiseAnd, b, f.k(f.sign-1))
	sign = f.op(opBitwiseAnd, b, f.signBit)
	if neg {
		sign = f.negate(sign)
	}
	return mag, sign
}

// keepNaN is b where b is a NaN, r elsewhere: an operation hands on its NaN
// operand with its sign and payload, as Go's amd64 and arm64 hosts do (and
// the float instruction did on lavapipe), and makes a NaN of its own
// (f.qnan) only from operands that are not NaNs.
func (f floatBits) keepNaN(b, r uint32) uint32 {
	return f.sel(f.cmp(opUGreaterThan, f.op(opBitwiseAnd, b, f.k(f.sign-1)), f.k(f.inf)), b, r)
}

// timesZero is b * ±0: NaN for an infinite or NaN b, otherwise a zero
// whose sign is the product of the signs.
func (f floatBits) timesZero(b uint32, neg bool) uint32 {
	mag, s := f.magSign(b, neg)
	return f.keepNaN(b, f.sel(f.cmp(opIEqual, mag, f.k(f.inf)), f.k(f.qnan), s))
}

// zeroOver is ±0 / b: NaN for a zero or NaN b, otherwise a zero whose sign
// is the quotient of the signs.
func (f floatBits) zeroOver(b uint32, neg bool) uint32 {
	mag, s := f.magSign(b, neg)
	return f.keepNaN(b, f.sel(f.cmp(opIEqual, mag, f.zero), f.k(f.qnan), s))
}

// overZero is b / ±0: NaN for a zero or NaN b, otherwise an infinity whose
// sign is the quotient of the signs.
func (f floatBits) overZero(b uint32, neg bool) uint32 {
	mag, s := f.magSign(b, neg)
	return f.keepNaN(b, f.sel(f.cmp(opIEqual, mag, f.zero), f.k(f.qnan), f.op(opBitwiseOr, s, f.k(f.inf))))
}
