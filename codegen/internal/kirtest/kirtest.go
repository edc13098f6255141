// Package kirtest builds kernel-IR modules that the emitters' tests share,
// so that the PTX and SPIR-V emitters are checked on the same kernel.
package kirtest

import (
	"math"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// FloatForms builds a kernel of float32 x, a, y that stores, each to its
// own element (so that none is dead), (x*0.5)*2, a*x+y, float32(a*y)+x
// (NoFuse) and x-y; with compares, then the selects of x and y on each
// comparison of them and min(x, y).
func FloatForms(compares bool) *kir.Module {
	t := kir.Type{Kind: kir.F32}
	f := &kir.Func{Name: "floats", Params: []kir.Param{{Name: "p", Type: kir.PtrTo(kir.Global)},
		{Name: "x", Type: t}, {Name: "a", Type: t}, {Name: "y", Type: t}}}
	b := f.NewBlock(kir.BlockPlain, "entry")
	p := f.NewValue(b, kir.OpParam, kir.PtrTo(kir.Global))
	var x, a, y *kir.Value
	for i, v := range []**kir.Value{&x, &a, &y} {
		*v = f.NewValue(b, kir.OpParam, t)
		(*v).Index = i + 1
	}
	n := 0
	store := func(v *kir.Value) {
		q := f.NewValue(b, kir.OpPtrAdd, p.Type, p, f.NewConst(b, kir.TI64, uint64(4*n)))
		f.NewValue(b, kir.OpStore, kir.Type{}, q, v)
		n++
	}
	half := f.NewConst(b, t, uint64(math.Float32bits(0.5)))
	two := f.NewConst(b, t, uint64(math.Float32bits(2)))
	store(f.NewValue(b, kir.OpMul, t, f.NewValue(b, kir.OpMul, t, x, half), two))
	store(f.NewValue(b, kir.OpAdd, t, f.NewValue(b, kir.OpMul, t, a, x), y))
	rounded := f.NewValue(b, kir.OpMul, t, a, y)
	rounded.NoFuse = true
	store(f.NewValue(b, kir.OpAdd, t, rounded, x))
	store(f.NewValue(b, kir.OpSub, t, x, y))
	if compares {
		for op := kir.OpEq; op <= kir.OpGe; op++ {
			store(f.NewValue(b, kir.OpSelect, t, f.NewValue(b, op, kir.TBool, x, y), x, y))
		}
		m := f.NewValue(b, kir.OpMath, t, x, y)
		m.Index = int(kir.MathMin)
		store(m)
	}
	b.Return()
	return &kir.Module{Funcs: []*kir.Func{f}}
}
