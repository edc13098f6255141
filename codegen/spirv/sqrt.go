package spirv

import "github.com/gpukvet/gpukvet/codegen/kir"

// Correctly rounded float32 square root. Go's math32.Sqrt (and
// float32(math.Sqrt(float64(x)))) is the root rounded once to nearest;
// Vulkan lets GLSL.std.450 Sqrt be 3 ULP off, and NVIDIA's driver is 1
// ULP off at ordinary operands (math32.Sqrt(1.5)). The emitter keeps the
// device's root s and rounds it again on the bits: with u the ULP of s,
// the true root lies above s+u/2 exactly when x > (s+u/2)², and below
// s-u/2 (s-u/4 where s is a power of two, whose lower neighbour is u/2
// away) exactly when x is below that square. Both squares and x are
// integers once scaled by 16/u², of at most 52 bits, so the tests are
// exact, and a midpoint's square is never a float32, so there are no
// ties. s moves one ULP up or down, which corrects any root within one
// ULP. Zeros, negative operands, infinities, NaNs and a flushed root keep
// the device's result, which is Go's there.
//
// roundSqrt32 is written over fmaOps, like softFMA, so that the tests
// evaluate it in Go on every perturbed root.
func roundSqrt32[V, B any](o fmaOps[V, B], x, s V) V {
	// Only a positive normal root of a positive finite operand is rounded.
	normalRoot := o.ult(o.sub(s, o.k(0x00800000)), o.k(0x7f000000))
	positive := o.ult(o.sub(x, o.k(1)), o.k(0x7f800000-1))
	S := o.or(o.and(s, o.k(0x7fffff)), o.k(0x800000))
	k := o.shr(s, o.k(23))
	xe := o.shr(x, o.k(23))
	subnormal := o.eq(xe, o.k(0))
	xm := o.and(x, o.k(0x7fffff))
	xm = o.sel(subnormal, xm, o.or(xm, o.k(0x800000)))
	j := o.sel(subnormal, o.k(1), xe)
	// x = xm·2^(j-150) and u = 2^(k-150), so 16x/u² = xm·2^(j+154-2k).
	d := o.and(o.sub(o.add(j, o.k(154)), o.add(k, k)), o.k(63))
	x16 := o.shl(xm, d)
	s4 := o.shl(S, o.k(2))
	// The squares of 4(s+u/2)/u and of 4(s-u/2)/u (4(s-u/4)/u), below
	// 2^52: the low word of the product is all of it.
	_, above := o.mul(o.add(s4, o.k(2)), o.add(s4, o.k(2)))
	lower := o.sel(o.eq(S, o.k(0x800000)), o.sub(s4, o.k(1)), o.sub(s4, o.k(2)))
	_, below := o.mul(lower, lower)
	r := o.sel(o.ult(above, x16), o.add(s, o.k(1)), o.sel(o.ult(x16, below), o.sub(s, o.k(1)), s))
	return o.sel(o.and1(normalRoot, positive), r, s)
}

// sqrt32 emits math32.Sqrt: the device's root, rounded again
// (roundSqrt32).
func (e *funcEmitter) sqrt32(v *kir.Value, root uint32) {
	b := e.b
	r := roundSqrt32[uint32, uint32](spvOps{e}, e.bits64(e.val[v.Args[0].ID], true), e.bits64(root, true))
	e.opTo(e.val[v.ID], opBitcast, b.tFloat(32), e.op(opUConvert, b.tInt(32), r))
}
