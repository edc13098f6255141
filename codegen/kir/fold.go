package kir

import (
	"math"
	"math/bits"

	"github.com/gpukvet/gpukvet/gpu/math32"
)

// FoldConstants replaces every operation whose operands are all constants
// by the constant it computes, with Go's run-time semantics bit for bit (the
// same results the device and codegen/internal/kirexec give): integers wrap
// at their width, shifts past the width give 0 or the sign, float32
// arithmetic is rounded to float32 after each operation (IEEE division and
// square root are correctly rounded on the device too, so a folded
// 1/float32(k+1) has the bits div.rn.f32 gives). A branch or select on a
// constant condition takes its one arm; the blocks that leave unreachable
// are removed. A test of a pointer against nil folds when NonNil proves the
// pointer (so the lowering's nil checks cost nothing on the address of a
// local). It returns how many values and branches it folded.
//
// What it does not fold, because the device result is not Go's or would
// hide a trap: float→int conversions of NaN or out-of-range values (the
// device saturates), integer division by zero or MinInt/-1 (the lowering's
// check traps first), transcendental math functions (devmath inlines them).
func FoldConstants(f *Func) int {
	n := reciprocalDivisions(f)
	for changed := true; changed; {
		changed = false
		for _, b := range ReversePostorder(f) {
			for _, v := range b.Values {
				if v.Op == OpConst || v.Op == OpPhi {
					if v.Op == OpPhi {
						if c := samePhiConst(v); c != nil {
							v.Op, v.Args, v.Imm = OpConst, nil, c.Imm
							n++
							changed = true
						}
					}
					continue
				}
				r, ok := EvalConst(v)
				if !ok {
					r, ok = nilTest(v)
				}
				if ok {
					v.Op, v.Args, v.Imm, v.Index = OpConst, nil, r, 0
					n++
					changed = true
				}
			}
			if b.Term == TermBranch && b.Cond.Op == OpConst {
				other := 1 // the arm a true condition does not take
				if b.Cond.Imm&1 == 0 {
					other = 0
				}
				dropEdge(b, other)
				b.Term, b.Cond = TermJump, nil
				n++
				changed = true
			}
		}
		if changed {
			movePhiConsts(f)
			RemoveUnreachable(f)
		}
	}
	if n > 0 {
		RemoveDead(f)
	}
	return n
}

// dropEdge removes b's successor edge i (and the matching predecessor and
// phi arguments of the successor).
func dropEdge(b *Block, i int) {
	s := b.Succs[i]
	b.Succs = append(b.Succs[:i:i], b.Succs[i+1:]...)
	// The i-th edge from b is the j-th pred of s where b occurs as often
	// before j as in b.Succs before i.
	nth := 0
	for k := 0; k < i; k++ {
		if b.Succs[k] == s {
			nth++
		}
	}
	for j, p := range s.Preds {
		if p != b {
			continue
		}
		if nth > 0 {
			nth--
			continue
		}
		s.Preds = append(s.Preds[:j:j], s.Preds[j+1:]...)
		for _, v := range s.Phis() {
			v.Args = append(v.Args[:j:j], v.Args[j+1:]...)
		}
		return
	}
}

// samePhiConst returns the constant every argument of phi v equals (ignoring
// v itself), or nil.
func samePhiConst(v *Value) *Value {
	var c *Value
	for _, a := range v.Args {
		if a == v {
			continue
		}
		if a.Op != OpConst || a.Type != v.Type || (c != nil && c.Imm != a.Imm) {
			return nil
		}
		c = a
	}
	return c
}

// movePhiConsts keeps the invariant that phis come first: a phi folded to a
// constant stays in place, which is fine as a constant has no operands, but
// emitters expect phis as a prefix, so constants among them move behind.
func movePhiConsts(f *Func) {
	for _, b := range f.Blocks {
		var phis, rest []*Value
		moved := false
		for _, v := range b.Values {
			if v.Op == OpPhi {
				if len(rest) > 0 {
					moved = true
				}
				phis = append(phis, v)
			} else {
				rest = append(rest, v)
			}
		}
		if moved {
			b.Values = append(phis, rest...)
		}
	}
}

