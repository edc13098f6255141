package spirv

import "github.com/gpukvet/gpukvet/codegen/kir"

// Exact FMA. Vulkan lets GLSL.std.450 Fma round twice ("inherited from
// OpFMul followed by OpFAdd"; lavapipe does), while math.FMA and
// math32.FMA round once, so the emitter computes x*y+z itself, in 64-bit
// integer arithmetic: the algorithm of Go's pure-Go math.FMA
// (src/math/fma.go), with its branches turned into selects (every path is
// computed, so it runs in straight-line code with no divergence) and its
// shifts made safe (SPIR-V leaves a shift by the width or more undefined;
// Go gives 0). The float32 FMA is the same computation on the operands
// widened exactly into the float64 split form, rounded once to float32 at
// the end (no float64 arithmetic, so a float32 kernel needs no Float64
// capability, and no double rounding). Zeros, infinities and NaNs are
// decided on the bits too: no float instruction is used, so a device that
// flushes subnormals (no DenormPreserve, NVIDIA's float32) still gets
// Go's result.
//
// softFMA is written once over fmaOps: the emitter's implementation emits
// SPIR-V, the tests' evaluates in Go and is compared with math.FMA and an
// exact reference on hard cases, so the algorithm is tested apart from
// the instructions.

// fmaOps are the operations softFMA is written in: V a 64-bit integer,
// B a boolean.
type fmaOps[V, B any] interface {
	k(c uint64) V
	add(a, b V) V
	sub(a, b V) V
	and(a, b V) V
	or(a, b V) V
	xor(a, b V) V
	// shl and shr shift by n < 64 (shr logical).
	shl(a, n V) V
	shr(a, n V) V
	// mul is the 128-bit product.
	mul(a, b V) (hi, lo V)
	ult(a, b V) B // unsigned <
	slt(a, b V) B // signed <
	eq(a, b V) B
	sel(c B, a, b V) V
	or1(a, b B) B
	and1(a, b B) B
	// clz counts leading zeros (64 for 0).
	clz(a V) V
}

// fmaCtx holds the helpers of Go's fma.go over an fmaOps.
type fmaCtx[V, B any] struct{ o fmaOps[V, B] }

// lsh and rsh shift by any n (an unsigned 64-bit value): 0 from 64 up, as
// Go does.
func (c fmaCtx[V, B]) lsh(x, n V) V {
	o := c.o
	return o.sel(o.ult(n, o.k(64)), o.shl(x, o.and(n, o.k(63))), o.k(0))
}

func (c fmaCtx[V, B]) rsh(x, n V) V {
	o := c.o
	return o.sel(o.ult(n, o.k(64)), o.shr(x, o.and(n, o.k(63))), o.k(0))
}

func (c fmaCtx[V, B]) nonzero(x V) V {
	o := c.o
	return o.sel(o.eq(x, o.k(0)), o.k(0), o.k(1))
}

func (c fmaCtx[V, B]) zero(x V) V {
	o := c.o
	return o.sel(o.eq(x, o.k(0)), o.k(1), o.k(0))
}

// shl128 is fma.go's shl: (u1:u2) << n.
func (c fmaCtx[V, B]) shl128(u1, u2, n V) (V, V) {
	o := c.o
	r1 := o.or(o.or(c.lsh(u1, n), c.rsh(u2, o.sub(o.k(64), n))), c.lsh(u2, o.sub(n, o.k(64))))
	return r1, c.lsh(u2, n)
}

// shr128 is fma.go's shr: (u1:u2) >> n.
func (c fmaCtx[V, B]) shr128(u1, u2, n V) (V, V) {
	o := c.o
	r2 := o.or(o.or(c.rsh(u2, n), c.lsh(u1, o.sub(o.k(64), n))), c.rsh(u1, o.sub(n, o.k(64))))
	return c.rsh(u1, n), r2
}

// shrcompress is fma.go's shrcompress: (u1:u2) >> n with the bits shifted
// out ORed into bit 0.
func (c fmaCtx[V, B]) shrcompress(u1, u2, n V) (V, V) {
	o := c.o
	one := o.k(1)
	// n < 64
	a1, a2 := c.shr128(u1, u2, n)
	a2 = o.or(a2, c.nonzero(o.and(u2, o.sub(c.lsh(one, n), one))))
	// 64 <= n < 128 (n == 64 included: the mask is then 0)
	b1, b2 := c.shr128(u1, u2, n)
	b2 = o.or(b2, c.nonzero(o.or(o.and(u1, o.sub(c.lsh(one, o.sub(n, o.k(64))), one)), u2)))
	// n >= 128
	c2 := c.nonzero(o.or(u1, u2))
	lt64, lt128 := o.ult(n, o.k(64)), o.ult(n, o.k(128))
	r1 := o.sel(lt64, a1, o.sel(lt128, b1, o.k(0)))
	r2 := o.sel(lt64, a2, o.sel(lt128, b2, c2))
	isZero := o.eq(n, o.k(0))
	return o.sel(isZero, u1, r1), o.sel(isZero, u2, r2)
}

