package spirv

import (
	"math"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// value emits one kir value.
func (e *funcEmitter) value(v *kir.Value) {
	b := e.b
	k := v.Type.Kind
	id := e.val[v.ID]
	t := e.typ(k)
	a := func(i int) uint32 { return e.val[v.Args[i].ID] }
	if e.folded[v] {
		return // computed by the fused multiply-add that alone uses it
	}
	switch v.Op {
	case kir.OpConst:
		e.opTo(id, opCopyObject, t, e.constant(k, v.Imm))
	case kir.OpParam:
		e.param(v)
	case kir.OpSpecial:
		e.special(v)
	case kir.OpLocal:
		e.opTo(id, opCopyObject, t, b.constU64(tagLocal|uint64(e.localOff[v])))
	case kir.OpShared:
		e.opTo(id, opCopyObject, t, b.constU64(tagShared|uint64(e.sharedOff[v.Index])))
	case kir.OpAdd, kir.OpSub, kir.OpMul:
		e.arith(v)
	case kir.OpDiv, kir.OpRem:
		e.divide(v)
	case kir.OpAnd, kir.OpOr, kir.OpXor:
		if k == kir.Bool {
			op := map[kir.Op]uint32{kir.OpAnd: opLogicalAnd, kir.OpOr: opLogicalOr, kir.OpXor: opLogicalNotEqual}[v.Op]
			e.opTo(id, op, t, a(0), a(1))
			return
		}
		op := map[kir.Op]uint32{kir.OpAnd: opBitwiseAnd, kir.OpOr: opBitwiseOr, kir.OpXor: opBitwiseXor}[v.Op]
		e.opTo(id, op, t, a(0), a(1))
	case kir.OpAndNot:
		if k == kir.Bool {
			e.opTo(id, opLogicalAnd, t, a(0), e.op(opLogicalNot, t, a(1)))
			return
		}
		e.opTo(id, opBitwiseAnd, t, a(0), e.op(opNot, t, a(1)))
	case kir.OpShl, kir.OpShr:
		e.shift(v)
	case kir.OpNeg:
		if k.IsFloat() {
			e.opTo(id, opFNegate, t, a(0))
			return
		}
		e.normalizeTo(id, e.op(opSNegate, t, a(0)), k)
	case kir.OpNot:
		if k == kir.Bool {
			e.opTo(id, opLogicalNot, t, a(0))
			return
		}
		e.normalizeTo(id, e.op(opNot, t, a(0)), k)
	case kir.OpMulHi:
		e.mulHi(v)
	case kir.OpClz:
		e.clz(v)
	case kir.OpPopc:
		e.popc(v)
	case kir.OpFMA:
		e.fma(v) // exact: GLSL Fma may round twice on Vulkan
	case kir.OpEq, kir.OpNe, kir.OpLt, kir.OpLe, kir.OpGt, kir.OpGe:
		e.compare(v)
	case kir.OpConvert:
		e.convert(v)
	case kir.OpBitcast:
		from := v.Args[0].Type.Kind
		if e.typ(from) == t {
			e.normalizeTo(id, a(0), k)
			return
		}
		e.opTo(id, opBitcast, t, a(0))
	case kir.OpSelect:
		e.opTo(id, opSelect, t, a(0), a(1), a(2))
	case kir.OpPtrAdd:
		e.opTo(id, opIAdd, t, a(0), a(1))
	case kir.OpLoad:
		e.load(v)
	case kir.OpStore:
		e.store(v)
	case kir.OpAtomic:
		e.atomic(v)
	case kir.OpBarrier:
		// CUDA's __syncthreads orders the block's shared and global memory
		// accesses: workgroup memory and, for global memory reached through
		// buffer addresses, uniform memory.
		e.ins(opControlBarrier, b.constU32(scopeWorkgroup), b.constU32(scopeWorkgroup),
			b.constU32(semAcquireRelease|semWorkgroupMemory|semUniformMemory))
	case kir.OpPoll:
		e.opTo(id, opINotEqual, t, e.loadStop(), b.constU32(0))
	case kir.OpMath:
		e.math(v)
	default:
		e.fail(v, "cannot emit "+v.Op.String())
	}
}

// constant returns the id of a constant of kind k (Imm as kir holds it).
func (e *funcEmitter) constant(k kir.Kind, imm uint64) uint32 {
	b := e.b
	switch {
	case k == kir.Bool:
		return b.constBool(imm&1 != 0)
	case k == kir.F32:
		return b.constF32(math.Float32frombits(uint32(imm)))
	case k == kir.F64:
		e.feats["float64"] = true
		return b.constF64(math.Float64frombits(imm))
	case k.Bits() == 64:
		return b.constU64(imm)
	}
	var n int64
	switch k {
	case kir.I8:
		n = int64(int8(imm))
	case kir.I16:
		n = int64(int16(imm))
	case kir.I32:
		n = int64(int32(imm))
	case kir.U8:
		n = int64(uint8(imm))
	case kir.U16:
		n = int64(uint16(imm))
	default:
		n = int64(uint32(imm))
	}
	return b.constU32(uint32(n))
}

// normalizeTo writes x re-extended as a sub-word integer of kind k to id
// (for other kinds, a copy).
func (e *funcEmitter) normalizeTo(id, x uint32, k kir.Kind) {
	b := e.b
	u32 := b.tInt(32)
	switch k {
	case kir.I8, kir.I16:
		sh := b.constU32(uint32(32 - k.Bits()))
		e.opTo(id, opShiftRightArithmetic, u32, e.op(opShiftLeftLogical, u32, x, sh), sh)
	case kir.U8:
		e.opTo(id, opBitwiseAnd, u32, x, b.constU32(0xff))
	case kir.U16:
		e.opTo(id, opBitwiseAnd, u32, x, b.constU32(0xffff))
	default:
		e.opTo(id, opCopyObject, e.typ(k), x)
	}
}

func (e *funcEmitter) special(v *kir.Value) {
	b := e.b
	u32 := b.tInt(32)
	i := v.Index
	var x uint32
	switch {
	case i >= kir.BlockDimX && i <= kir.BlockDimZ:
		x = e.blockDim[i-kir.BlockDimX]
	default:
		bi := map[int]uint32{0: biLocalInvocationID, 1: biWorkgroupID, 3: biNumWorkgroups}[i/3]
		vec := e.op(opLoad, b.tVec(u32, 3), b.builtin(bi))
		x = e.op(opCompositeExtract, u32, vec, uint32(i%3))
	}
	if v.Type.Kind.Bits() == 64 {
		e.opTo(e.val[v.ID], opUConvert, b.tInt(64), x)
		return
	}
	e.opTo(e.val[v.ID], opCopyObject, u32, x)
}

func (e *funcEmitter) arith(v *kir.Value) {
	k := v.Type.Kind
	t := e.typ(k)
	x, y := e.val[v.Args[0].ID], e.val[v.Args[1].ID]
	if e.zeroForm(v) {
		return
	}
	if fu, ok := e.fused[v]; ok {
		e.fusedMultiplyAdd(v, fu)
		return
	}
	if k.IsFloat() {
		op := map[kir.Op]uint32{kir.OpAdd: opFAdd, kir.OpSub: opFSub, kir.OpMul: opFMul}[v.Op]
		e.opTo(e.val[v.ID], op, t, x, y)
		if !e.contract[v] || (v.Op != kir.OpMul && !product(v.Args[0]) && !product(v.Args[1])) {
			// Go requires this operation rounded as written: it feeds no
			// sum (or is a sum of no product, the product being integer
			// code where an operand is a constant zero), or an explicit
			// conversion rounds it (NoFuse). NoContraction forbids what
			// Go forbids: fusing it, reassociating it with its neighbours
			// (x+1+2+3 as x+6) and folding it algebraically ((x*0.5)*2
			// as x, wrong for the smallest subnormal x), which a Vulkan
			// driver may otherwise do. The rest may fuse into an FMA, as
			// Go allows and ptx's plain mul and add let ptxas do.
			inst(&e.b.decos, opDecorate, e.val[v.ID], decNoContraction)
		}
		return
	}
	op := map[kir.Op]uint32{kir.OpAdd: opIAdd, kir.OpSub: opISub, kir.OpMul: opIMul}[v.Op]
	if k.Bits() >= 32 {
		e.opTo(e.val[v.ID], op, t, x, y)
		return
	}
	e.normalizeTo(e.val[v.ID], e.op(op, t, x, y), k)
}

// fuse chooses the contractible sums to emit as one GLSL.std.450 Fma: every
// pair kir.Fusions gives but those with a constant ±0 operand, which are
// integer code here (zeroForm) and which a driver might rewrite inside an
// Fma as it did as plain operations.
func (e *funcEmitter) fuse(f *kir.Func) {
	e.fused = kir.Fusions(f, func(fu kir.Fusion) bool {
		for _, x := range []*kir.Value{fu.X, fu.Y, fu.Addend} {
			if zero, _ := zeroConst(x); zero {
				return false
			}
		}
		return true
	})
	e.folded = map[*kir.Value]bool{}
	for _, fu := range e.fused {
		for _, x := range fu.Folded {
			e.folded[x] = true
		}
	}
}

// fusedMultiplyAdd emits a contractible sum and its product as one
// GLSL.std.450 Fma. Go lets them fuse or not, and Vulkan lets Fma round
// once or twice, so either result is Go's; an explicit Fma leaves no
// driver to decide whether to fuse (NVIDIA's does not fuse a plain
// OpFMul and OpFAdd under SignedZeroInfNanPreserve). Negations flip only
// the sign, so x*y - z is fma(x, y, -z) and z - x*y is fma(-x, y, z).
func (e *funcEmitter) fusedMultiplyAdd(v *kir.Value, fu kir.Fusion) {
	t := e.typ(v.Type.Kind)
	x, y, z := e.val[fu.X.ID], e.val[fu.Y.ID], e.val[fu.Addend.ID]
	if fu.NegProduct {
		x = e.op(opFNegate, t, x)
	}
	if fu.NegAddend {
		z = e.op(opFNegate, t, z)
	}
	e.opTo(e.val[v.ID], opExtInst, t, e.b.glsl, glslFma, x, y, z)
}

// product reports whether a float value is a product (possibly negated),
// which a sum may be fused with; a product with a constant zero is integer
// code (zeroForm), not a product.
func product(v *kir.Value) bool {
	if v.Op == kir.OpNeg {
		v = v.Args[0]
	}
	if v.Op != kir.OpMul {
		return false
	}
	xz, _ := zeroConst(v.Args[0])
	yz, _ := zeroConst(v.Args[1])
	return !xz && !yz
}

func (e *funcEmitter) divide(v *kir.Value) {
	k := v.Type.Kind
	t := e.typ(k)
	x, y := e.val[v.Args[0].ID], e.val[v.Args[1].ID]
	if k.IsFloat() {
		if v.Op == kir.OpRem {
			e.fail(v, "float remainder")
			return
		}
		if e.zeroForm(v) {
			return
		}
		e.fdiv(e.val[v.ID], k, x, y)
		return
	}
	if !k.IsSigned() {
		op := uint32(opUDiv)
		if v.Op == kir.OpRem {
			op = opUMod
		}
		if k.Bits() >= 32 {
			e.opTo(e.val[v.ID], op, t, x, y)
			return
		}
		e.normalizeTo(e.val[v.ID], e.op(op, t, x, y), k)
		return
	}
	e.normalizeTo(e.val[v.ID], e.signedDivide(v.Op, k, x, y), k)
}

// signedDivide emits Go's truncated signed / and % on unsigned
// magnitudes: Vulkan leaves OpSRem and OpSMod undefined for negative
// operands (NVIDIA's driver does not give SPIR-V's core result), so no
// signed division instruction is used. The magnitude of MinInt is MinInt
// read as unsigned (2^(n-1)), which makes MinInt / -1 wrap to MinInt and
// MinInt % -1 give 0, as in Go. Division by zero is trapped by the
// lowering before this point. Sub-word operands are sign-extended in their
// 32-bit registers, so the 32-bit operation is exact for them.
func (e *funcEmitter) signedDivide(op kir.Op, k kir.Kind, x, y uint32) uint32 {
	b := e.b
	t := e.typ(k)
	var zero uint32
	if k.Bits() == 64 {
		zero = b.constU64(0)
	} else {
		zero = b.constU32(0)
	}
	xneg := e.op(opSLessThan, b.tBool(), x, zero)
	yneg := e.op(opSLessThan, b.tBool(), y, zero)
	ax := e.op(opSelect, t, xneg, e.op(opSNegate, t, x), x)
	ay := e.op(opSelect, t, yneg, e.op(opSNegate, t, y), y)
	if op == kir.OpRem {
		m := e.op(opUMod, t, ax, ay)
		return e.op(opSelect, t, xneg, e.op(opSNegate, t, m), m)
	}
	q := e.op(opUDiv, t, ax, ay)
	neg := e.op(opLogicalNotEqual, b.tBool(), xneg, yneg)
	return e.op(opSelect, t, neg, e.op(opSNegate, t, q), q)
}

// shift emits << and >> with Go's rules: SPIR-V leaves counts of the
// width or more undefined, so a count is clamped at the width first (a
// left shift and a logical right shift by the width give 0, an arithmetic
// one the sign fill of width-1).
func (e *funcEmitter) shift(v *kir.Value) {
	b := e.b
	k := v.Type.Kind
	t := e.typ(k)
	bits := 32
	if k.Bits() == 64 {
		bits = 64
	}
	x := e.val[v.Args[0].ID]
	cnt := e.val[v.Args[1].ID]
	ck := v.Args[1].Type.Kind
	// The count as an unsigned integer of x's register width.
	cb := 32
	if ck.Bits() == 64 {
		cb = 64
	}
	limit := uint64(k.Bits())
	if v.Op == kir.OpShr && k.IsSigned() {
		limit = uint64(k.Bits() - 1)
	}
	var big, lim uint32
	if cb == 64 {
		lim = b.constU64(limit)
	} else {
		lim = b.constU32(uint32(limit))
	}
	big = e.op(opUGreaterThan, b.tBool(), cnt, lim)
	if v.Op == kir.OpShl || !k.IsSigned() {
		big = e.op(opUGreaterThanEqual, b.tBool(), cnt, lim)
	}
	c := cnt
	if cb != bits {
		if cb == 64 {
			c = e.op(opUConvert, b.tInt(32), e.op(opSelect, b.tInt(64), big, b.constU64(0), cnt))
		} else {
			c = e.op(opUConvert, b.tInt(64), cnt)
		}
	}
	var zero uint32
	if bits == 64 {
		zero = b.constU64(0)
	} else {
		zero = b.constU32(0)
	}
	switch {
	case v.Op == kir.OpShl:
		r := e.op(opShiftLeftLogical, t, x, c)
		r = e.op(opSelect, t, big, zero, r)
		e.normalizeTo(e.val[v.ID], r, k)
	case k.IsSigned():
		var m uint32
		if bits == 64 {
			m = b.constU64(63)
		} else {
			m = b.constU32(31)
		}
		cc := e.op(opSelect, e.b.tInt(bits), big, m, c)
		if cb == 64 && bits == 32 {
			cc = e.op(opSelect, b.tInt(32), big, m, c)
		}
		e.opTo(e.val[v.ID], opShiftRightArithmetic, t, x, cc)
	default:
		r := e.op(opShiftRightLogical, t, x, c)
		e.opTo(e.val[v.ID], opSelect, t, big, zero, r)
	}
}

func (e *funcEmitter) mulHi(v *kir.Value) {
	b := e.b
	k := v.Type.Kind
	t := e.typ(k)
	x, y := e.val[v.Args[0].ID], e.val[v.Args[1].ID]
	if k.Bits() < 32 {
		p := e.op(opIMul, t, x, y)
		op := uint32(opShiftRightLogical)
		if k.IsSigned() {
			op = opShiftRightArithmetic
		}
		e.normalizeTo(e.val[v.ID], e.op(op, t, p, b.constU32(uint32(k.Bits()))), k)
		return
	}
	st := b.cached("mulext"+itoa(int(t)), func(id uint32) { inst(&b.globals, opTypeStruct, id, t, t) })
	op := uint32(opUMulExtended)
	if k.IsSigned() {
		op = opSMulExtended
	}
	r := e.op(op, st, x, y)
	e.opTo(e.val[v.ID], opCompositeExtract, t, r, 1)
}

// clz32 counts the leading zeros of a u32: 31 - FindUMsb (which is -1 for
// zero, giving 32).
func (e *funcEmitter) clz32(x uint32) uint32 {
	b := e.b
	u32 := b.tInt(32)
	msb := e.op(opExtInst, u32, b.glsl, glslFindUMsb, x)
	return e.op(opISub, u32, b.constU32(31), msb)
}

func (e *funcEmitter) clz(v *kir.Value) {
	b := e.b
	u32 := b.tInt(32)
	x := e.val[v.Args[0].ID]
	ak := v.Args[0].Type.Kind
	if ak.Bits() < 64 {
		e.opTo(e.val[v.ID], opCopyObject, u32, e.clz32(x))
		return
	}
	lo := e.op(opUConvert, u32, x)
	hi := e.op(opUConvert, u32, e.op(opShiftRightLogical, b.tInt(64), x, b.constU32(32)))
	hz := e.clz32(hi)
	lz := e.op(opIAdd, u32, e.clz32(lo), b.constU32(32))
	isZero := e.op(opIEqual, b.tBool(), hi, b.constU32(0))
	e.opTo(e.val[v.ID], opSelect, u32, isZero, lz, hz)
}

// popc counts one bits; Vulkan's OpBitCount takes 32-bit operands only.
func (e *funcEmitter) popc(v *kir.Value) {
	b := e.b
	u32 := b.tInt(32)
	x := e.val[v.Args[0].ID]
	if v.Args[0].Type.Kind.Bits() < 64 {
		e.opTo(e.val[v.ID], opBitCount, u32, x)
		return
	}
	lo := e.op(opUConvert, u32, x)
	hi := e.op(opUConvert, u32, e.op(opShiftRightLogical, b.tInt(64), x, b.constU32(32)))
	e.opTo(e.val[v.ID], opIAdd, u32, e.op(opBitCount, u32, lo), e.op(opBitCount, u32, hi))
}

func (e *funcEmitter) compare(v *kir.Value) {
	b := e.b
	x, y := e.val[v.Args[0].ID], e.val[v.Args[1].ID]
	k := v.Args[0].Type.Kind
	var op uint32
	switch {
	case k == kir.Bool:
		switch v.Op {
		case kir.OpEq:
			op = opLogicalEqual
		case kir.OpNe:
			op = opLogicalNotEqual
		default:
			e.fail(v, "ordered comparison of bools")
			return
		}
	case k.IsFloat():
		// Ordered comparisons are false with a NaN operand; != is true.
		op = map[kir.Op]uint32{kir.OpEq: opFOrdEqual, kir.OpNe: opFUnordNotEqual, kir.OpLt: opFOrdLessThan,
			kir.OpLe: opFOrdLessThanEqual, kir.OpGt: opFOrdGreaterThan, kir.OpGe: opFOrdGreaterThanEqual}[v.Op]
	case k.IsSigned():
		op = map[kir.Op]uint32{kir.OpEq: opIEqual, kir.OpNe: opINotEqual, kir.OpLt: opSLessThan,
			kir.OpLe: opSLessThanEqual, kir.OpGt: opSGreaterThan, kir.OpGe: opSGreaterThanEqual}[v.Op]
	default:
		op = map[kir.Op]uint32{kir.OpEq: opIEqual, kir.OpNe: opINotEqual, kir.OpLt: opULessThan,
			kir.OpLe: opULessThanEqual, kir.OpGt: opUGreaterThan, kir.OpGe: opUGreaterThanEqual}[v.Op]
	}
	e.opTo(e.val[v.ID], op, b.tBool(), x, y)
}

// signExtendTo sign-extends the 32-bit x to 64 bits into id as a zero
// extension shifted left and arithmetically back, not as OpSConvert. An
// OpSConvert to 64 bits that feeds a signed comparison came out wrong on
// lavapipe (Mesa 22.3): int64(i) > 0 held for i = 0 in a kernel whose
// indices the optimizer narrows to 32 bits, so Conv2D, Srad, Conv3D, Blur5
// and Reduce1 of testdata/benchkernels trapped or summed wrong there and on
// the H200's Vulkan driver; with the shift pair (which drivers fold into
// one sign extension) all of them agree with the cpu backend.
func (e *funcEmitter) signExtendTo(id, x uint32) {
	b := e.b
	t := b.tInt(64)
	wide := e.op(opShiftLeftLogical, t, e.op(opUConvert, t, x), b.constU32(32))
	e.opTo(id, opShiftRightArithmetic, t, wide, b.constU32(32))
}

func (e *funcEmitter) convert(v *kir.Value) {
	b := e.b
	x := e.val[v.Args[0].ID]
	from, to := v.Args[0].Type.Kind, v.Type.Kind
	id := e.val[v.ID]
	t := e.typ(to)
	intLike := func(k kir.Kind) bool { return k.IsInt() || k == kir.Ptr }
	switch {
	case intLike(from) && intLike(to):
		switch fb, tb := from.Bits(), to.Bits(); {
		case fb == 64 && tb == 64:
			e.opTo(id, opCopyObject, t, x)
		case fb == 64:
			e.normalizeTo(id, e.op(opUConvert, b.tInt(32), x), to)
		case tb == 64 && from.IsSigned():
			e.signExtendTo(id, x)
		case tb == 64:
			e.opTo(id, opUConvert, t, x)
		default:
			e.normalizeTo(id, x, to)
		}
	case from.IsInt() && to.IsFloat():
		op := uint32(opConvertUToF)
		if from.IsSigned() {
			op = opConvertSToF
		}
		e.opTo(id, op, t, x)
	case from.IsFloat() && to.IsInt():
		if to.Bits() < 32 {
			// As PTX's cvt.rzi.s32/u32 then re-extension.
			wide := kir.U32
			if to.IsSigned() {
				wide = kir.I32
			}
			e.normalizeTo(id, e.floatToInt(from, wide, x), to)
			return
		}
		e.opTo(id, opCopyObject, t, e.floatToInt(from, to, x))
	case from.IsFloat() && to.IsFloat():
		e.opTo(id, opFConvert, t, x)
	default:
		e.fail(v, "cannot convert "+from.String()+" to "+to.String())
	}
}

// floatToInt converts a float to a 32- or 64-bit integer kind, truncating,
// with the PTX backend's results where Go leaves them to the
// implementation: NaN gives 0 and out-of-range values saturate. Vulkan
// leaves OpConvertFToS/FToU undefined out of range, so the operand is
// replaced by 0 before the conversion when it is NaN or out of range and
// the saturated result selected after.
func (e *funcEmitter) floatToInt(from, to kir.Kind, x uint32) uint32 {
	b := e.b
	ft := e.typ(from)
	t := e.typ(to)
	n := to.Bits()
	fc := func(f float64) uint32 {
		if from == kir.F32 {
			return b.constF32(float32(f))
		}
		return b.constF64(f)
	}
	ic := func(u uint64) uint32 {
		if n == 64 {
			return b.constU64(u)
		}
		return b.constU32(uint32(u))
	}
	// Limits: x >= hi saturates to max, x <= lo to min (both exact powers
	// of two or 0, so the comparisons are exact in either float width).
	var hi, lo float64
	var maxV, minV uint64
	op := uint32(opConvertFToU)
	if to.IsSigned() {
		op = opConvertFToS
		hi, lo = math.Ldexp(1, n-1), -math.Ldexp(1, n-1)
		maxV, minV = 1<<(n-1)-1, uint64(1)<<(n-1)
	} else {
		hi, lo = math.Ldexp(1, n), 0
		maxV, minV = 1<<n-1, 0
		if n == 64 {
			maxV = math.MaxUint64
		}
	}
	bt := b.tBool()
	big := e.op(opFOrdGreaterThanEqual, bt, x, fc(hi))
	small := e.op(opFOrdLessThan, bt, x, fc(lo))
	nan := e.op(opIsNan, bt, x)
	out := e.op(opLogicalOr, bt, e.op(opLogicalOr, bt, big, small), nan)
	r := e.op(op, t, e.op(opSelect, ft, out, fc(0), x))
	r = e.op(opSelect, t, big, ic(maxV), r)
	r = e.op(opSelect, t, small, ic(minV), r)
	return r
}
