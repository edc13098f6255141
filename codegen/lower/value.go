package lower

import (
	"go/constant"
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// value returns the leaves of an SSA value of the current frame.
func (b *builder) value(v ssa.Value) []*kir.Value {
	switch v := v.(type) {
	case *ssa.Const:
		return b.constant(v)
	case *ssa.Function:
		b.fail(b.at, "function values cannot be used in kernels")
	case *ssa.Global:
		b.fail(b.at, "package-level variable %s cannot be used in kernels", v.Name())
	}
	if ls, ok := b.frame.vals[v]; ok {
		return ls
	}
	b.fail(v.Pos(), "internal error: %s (%T) used before it was lowered", v.Name(), v)
	return nil
}

// expr lowers an SSA instruction that yields a value.
func (b *builder) expr(v ssa.Value) []*kir.Value {
	switch v := v.(type) {
	case *ssa.BinOp:
		return b.binOp(v)
	case *ssa.UnOp:
		return b.unOp(v)
	case *ssa.Convert:
		return []*kir.Value{b.convert(b.value(v.X)[0], v.X.Type(), v.Type(), v.Pos())}
	case *ssa.ChangeType:
		return b.value(v.X)
	case *ssa.Alloc:
		return []*kir.Value{b.alloc(v)}
	case *ssa.FieldAddr:
		return []*kir.Value{b.fieldAddr(v)}
	case *ssa.Field:
		return b.field(v)
	case *ssa.IndexAddr:
		return []*kir.Value{b.indexAddr(v)}
	case *ssa.Index:
		return b.index(v)
	case *ssa.Slice:
		return b.slice(v)
	case *ssa.SliceToArrayPointer:
		return b.sliceToArrayPointer(v)
	case *ssa.Call:
		return b.call(v)
	case *ssa.Extract:
		return b.extract(v)
	case *ssa.Range:
		if s, ok := constString(v.X); ok {
			return b.stringRange(s)
		}
	case *ssa.Next:
		if _, ok := v.Iter.(*ssa.Range); ok && v.IsString {
			return b.stringNext(v)
		}
	}
	b.fail(v.Pos(), "%s cannot be used in kernels", describe(v))
	return nil
}

func describe(v ssa.Value) string {
	switch v.(type) {
	case *ssa.MakeInterface, *ssa.TypeAssert, *ssa.ChangeInterface:
		return "interfaces"
	case *ssa.MakeClosure:
		return "closures"
	case *ssa.MakeMap:
		return "maps"
	case *ssa.Lookup:
		if _, ok := v.(*ssa.Lookup).X.Type().Underlying().(*types.Map); ok {
			return "maps"
		}
		return "strings"
	case *ssa.Next, *ssa.Range:
		return "range over maps and strings other than constants"
	case *ssa.MakeChan, *ssa.Select:
		return "channels"
	case *ssa.MakeSlice:
		return "make"
	}
	return "this construct"
}

// extract picks result Index of a multi-result call.
func (b *builder) extract(v *ssa.Extract) []*kir.Value {
	all := b.value(v.Tuple)
	tup := v.Tuple.Type().(*types.Tuple)
	start := 0
	for i := 0; i < v.Index; i++ {
		if !invalid(tup.At(i).Type()) {
			start += len(b.layout(tup.At(i).Type()))
		}
	}
	return all[start : start+len(b.layout(tup.At(v.Index).Type()))]
}

// constant lowers a constant of any type to leaves.
func (b *builder) constant(c *ssa.Const) []*kir.Value {
	t := c.Type()
	if c.Value == nil {
		return b.zero(t)
	}
	k := b.basicKind(t)
	return []*kir.Value{b.konst(kir.Type{Kind: k}, constBits(k, c.Value))}
}

func constBits(k kir.Kind, v constant.Value) uint64 {
	switch {
	case k == kir.Bool:
		if constant.BoolVal(v) {
			return 1
		}
		return 0
	case k == kir.F32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return uint64(math.Float32bits(f))
	case k == kir.F64:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return math.Float64bits(f)
	case k.IsSigned():
		n, _ := constant.Int64Val(constant.ToInt(v))
		return uint64(n)
	default:
		n, ok := constant.Uint64Val(constant.ToInt(v))
		if !ok {
			i, _ := constant.Int64Val(constant.ToInt(v))
			n = uint64(i)
		}
		return n
	}
}

// zero returns the leaves of t's zero value.
func (b *builder) zero(t types.Type) []*kir.Value {
	var out []*kir.Value
	for _, l := range b.layout(t) {
		ty := kir.Type{Kind: l.kind}
		out = append(out, b.konst(ty, 0))
	}
	return out
}

func (b *builder) zeroLeaves(t *types.Tuple) []*kir.Value {
	if t == nil {
		return nil
	}
	return b.zero(t)
}
