package spirv_test

import (
	"math"
	"regexp"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/codegen/spirv"
)

// contractFunc builds a kernel of float32 x, a, y storing (x*0.5)*2,
// a*x+y, float32(a*y)+x (NoFuse) and x-y, in that order.
func contractFunc() *kir.Module {
	t := kir.Type{Kind: kir.F32}
	f := &kir.Func{Name: "contract", Params: []kir.Param{{Name: "p", Type: kir.PtrTo(kir.Global)},
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
	b.Return()
	return &kir.Module{Funcs: []*kir.Func{f}}
}

// TestNoContraction: as on PTX (kir.Contractible), only a product feeding
// a sum, and that sum, are left free to fuse into an FMA; every other
// float operation is NoContraction, so that no driver folds (x*0.5)*2
// into x (0 in Go for the smallest subnormal x) or fuses a product an
// explicit conversion rounds.
func TestNoContraction(t *testing.T) {
	res, err := spirv.Emit(contractFunc(), spirv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for entry, err := range res.Failed {
		t.Fatalf("%s not emitted: %v", entry, err)
	}
	validate(t, "contract", res.Binary)
	text := disassemble(t, "contract", res.Binary)
	decorated := map[string]bool{}
	for _, m := range regexp.MustCompile(`OpDecorate (%\d+) NoContraction`).FindAllStringSubmatch(text, -1) {
		decorated[m[1]] = true
	}
	var got []bool
	var ops []string
	for _, m := range regexp.MustCompile(`(%\d+) = (OpF(?:Mul|Add|Sub)) `).FindAllStringSubmatch(text, -1) {
		got = append(got, decorated[m[1]])
		ops = append(ops, m[2])
	}
	// x*0.5, (.)*2, a*x, +y, a*y (rounded), +x, x-y.
	want := []bool{true, true, false, false, true, true, true}
	if len(got) != len(want) {
		t.Fatalf("want %d float operations, got %v in\n%s", len(want), ops, text)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("operation %d (%s): NoContraction %v, want %v", i, ops[i], got[i], want[i])
		}
	}
}
