package ptx

import (
	"fmt"
	"math"

	mathbits "math/bits"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// divPow2 emits an integer division or remainder by a constant power of
// two as shifts and masks, and reports whether it did. ptxas does not do
// this itself: CUDA 11.8's ptxas compiles div.s64 and rem.s64 by any
// divisor, an immediate included, into a call of a 64-bit division
// routine of about 70 instructions (nvcc's twins get shifts from NVVM, a
// pass before ptxas), and a Go kernel's `int` is 64 bits: `BlockDim().X /
// 2` and a reduction's `offset /= 2` paid that call, the latter once per
// step of its loop. Go's division truncates toward zero, so a negative
// dividend is first biased by c-1 (the sign bits shifted down to k bits);
// a dividend zero-extended from 32 bits needs no bias.
func (e *emitter) divPow2(d string, v *kir.Value) bool {
	k, y := v.Type.Kind, v.Args[1]
	if !k.IsInt() || k.Bits() < 32 || y.Op != kir.OpConst {
		return false
	}
	w := k.Bits()
	c := y.Imm
	if w == 32 {
		c &= 1<<32 - 1
	}
	if c < 2 || c&(c-1) != 0 || k.IsSigned() && c>>(w-1) != 0 {
		return false
	}
	s := mathbits.TrailingZeros64(c)
	x := e.r(v.Args[0])
	if !k.IsSigned() || nonNegative(v.Args[0]) {
		if v.Op == kir.OpDiv {
			e.ins("shr.u%d %s, %s, %d", w, d, x, s)
		} else {
			e.ins("and.b%d %s, %s, %#x", w, d, x, c-1)
		}
		return true
	}
	t := e.newReg(k)
	e.ins("shr.s%d %s, %s, %d", w, t, x, w-1)
	e.ins("shr.u%d %s, %s, %d", w, t, t, w-s)
	e.ins("add.s%d %s, %s, %s", w, t, x, t)
	if v.Op == kir.OpDiv {
		e.ins("shr.s%d %s, %s, %d", w, d, t, s)
		return true
	}
	mask := -c // the bits from k up, in w bits
	if w == 32 {
		mask &= 1<<32 - 1
	}
	e.ins("and.b%d %s, %s, %#x", w, t, t, mask)
	e.ins("sub.s%d %s, %s, %s", w, d, x, t)
	return true
}

// nonNegative reports whether v is a 32-bit unsigned value zero-extended.
func nonNegative(v *kir.Value) bool {
	w := widened(v)
	return w != nil && !w.Type.Kind.IsSigned()
}

// divBypass emits a 64-bit integer division or remainder by a value as
// a 32-bit unsigned one where both operands lie in [0, 2^32) at run time,
// and as the 64-bit one (a call of ptxas's routine) otherwise, and
// reports whether it did. It is what NVVM does for nvcc's twins ("bypass
// slow division"): a kernel's indices are Go ints, 64 bits, but their
// values are nearly always small and non-negative, and a 32-bit division
// is a few instructions inline. Both operands in range, the unsigned
// 32-bit quotient and remainder are the signed 64-bit ones.
func (e *emitter) divBypass(d string, v *kir.Value) bool {
	k := v.Type.Kind
	if !k.IsInt() || k.Bits() != 64 {
		return false
	}
	x, y := e.r(v.Args[0]), e.r(v.Args[1])
	op := map[kir.Op]string{kir.OpDiv: "div", kir.OpRem: "rem"}[v.Op]
	e.label++
	wide, done := fmt.Sprintf("$D_%d", e.label), fmt.Sprintf("$DE_%d", e.label)
	t, p := e.newReg(kir.U64), e.newReg(kir.Bool)
	e.ins("or.b64 %s, %s, %s", t, x, y)
	e.ins("shr.u64 %s, %s, 32", t, t)
	e.ins("setp.ne.u64 %s, %s, 0", p, t)
	e.ins("@%s bra %s", p, wide)
	x32, y32, r32 := e.newReg(kir.U32), e.newReg(kir.U32), e.newReg(kir.U32)
	e.ins("cvt.u32.u64 %s, %s", x32, x)
	e.ins("cvt.u32.u64 %s, %s", y32, y)
	e.ins("%s.u32 %s, %s, %s", op, r32, x32, y32)
	e.ins("cvt.u64.u32 %s, %s", d, r32)
	e.ins("bra %s", done)
	fmt.Fprintf(&e.body, "%s:\n", wide)
	e.ins("%s.%s %s, %s, %s", op, regTyp(k), d, x, y)
	fmt.Fprintf(&e.body, "%s:\n", done)
	return true
}

// reciprocal emits a float division of one by a value as rcp.rn, and
// reports whether it did. Both are correctly rounded, so the bits are the
// same, but ptxas compiles div.rn with a dividend it cannot see as 1 into
// the general division (a range check, an estimate and five fused
// multiply-adds before the slow path's test), and rcp.rn into the
// reciprocal's shorter sequence, which is what nvcc's twins get for
// 1.0f/x (a Lennard-Jones force's 1/r², a stencil's 1/rx).
func (e *emitter) reciprocal(d string, v *kir.Value) bool {
	k, x := v.Type.Kind, v.Args[0]
	if !k.IsFloat() || x.Op != kir.OpConst {
		return false
	}
	one := map[kir.Kind]uint64{kir.F32: uint64(math.Float32bits(1)), kir.F64: math.Float64bits(1)}
	if b, ok := one[k]; !ok || x.Imm != b {
		return false
	}
	e.ins("rcp.rn.%s %s, %s", typ(k), d, e.r(v.Args[1]))
	return true
}