// norm keeps the bits of a k-kind value in the form the IR uses for
// constants: signed kinds sign-extended, unsigned zero-extended, bool 0/1.
func norm(k Kind, x uint64) uint64 {
	switch k {
	case Bool:
		return x & 1
	case I8:
		return uint64(int64(int8(x)))
	case I16:
		return uint64(int64(int16(x)))
	case I32:
		return uint64(int64(int32(x)))
	case U8:
		return x & 0xFF
	case U16:
		return x & 0xFFFF
	case U32, F32:
		return x & 0xFFFFFFFF
	}
	return x
}

// EvalConst computes v from constant operands, if all its operands are
// constants and the result is defined as the device computes it.
func EvalConst(v *Value) (uint64, bool) {
	if len(v.Args) == 0 || len(v.Args) > 3 {
		return 0, false
	}
	var consts [3]uint64
	for i, a := range v.Args {
		c, ok := constBits(a)
		if !ok {
			return 0, false
		}
		consts[i] = c
	}
	k := v.Type.Kind
	if k == Ptr || k == Void || v.Op == OpBitcast {
		// A bitcast stays: bounds-check elimination recognizes the
		// unsigned comparison u64(i) < u64(len) by its bitcasts, and a
		// bitcast costs nothing; its users fold through it.
		return 0, false
	}
	arg := func(i int) uint64 { return consts[i] }
	switch v.Op {
	case OpAdd, OpSub, OpMul, OpDiv, OpRem:
		if k.IsFloat() {
			if v.Op == OpRem {
				return 0, false
			}
			return floatArith(v.Op, k, arg(0), arg(1)), true
		}
		x, y := arg(0), arg(1)
		switch v.Op {
		case OpAdd:
			return norm(k, x+y), true
		case OpSub:
			return norm(k, x-y), true
		case OpMul:
			return norm(k, x*y), true
		}
		if y == 0 {
			return 0, false
		}
		if k.IsSigned() {
			sx, sy := int64(x), int64(y)
			if sy == -1 {
				return 0, false
			}
			if v.Op == OpDiv {
				return norm(k, uint64(sx/sy)), true
			}
			return norm(k, uint64(sx%sy)), true
		}
		if v.Op == OpDiv {
			return norm(k, x/y), true
		}
		return norm(k, x%y), true
	case OpAnd:
		return norm(k, arg(0)&arg(1)), true
	case OpOr:
		return norm(k, arg(0)|arg(1)), true
	case OpXor:
		return norm(k, arg(0)^arg(1)), true
	case OpAndNot:
		return norm(k, arg(0)&^arg(1)), true
	case OpShl, OpShr:
		if k.IsFloat() {
			return 0, false
		}
		x, c, w := arg(0), arg(1), uint64(k.Bits())
		switch {
		case v.Op == OpShl:
			if c >= w {
				return 0, true
			}
			return norm(k, x<<c), true
		case k.IsSigned():
			return norm(k, uint64(int64(x)>>min(c, 63))), true
		case c >= w:
			return 0, true
		default:
			return norm(k, x>>c), true
		}
	case OpNeg:
		if k.IsFloat() {
			if k == F32 {
				return uint64(math.Float32bits(-math.Float32frombits(uint32(arg(0))))), true
			}
			return math.Float64bits(-math.Float64frombits(arg(0))), true
		}
		return norm(k, -arg(0)), true
	case OpNot:
		if k.IsFloat() {
			return 0, false
		}
		return norm(k, ^arg(0)), true
	case OpFMA:
		if k == F32 {
			a, b, c := math.Float32frombits(uint32(arg(0))), math.Float32frombits(uint32(arg(1))), math.Float32frombits(uint32(arg(2)))
			return uint64(math.Float32bits(math32.FMA(a, b, c))), true // rounded once
		}
		if k == F64 {
			return math.Float64bits(math.FMA(math.Float64frombits(arg(0)), math.Float64frombits(arg(1)), math.Float64frombits(arg(2)))), true
		}
	case OpMulHi:
		if k.Bits() != 64 {
			return 0, false
		}
		hi, _ := bits.Mul64(arg(0), arg(1))
		if k.IsSigned() {
			if int64(arg(0)) < 0 {
				hi -= arg(1)
			}
			if int64(arg(1)) < 0 {
				hi -= arg(0)
			}
		}
		return hi, true
	case OpClz:
		ak := v.Args[0].Type.Kind
		w := ak.Bits()
		return uint64(bits.LeadingZeros64(norm(ak.Unsigned(), arg(0))) - (64 - w)), true
	case OpPopc:
		return uint64(bits.OnesCount64(norm(v.Args[0].Type.Kind.Unsigned(), arg(0)))), true
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return b2u(compareConst(v.Op, v.Args[0].Type.Kind, arg(0), arg(1))), true
	case OpConvert:
		return convertConst(v.Args[0].Type.Kind, k, arg(0))
	case OpBitcast:
		return norm(k, arg(0)), true
	case OpSelect:
		if arg(0)&1 == 1 {
			return arg(1), true
		}
		return arg(2), true
	case OpMath:
		return mathConst(MathFn(v.Index), v)
	}
	return 0, false
}

