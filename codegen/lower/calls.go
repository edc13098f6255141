package lower

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// call lowers a static call: a builtin, an intrinsic of package gpu or
// math, or a device function, which is inlined.
func (b *builder) call(v *ssa.Call) []*kir.Value {
	c := v.Common()
	if c.IsInvoke() {
		b.fail(v.Pos(), "interface method calls cannot be used in kernels")
	}
	switch fn := c.Value.(type) {
	case *ssa.Builtin:
		return b.builtin(fn.Name(), c.Args, v)
	case *ssa.Function:
		if r, ok := b.intrinsic(fn, c.Args, v); ok {
			return r
		}
		var args [][]*kir.Value
		for _, a := range c.Args {
			args = append(args, b.value(a))
		}
		return b.inline(fn, args, v.Pos())
	}
	b.fail(v.Pos(), "calls of function values cannot be used in kernels")
	return nil
}

// builtin lowers len, cap, min, max, copy and clear.
func (b *builder) builtin(name string, args []ssa.Value, v *ssa.Call) []*kir.Value {
	switch name {
	case "len", "cap":
		x := b.value(args[0])
		switch t := args[0].Type().Underlying().(type) {
		case *types.Slice:
			if name == "len" {
				return x[1:2]
			}
			return x[2:3]
		case *types.Pointer:
			if at, ok := t.Elem().Underlying().(*types.Array); ok {
				return []*kir.Value{b.i64(at.Len())}
			}
		case *types.Array:
			return []*kir.Value{b.i64(t.Len())}
		}
		b.fail(v.Pos(), "%s of %s cannot be used in kernels", name, args[0].Type())
	case "min", "max":
		acc := b.value(args[0])[0]
		for _, a := range args[1:] {
			y := b.value(a)[0]
			acc = b.minMax(name == "min", acc, y)
		}
		return []*kir.Value{acc}
	case "ssa:wrapnilchk":
		return b.value(args[0])
	case "copy":
		return b.copySlice(args, v)
	case "clear":
		return b.clearSlice(args, v)
	}
	b.fail(v.Pos(), "builtin %s cannot be used in kernels", name)
	return nil
}

// minMax is Go's min or max of two values of one type: for floats, NaN if
// either is NaN and -0 below +0.
func (b *builder) minMax(isMin bool, x, y *kir.Value) *kir.Value {
	if x.Type.Kind.IsFloat() {
		fn := kir.MathMax
		if isMin {
			fn = kir.MathMin
		}
		return b.math(fn, x.Type, x, y)
	}
	op := kir.OpGt
	if isMin {
		op = kir.OpLt
	}
	return b.val(kir.OpSelect, x.Type, b.val(op, kir.TBool, y, x), y, x)
}

func (b *builder) math(fn kir.MathFn, t kir.Type, args ...*kir.Value) *kir.Value {
	r := b.val(kir.OpMath, t, args...)
	r.Index = int(fn)
	return r
}

// funcID names a function for the intrinsic tables: "path.Name" or
// "path.Recv.Name" for methods, of the generic origin.
func funcID(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return ""
	}
	id := obj.Pkg().Path() + "."
	if recv := obj.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			id += n.Obj().Name() + "."
		}
	}
	return id + obj.Name()
}
