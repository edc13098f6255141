package lower

import (
	"go/token"
	"go/types"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// convert lowers the Go conversion of x from type from to type to: integer
// truncation and extension by the source's signedness, int↔float with Go's
// rounding (float→int truncates toward zero and never traps: out-of-range
// results are implementation-defined, as the spec allows), float widening
// and narrowing.
func (b *builder) convert(x *kir.Value, from, to types.Type, pos token.Pos) *kir.Value {
	if _, ok := to.Underlying().(*types.Pointer); ok {
		if _, ok := from.Underlying().(*types.Pointer); ok {
			return x
		}
		b.fail(pos, "conversion from %s to %s cannot be used in kernels", from, to)
	}
	if isString(to) || isString(from) {
		b.fail(pos, "strings cannot be used in kernels")
	}
	if bt, ok := to.Underlying().(*types.Basic); ok && bt.Kind() == types.UnsafePointer {
		b.fail(pos, "unsafe.Pointer cannot be used in kernels")
	}
	k := b.basicKind(to)
	if k == x.Type.Kind {
		return x
	}
	// float32(math.FMA(float64(x), float64(y), float64(z))) is the float32
	// FMA (up to rare double rounding on the CPU).
	if k == kir.F32 && x.Op == kir.OpFMA {
		if args := narrowArgs(x); args != nil {
			return b.val(kir.OpFMA, kir.TF32, args...)
		}
	}
	// float32(math.F(float64(x))) for an exactly rounded F is F in float32.
	if k == kir.F32 && x.Op == kir.OpMath && exactInF32[kir.MathFn(x.Index)] {
		var args []*kir.Value
		for _, a := range x.Args {
			if a.Op != kir.OpConvert || a.Args[0].Type.Kind != kir.F32 {
				args = nil
				break
			}
			args = append(args, a.Args[0])
		}
		if args != nil {
			return b.math(kir.MathFn(x.Index), kir.TF32, args...)
		}
	}
	return b.val(kir.OpConvert, kir.Type{Kind: k}, x)
}

// exactInF32 are the functions whose float64 result, rounded to float32, is
// the float32 function of the same float32 arguments.
var exactInF32 = map[kir.MathFn]bool{kir.MathSqrt: true, kir.MathAbs: true, kir.MathFloor: true,
	kir.MathCeil: true, kir.MathTrunc: true, kir.MathCopysign: true, kir.MathMin: true, kir.MathMax: true}

// narrowArgs returns the float32 values that x's float64 arguments widen,
// or nil if one is not a widened float32.
func narrowArgs(x *kir.Value) []*kir.Value {
	var args []*kir.Value
	for _, a := range x.Args {
		if a.Op != kir.OpConvert || a.Args[0].Type.Kind != kir.F32 {
			return nil
		}
		args = append(args, a.Args[0])
	}
	return args
}