// constBits returns the bits of a constant, or of a bitcast of one, in the
// IR's normal form for its kind.
func constBits(a *Value) (uint64, bool) {
	// The bitcasts down to the constant, outermost first, each normalizing
	// the bits to its kind (a loop: a chain is as long as the source's).
	var casts []Kind
	for ; a.Op == OpBitcast && a.Type.Kind != Ptr; a = a.Args[0] {
		casts = append(casts, a.Type.Kind)
	}
	if a.Type.Kind == Ptr || a.Op != OpConst {
		return 0, false
	}
	x := norm(a.Type.Kind, a.Imm)
	for i := len(casts) - 1; i >= 0; i-- {
		x = norm(casts[i], x)
	}
	return x, true
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// floatArith is one IEEE operation in k's precision: float32 operations are
// Go's float32 operations (one rounding to float32), not float64 ones.
func floatArith(op Op, k Kind, x, y uint64) uint64 {
	if k == F32 {
		r := arith(op, math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y)))
		return uint64(math.Float32bits(r))
	}
	return math.Float64bits(arith(op, math.Float64frombits(x), math.Float64frombits(y)))
}

// arith is a op b in T's arithmetic, each operation rounded once to T.
func arith[T float32 | float64](op Op, a, b T) T {
	switch op {
	case OpAdd:
		return a + b
	case OpSub:
		return a - b
	case OpMul:
		return a * b
	case OpDiv:
		return a / b
	}
	return 0
}

func toF(k Kind, x uint64) float64 {
	if k == F32 {
		return float64(math.Float32frombits(uint32(x)))
	}
	return math.Float64frombits(x)
}