// lz128 counts the leading zeros of (u1:u2).
func (c fmaCtx[V, B]) lz128(u1, u2 V) V {
	o := c.o
	l := o.clz(u1)
	return o.sel(o.eq(l, o.k(64)), o.add(l, o.clz(u2)), l)
}

// split64 is fma.go's split of float64 bits: sign, biased exponent (a
// signed value) and mantissa with the implicit bit at 52, subnormals
// normalized.
func (c fmaCtx[V, B]) split64(b V) (s, e, m V) {
	o := c.o
	s = o.shr(b, o.k(63))
	e = o.and(o.shr(b, o.k(52)), o.k(0x7FF))
	m = o.and(b, o.k(1<<52-1))
	lz := o.sub(o.clz(m), o.k(11))
	sub := o.eq(e, o.k(0))
	e = o.sel(sub, o.sub(o.k(1), lz), e)
	m = o.sel(sub, c.lsh(m, lz), o.or(m, o.k(1<<52)))
	return
}

// split32 splits float32 bits into the same form as split64: the float64
// biased exponent and the mantissa's implicit bit at 52 (exact: every
// float32 is a normal float64).
func (c fmaCtx[V, B]) split32(b V) (s, e, m V) {
	o := c.o
	s = o.shr(b, o.k(31))
	e32 := o.and(o.shr(b, o.k(23)), o.k(0xFF))
	m32 := o.and(b, o.k(1<<23-1))
	// A subnormal m32·2^-149 has its top bit at 63-lz: shifted up by
	// lz-11 that bit is at 52, and the float64 exponent is 937-lz.
	lz := o.clz(m32)
	sub := o.eq(e32, o.k(0))
	e = o.sel(sub, o.sub(o.k(937), lz), o.add(e32, o.k(1023-127)))
	m = o.sel(sub, c.lsh(m32, o.sub(lz, o.k(11))), o.shl(o.or(m32, o.k(1<<23)), o.k(29)))
	return
}

