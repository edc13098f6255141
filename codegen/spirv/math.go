package spirv

import (
	"github.com/gpukvet/gpukvet/codegen/kir"
)

// fdiv divides floats. Vulkan allows OpFDiv 2.5 ULP of error; see
// codegen/ABI.md for the precision the emitted code keeps.
func (e *funcEmitter) fdiv(id uint32, k kir.Kind, x, y uint32) {
	e.opTo(id, opFDiv, e.typ(k), x, y)
}

// math emits the math functions the lowering leaves to emitters (the
// others come inlined from codegen/devmath).
func (e *funcEmitter) math(v *kir.Value) {
	b := e.b
	k := v.Type.Kind
	t := e.typ(k)
	id := e.val[v.ID]
	a := func(i int) uint32 { return e.val[v.Args[i].ID] }
	ext := func(fn uint32, args ...uint32) uint32 {
		return e.op(opExtInst, t, append([]uint32{b.glsl, fn}, args...)...)
	}
	bits := k.Bits()
	if k == kir.Bool {
		bits = v.Args[0].Type.Kind.Bits()
	}
	it := b.tInt(bits)
	fconst := func(x float64) uint32 {
		if k == kir.F32 {
			return b.constF32(float32(x))
		}
		return b.constF64(x)
	}
	signMask := func() uint32 {
		if bits == 64 {
			return b.constU64(1 << 63)
		}
		return b.constU32(1 << 31)
	}
	switch kir.MathFn(v.Index) {
	case kir.MathSqrt:
		if k == kir.F32 {
			e.sqrt32(v, ext(glslSqrt, a(0)))
			break
		}
		e.opTo(id, opCopyObject, t, ext(glslSqrt, a(0)))
	case kir.MathAbs:
		e.opTo(id, opCopyObject, t, ext(glslFAbs, a(0)))
	case kir.MathFloor:
		e.opTo(id, opCopyObject, t, ext(glslFloor, a(0)))
	case kir.MathCeil:
		e.opTo(id, opCopyObject, t, ext(glslCeil, a(0)))
	case kir.MathTrunc:
		e.opTo(id, opCopyObject, t, ext(glslTrunc, a(0)))
	case kir.MathRound:
		// Half away from zero: trunc, then add ±1 when the dropped part
		// is at least one half (x - trunc(x) is exact).
		tr := ext(glslTrunc, a(0))
		fr := e.op(opFSub, t, a(0), tr)
		fr = ext(glslFAbs, fr)
		ge := e.op(opFOrdGreaterThanEqual, b.tBool(), fr, fconst(0.5))
		one := e.copysign(t, it, fconst(1), a(0), signMask())
		up := e.op(opFAdd, t, tr, one)
		e.opTo(id, opSelect, t, ge, up, tr)
	case kir.MathCopysign:
		e.opTo(id, opCopyObject, t, e.copysign(t, it, a(0), a(1), signMask()))
	case kir.MathMin, kir.MathMax:
		// Go's min and max: NaN if either is NaN; else the smaller or
		// larger, -0 below +0. The order is taken on the bits, not with
		// float comparisons, so that a device flushing subnormals (no
		// DenormPreserve: NVIDIA's float32) neither reads a subnormal as
		// zero nor ties it with one: key maps a float's bits to a signed
		// integer in the float's order (a negative float's magnitude bits
		// flipped), -0 just below +0.
		x, y := a(0), a(1)
		key := func(f uint32) uint32 {
			bf := e.op(opBitcast, it, f)
			neg := e.op(opSLessThan, b.tBool(), bf, zeroOf(b, bits))
			return e.op(opSelect, it, neg, e.op(opBitwiseXor, it, bf, e.op(opNot, it, signMask())), bf)
		}
		kx, ky := key(x), key(y)
		var pick uint32
		if kir.MathFn(v.Index) == kir.MathMax {
			pick = e.op(opSelect, t, e.op(opSLessThan, b.tBool(), ky, kx), x, y)
		} else {
			pick = e.op(opSelect, t, e.op(opSLessThan, b.tBool(), kx, ky), x, y)
		}
		nan := e.op(opLogicalOr, b.tBool(), e.op(opIsNan, b.tBool(), x), e.op(opIsNan, b.tBool(), y))
		sum := e.op(opFAdd, t, x, y)
		e.opTo(id, opSelect, t, nan, sum, pick)
	case kir.MathSignbit:
		bx := e.op(opBitcast, it, a(0))
		e.opTo(id, opINotEqual, b.tBool(), e.op(opBitwiseAnd, it, bx, signMask()), zeroOf(b, bits))
	case kir.MathIsNaN:
		e.opTo(id, opIsNan, b.tBool(), a(0))
	default:
		e.fail(v, "math function "+kir.MathFn(v.Index).String()+" has no SPIR-V lowering (expected it inlined from codegen/devmath)")
	}
}

func zeroOf(b *builder, bits int) uint32 {
	if bits == 64 {
		return b.constU64(0)
	}
	return b.constU32(0)
}

// copysign returns x with y's sign, by bits.
func (e *funcEmitter) copysign(t, it, x, y, sign uint32) uint32 {
	bx, by := e.op(opBitcast, it, x), e.op(opBitcast, it, y)
	mag := e.op(opBitwiseAnd, it, bx, e.op(opNot, it, sign))
	s := e.op(opBitwiseAnd, it, by, sign)
	return e.op(opBitcast, t, e.op(opBitwiseOr, it, mag, s))
}
