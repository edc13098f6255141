package lower

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

var binOps = map[token.Token]kir.Op{
	token.ADD: kir.OpAdd, token.SUB: kir.OpSub, token.MUL: kir.OpMul, token.QUO: kir.OpDiv,
	token.REM: kir.OpRem, token.AND: kir.OpAnd, token.OR: kir.OpOr, token.XOR: kir.OpXor,
	token.AND_NOT: kir.OpAndNot, token.SHL: kir.OpShl, token.SHR: kir.OpShr,
	token.EQL: kir.OpEq, token.NEQ: kir.OpNe, token.LSS: kir.OpLt, token.LEQ: kir.OpLe,
	token.GTR: kir.OpGt, token.GEQ: kir.OpGe,
}

func (b *builder) binOp(v *ssa.BinOp) []*kir.Value {
	op, ok := binOps[v.Op]
	if !ok {
		b.fail(v.Pos(), "operator %s cannot be used in kernels", v.Op)
	}
	x, y := b.value(v.X), b.value(v.Y)
	if op == kir.OpEq || op == kir.OpNe {
		return []*kir.Value{b.equal(op, x, y)}
	}
	if op.IsCompare() {
		return []*kir.Value{b.val(op, kir.TBool, x[0], y[0])}
	}
	if isString(v.X.Type()) {
		b.fail(v.Pos(), "strings cannot be used in kernels")
	}
	return []*kir.Value{b.arith(op, x[0], y[0], v.Pos(), b.env.NoFuse[v.Pos()])}
}

func isString(t types.Type) bool {
	u, ok := t.Underlying().(*types.Basic)
	return ok && u.Info()&types.IsString != 0
}

// equal compares two values leaf by leaf (structs and arrays compare all
// their fields).
func (b *builder) equal(op kir.Op, x, y []*kir.Value) *kir.Value {
	var acc *kir.Value
	for i := range x {
		xi, yi := x[i], y[i]
		if xi.Type.Kind == kir.Ptr {
			// Compare generic addresses, whatever the spaces are now
			// (they may settle later, see settleSpaces).
			xi = b.val(kir.OpConvert, kir.PtrTo(kir.Generic), xi)
			yi = b.val(kir.OpConvert, kir.PtrTo(kir.Generic), yi)
		}
		e := b.val(kir.OpEq, kir.TBool, xi, yi)
		if acc == nil {
			acc = e
		} else {
			acc = b.val(kir.OpAnd, kir.TBool, acc, e)
		}
	}
	if acc == nil {
		acc = b.boolConst(true)
	}
	if op == kir.OpNe {
		acc = b.val(kir.OpNot, kir.TBool, acc)
	}
	return acc
}

// arith lowers x op y with Go's run-time checks: integer division by zero
// and negative shift counts trap, MinInt / -1 wraps.
func (b *builder) arith(op kir.Op, x, y *kir.Value, pos token.Pos, noFuse bool) *kir.Value {
	t := x.Type
	switch op {
	case kir.OpShl, kir.OpShr:
		count := y
		if count.Type.Kind.IsSigned() {
			if !(count.Op == kir.OpConst && count.Int() >= 0) {
				zero := b.konst(count.Type, 0)
				b.check(b.val(kir.OpGe, kir.TBool, count, zero), gpuabi.TrapShift, pos, nil, nil)
			}
			count = b.val(kir.OpBitcast, kir.Type{Kind: count.Type.Kind.Unsigned()}, count)
		}
		return b.val(op, t, x, count)
	case kir.OpDiv, kir.OpRem:
		if !t.Kind.IsInt() {
			break
		}
		if !(y.Op == kir.OpConst && y.Imm != 0) {
			zero := b.konst(t, 0)
			b.check(b.val(kir.OpNe, kir.TBool, y, zero), gpuabi.TrapDivide, pos, nil, nil)
		}
		if t.Kind.IsSigned() && !(y.Op == kir.OpConst && y.Int() != -1) {
			// x / -1 is -x (MinInt / -1 wraps to MinInt) and x % -1 is 0,
			// which the hardware need not give: divide by 1 instead.
			minus1 := b.konst(t, ^uint64(0))
			isM1 := b.val(kir.OpEq, kir.TBool, y, minus1)
			safe := b.val(kir.OpSelect, t, isM1, b.konst(t, 1), y)
			q := b.val(op, t, x, safe)
			var alt *kir.Value
			if op == kir.OpDiv {
				alt = b.val(kir.OpNeg, t, x)
			} else {
				alt = b.konst(t, 0)
			}
			return b.val(kir.OpSelect, t, isM1, alt, q)
		}
	}
	r := b.val(op, t, x, y)
	if noFuse && t.Kind.IsFloat() {
		r.NoFuse = true
	}
	return r
}

func (b *builder) unOp(v *ssa.UnOp) []*kir.Value {
	switch v.Op {
	case token.MUL:
		p := b.value(v.X)[0]
		b.nilCheck(v.X, p, v.Pos())
		return b.load(p, v.Type(), v.Pos())
	case token.SUB:
		x := b.value(v.X)[0]
		return []*kir.Value{b.val(kir.OpNeg, x.Type, x)}
	case token.XOR, token.NOT:
		x := b.value(v.X)[0]
		return []*kir.Value{b.val(kir.OpNot, x.Type, x)}
	}
	b.fail(v.Pos(), "operator %s cannot be used in kernels", v.Op)
	return nil
}