// softFMA returns the bits of x*y+z rounded once: float64 bits in and out,
// or, with f32, float32 bits (in the low 32 bits of each value). It uses
// no float instruction at all, so a device that flushes subnormals (no
// DenormPreserve) or contracts does not change it. Every value is
// computed for every input and the result selected at the end.
func softFMA[V, B any](o fmaOps[V, B], x, y, z V, f32 bool) V {
	c := fmaCtx[V, B]{o}
	const bias = 1023
	var xs, xe, xm, ys, ye, ym, zs, ze, zm V
	var expMask, absMask, qnan, signAt uint64
	if f32 {
		xs, xe, xm = c.split32(x)
		ys, ye, ym = c.split32(y)
		zs, ze, zm = c.split32(z)
		expMask, absMask, qnan, signAt = 0x7F800000, 0x7FFFFFFF, 0x7FC00000, 31
	} else {
		xs, xe, xm = c.split64(x)
		ys, ye, ym = c.split64(y)
		zs, ze, zm = c.split64(z)
		expMask, absMask, qnan, signAt = 0x7FF0000000000000, 1<<63-1, 0x7FF8000000000000, 63
	}
	isZero := func(b V) B { return o.eq(o.and(b, o.k(absMask)), o.k(0)) }
	isInf := func(b V) B { return o.eq(o.and(b, o.k(absMask)), o.k(expMask)) }
	isNaN := func(b V) B { return o.ult(o.k(expMask), o.and(b, o.k(absMask))) }

	// An infinite, NaN or zero x or y: the product is exact (±0, ±Inf or
	// NaN) and the sum rounds nothing. NaN if x or y is NaN, or the
	// product is Inf*0, or a NaN z, or Inf plus the opposite Inf; else
	// an infinite product's Inf; else (a zero product) z, or for two
	// zeros -0 only if both are negative.
	sign := o.xor(xs, ys)
	xz, yz := isZero(x), isZero(y)
	anyNaN, anyInf := o.or1(isNaN(x), isNaN(y)), o.or1(isInf(x), isInf(y))
	infNaN := o.or1(o.or1(xz, yz), o.and1(isInf(z), o.eq(o.xor(zs, sign), o.k(1))))
	infRes := o.sel(isNaN(z), z, o.sel(infNaN, o.k(qnan), o.or(o.shl(sign, o.k(signAt)), o.k(expMask))))
	zeroRes := o.sel(isZero(z), o.shl(o.and(sign, zs), o.k(signAt)), z)
	special := o.sel(anyNaN, o.k(qnan), o.sel(anyInf, infRes, zeroRes))
	useSpecial := o.or1(o.or1(anyNaN, anyInf), o.or1(xz, yz))
	// x, y finite and nonzero, z infinite or NaN: the result is z.
	zIsResult := o.eq(o.and(z, o.k(expMask)), o.k(expMask))
	// z == 0: the result is x*y rounded once, with its sign even where
	// it rounds to zero (math.FMA returns x*y there: -tiny + +0 would be
	// +0). Here z gets an exponent far below any product's, so it never
	// swaps with it and aligns to nothing, and the sum is the product.
	ze = o.sel(isZero(z), o.k(^uint64(1<<20)+1), ze)

	// The product's exponent and 128-bit mantissa, its top bit at 125
	// or 124, shifted to bit 62 of the high word.
	pe := o.add(o.sub(o.add(xe, ye), o.k(bias)), o.k(1))
	pm1, pm2 := o.mul(o.shl(xm, o.k(10)), o.shl(ym, o.k(11)))
	zm1, zm2 := o.shl(zm, o.k(10)), o.k(0)
	ps := o.xor(xs, ys)
	is62zero := o.and(o.shr(o.xor(pm1, o.k(^uint64(0))), o.k(62)), o.k(1))
	pm1, pm2 = c.shl128(pm1, pm2, is62zero)
	pe = o.sub(pe, is62zero)

	// Swap so that |p| >= |z|.
	swap := o.or1(o.slt(pe, ze), o.and1(o.eq(pe, ze), o.ult(pm1, zm1)))
	ps, zs = o.sel(swap, zs, ps), o.sel(swap, ps, zs)
	pe, ze = o.sel(swap, ze, pe), o.sel(swap, pe, ze)
	pm1, zm1 = o.sel(swap, zm1, pm1), o.sel(swap, pm1, zm1)
	pm2, zm2 = o.sel(swap, zm2, pm2), o.sel(swap, pm2, zm2)

	// p == -z: +0, as neither is zero.
	cancel := o.and1(o.and1(o.and1(o.eq(o.xor(ps, zs), o.k(1)), o.eq(pe, ze)), o.eq(pm1, zm1)), o.eq(pm2, zm2))

	zm1, zm2 = c.shrcompress(zm1, zm2, o.sub(pe, ze))

	// Same signs: add, and shift the sum down to one word with its top
	// bit at 62.
	s2 := o.add(pm2, zm2)
	carry := o.sel(o.ult(s2, pm2), o.k(1), o.k(0))
	s1 := o.add(o.add(pm1, zm1), carry)
	top := o.shr(s1, o.k(63))
	addE := o.sub(pe, o.xor(top, o.k(1)))
	_, addM := c.shrcompress(s1, s2, o.add(o.k(64), top))
	// Different signs: subtract and normalize.
	d2 := o.sub(pm2, zm2)
	borrow := o.sel(o.ult(pm2, zm2), o.k(1), o.k(0))
	d1 := o.sub(o.sub(pm1, zm1), borrow)
	nz := c.lz128(d1, d2)
	subE := o.sub(pe, nz)
	subM, rest := c.shl128(d1, d2, o.sub(nz, o.k(1)))
	subM = o.or(subM, c.nonzero(rest))

	same := o.eq(ps, zs)
	pe = o.sel(same, addE, subE)
	m := o.sel(same, addM, subM)

	// Round to nearest, ties to even, into the result's format: drop the
	// bits below the mantissa (10 for float64, 39 for float32; m's top
	// bit is at 62).
	drop, expAt, maxE := uint64(10), uint64(52), uint64(2045)
	if f32 {
		drop, expAt, maxE = 39, 23, 253
		pe = o.sub(pe, o.k(bias-127))
	}
	half := o.k(1 << (drop - 1))
	inf := o.or(o.shl(ps, o.k(signAt)), o.k(expMask))
	over := o.or1(o.slt(o.k(maxE), pe), o.and1(o.eq(pe, o.k(maxE)), o.eq(o.shr(o.add(m, half), o.k(63)), o.k(1))))
	// Below the normal range: shift right by -pe, keeping a sticky bit.
	under := o.slt(pe, o.k(0))
	n := o.sub(o.k(0), pe)
	mu := o.or(c.rsh(m, n), c.nonzero(o.and(m, o.sub(c.lsh(o.k(1), n), o.k(1)))))
	m = o.sel(under, mu, m)
	pe = o.sel(under, o.k(0), pe)
	low := o.and(m, o.k(1<<drop-1))
	tie := c.zero(o.xor(low, half)) // exactly half: round to even
	m = o.and(o.shr(o.add(m, half), o.k(drop)), o.xor(tie, o.k(^uint64(0))))
	pe = o.and(pe, o.sub(o.k(0), c.nonzero(m)))
	r := o.add(o.add(o.shl(ps, o.k(signAt)), o.shl(pe, o.k(expAt))), m)
	r = o.sel(over, inf, r)
	r = o.sel(cancel, o.k(0), r)
	return o.sel(useSpecial, special, o.sel(zIsResult, z, r))
}

