package ptx

import (
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