func fromF(k Kind, f float64) uint64 {
	if k == F32 {
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

func compareConst(op Op, k Kind, x, y uint64) bool {
	var lt, eq, unordered bool
	switch {
	case k.IsFloat():
		fx, fy := toF(k, x), toF(k, y)
		if math.IsNaN(fx) || math.IsNaN(fy) {
			unordered = true
		}
		lt, eq = fx < fy, fx == fy
	case k.IsSigned():
		lt, eq = int64(x) < int64(y), x == y
	default:
		lt, eq = x < y, x == y
	}
	switch op {
	case OpEq:
		return eq
	case OpNe:
		return !eq // true for NaN, as Go says
	case OpLt:
		return lt
	case OpLe:
		return lt || eq
	case OpGt:
		return !unordered && !lt && !eq
	}
	return !unordered && !lt // OpGe
}

// convertConst converts x of kind from to kind to as the device does, or
// reports false where the device's answer is not Go's (float→int of NaN or
// out of range).
func convertConst(from, to Kind, x uint64) (uint64, bool) {
	switch {
	case from == Ptr || to == Ptr:
		return 0, false
	case from.IsInt() || from == Bool:
		if to.IsInt() || to == Bool {
			return norm(to, x), true
		}
		if from.IsSigned() {
			if to == F32 {
				return uint64(math.Float32bits(float32(int64(x)))), true
			}
			return math.Float64bits(float64(int64(x))), true
		}
		if to == F32 {
			return uint64(math.Float32bits(float32(x))), true
		}
		return math.Float64bits(float64(x)), true
	case from.IsFloat() && to.IsFloat():
		return fromF(to, toF(from, x)), true
	case from.IsFloat() && to.IsInt():
		f := math.Trunc(toF(from, x))
		if math.IsNaN(f) {
			return 0, false
		}
		var lo, hi float64
		if to.IsSigned() {
			lo, hi = -math.Ldexp(1, to.Bits()-1), math.Ldexp(1, to.Bits()-1)
		} else {
			lo, hi = 0, math.Ldexp(1, to.Bits())
		}
		if f < lo || f >= hi {
			return 0, false
		}
		if to.IsSigned() {
			return norm(to, uint64(int64(f))), true
		}
		return norm(to, uint64(f)), true
	}
	return 0, false
}

// mathConst folds the math functions that are exact (correctly rounded or
// exact by definition) on the device and in Go.
func mathConst(fn MathFn, v *Value) (uint64, bool) {
	k := v.Type.Kind
	if !k.IsFloat() {
		return 0, false
	}
	x0, _ := constBits(v.Args[0])
	x := toF(k, x0)
	var r float64
	switch fn {
	case MathSqrt:
		r = math.Sqrt(x) // correctly rounded, also after rounding to float32
	case MathAbs:
		r = math.Abs(x)
	case MathFloor:
		r = math.Floor(x)
	case MathCeil:
		r = math.Ceil(x)
	case MathTrunc:
		r = math.Trunc(x)
	case MathCopysign:
		y, _ := constBits(v.Args[1])
		r = math.Copysign(x, toF(k, y))
	default:
		return 0, false
	}
	return fromF(k, r), true
}

// reciprocalDivisions turns a float division by a constant power of two
// whose reciprocal is a normal number into a multiplication by that
// reciprocal: x/16 is x*0.0625 for every x (both are the correctly
// rounded value of one real number), and a multiplication is one
// instruction where a division is a dozen and a branch on the GPU. The
// product is marked NoFuse, as the quotient could not be fused either.
// Reciprocals that are subnormal stay divisions: a device that flushes
// subnormal operands (Vulkan without denormal preservation) would read
// them as zero.
func reciprocalDivisions(f *Func) int {
	n := 0
	for _, b := range f.Blocks {
		var out []*Value
		for _, v := range b.Values {
			if v.Op == OpDiv && v.Type.Kind.IsFloat() && v.Args[1].Op == OpConst {
				if r, ok := exactReciprocal(v.Type.Kind, v.Args[1].Imm); ok {
					c := &Value{ID: f.nextID, Op: OpConst, Type: v.Type, Imm: r, Block: b, Pos: v.Pos}
					f.nextID++
					out = append(out, c)
					v.Op, v.Args, v.NoFuse = OpMul, []*Value{v.Args[0], c}, true
					n++
				}
			}
			out = append(out, v)
		}
		b.Values = out
	}
	return n
}

// exactReciprocal returns the bits of 1/c when c (the bits of a float of
// kind k) is a power of two whose reciprocal is a normal number.
func exactReciprocal(k Kind, c uint64) (uint64, bool) {
	fracBits, expBits := 52, 11
	if k == F32 {
		fracBits, expBits = 23, 8
	}
	frac := c & (1<<fracBits - 1)
	exp := int(c>>fracBits) & (1<<expBits - 1)
	bias := 1<<(expBits-1) - 1
	// c = ±2^(exp-bias), normal; 1/c = ±2^(bias-exp) is normal when
	// bias-exp >= 1-bias.
	if frac != 0 || exp == 0 || exp == 1<<expBits-1 || bias-exp < 1-bias {
		return 0, false
	}
	return c&(1<<(fracBits+expBits)) | uint64(2*bias-exp)<<fracBits, true
}