// spvOps emits softFMA's operations: V is the id of a 64-bit integer, B
// of a bool.
type spvOps struct{ e *funcEmitter }

func (o spvOps) u64() uint32                 { return o.e.b.tInt(64) }
func (o spvOps) bin(op, a, b uint32) uint32  { return o.e.op(op, o.u64(), a, b) }
func (o spvOps) test(op, a, b uint32) uint32 { return o.e.op(op, o.e.b.tBool(), a, b) }
func (o spvOps) k(c uint64) uint32           { return o.e.b.constU64(c) }
func (o spvOps) add(a, b uint32) uint32      { return o.bin(opIAdd, a, b) }
func (o spvOps) sub(a, b uint32) uint32      { return o.bin(opISub, a, b) }
func (o spvOps) and(a, b uint32) uint32      { return o.bin(opBitwiseAnd, a, b) }
func (o spvOps) or(a, b uint32) uint32       { return o.bin(opBitwiseOr, a, b) }
func (o spvOps) xor(a, b uint32) uint32      { return o.bin(opBitwiseXor, a, b) }
func (o spvOps) shl(a, n uint32) uint32      { return o.bin(opShiftLeftLogical, a, n) }
func (o spvOps) shr(a, n uint32) uint32      { return o.bin(opShiftRightLogical, a, n) }
func (o spvOps) ult(a, b uint32) uint32      { return o.test(opULessThan, a, b) }
func (o spvOps) slt(a, b uint32) uint32      { return o.test(opSLessThan, a, b) }
func (o spvOps) eq(a, b uint32) uint32       { return o.test(opIEqual, a, b) }
func (o spvOps) or1(a, b uint32) uint32      { return o.test(opLogicalOr, a, b) }
func (o spvOps) and1(a, b uint32) uint32     { return o.test(opLogicalAnd, a, b) }
func (o spvOps) sel(c, a, b uint32) uint32   { return o.e.op(opSelect, o.u64(), c, a, b) }

// mul is OpUMulExtended, whose result struct holds the low word first.
func (o spvOps) mul(a, b uint32) (hi, lo uint32) {
	bl := o.e.b
	u64 := o.u64()
	st := bl.cached("struct.u64.u64", func(id uint32) { inst(&bl.globals, opTypeStruct, id, u64, u64) })
	r := o.e.op(opUMulExtended, st, a, b)
	return o.e.op(opCompositeExtract, u64, r, 1), o.e.op(opCompositeExtract, u64, r, 0)
}

// clz of a 64-bit value from GLSL FindUMsb of its halves (32-bit only).
func (o spvOps) clz(a uint32) uint32 {
	e, bl := o.e, o.e.b
	u32 := bl.tInt(32)
	lo := e.op(opUConvert, u32, a)
	hi := e.op(opUConvert, u32, e.op(opShiftRightLogical, o.u64(), a, bl.constU32(32)))
	hz := e.clz32(hi) // 32 for 0: FindUMsb gives -1
	lz := e.op(opIAdd, u32, e.clz32(lo), bl.constU32(32))
	r := e.op(opSelect, u32, e.op(opIEqual, bl.tBool(), hi, bl.constU32(0)), lz, hz)
	return e.op(opUConvert, o.u64(), r)
}

// bits64 returns float f's bits as a 64-bit integer (a float32's
// zero-extended), the form softFMA and roundSqrt32 compute on.
func (e *funcEmitter) bits64(f uint32, f32 bool) uint32 {
	b := e.b
	if f32 {
		return e.op(opUConvert, b.tInt(64), e.op(opBitcast, b.tInt(32), f))
	}
	return e.op(opBitcast, b.tInt(64), f)
}

// fma emits math.FMA (float64) or math32.FMA (float32) rounded once.
func (e *funcEmitter) fma(v *kir.Value) {
	b := e.b
	k := v.Type.Kind
	t := e.typ(k)
	x, y, z := e.val[v.Args[0].ID], e.val[v.Args[1].ID], e.val[v.Args[2].ID]
	f32 := k == kir.F32
	r := softFMA[uint32, uint32](spvOps{e}, e.bits64(x, f32), e.bits64(y, f32), e.bits64(z, f32), f32)
	if f32 {
		r = e.op(opUConvert, b.tInt(32), r)
	}
	e.opTo(e.val[v.ID], opBitcast, t, r)
}
