package spirv_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/codegen/spirv"
)

// fuseOperands are the float parameters a fusion case computes with.
type fuseOperands struct {
	f          *kir.Func
	b          *kir.Block
	x, y, z, w *kir.Value
}

func (o fuseOperands) op(op kir.Op, args ...*kir.Value) *kir.Value {
	return o.f.NewValue(o.b, op, args[0].Type, args...)
}

// fuseKernel is a kernel storing what build computes from four float
// parameters of kind k.
func fuseKernel(k kir.Kind, build func(o fuseOperands) []*kir.Value) *kir.Module {
	t := kir.Type{Kind: k}
	f := &kir.Func{Name: "fuse", Params: []kir.Param{{Name: "p", Type: kir.PtrTo(kir.Global)},
		{Name: "x", Type: t}, {Name: "y", Type: t}, {Name: "z", Type: t}, {Name: "w", Type: t}}}
	b := f.NewBlock(kir.BlockPlain, "entry")
	p := f.NewValue(b, kir.OpParam, kir.PtrTo(kir.Global))
	o := fuseOperands{f: f, b: b}
	for i, v := range []**kir.Value{&o.x, &o.y, &o.z, &o.w} {
		*v = f.NewValue(b, kir.OpParam, t)
		(*v).Index = i + 1
	}
	for i, v := range build(o) {
		q := f.NewValue(b, kir.OpPtrAdd, p.Type, p, f.NewConst(b, kir.TI64, uint64(8*i)))
		f.NewValue(b, kir.OpStore, kir.Type{}, q, v)
	}
	b.Return()
	return &kir.Module{Funcs: []*kir.Func{f}}
}

// TestFusedMultiplyAdd: a contractible sum whose product only it uses is
// one GLSL.std.450 Fma, negations on the right operands; a product an
// explicit conversion rounds, one used twice, and one with a constant
// zero operand stay apart. Both float widths; every module passes
// spirv-val.
func TestFusedMultiplyAdd(t *testing.T) {
	cases := []struct {
		name  string
		build func(o fuseOperands) []*kir.Value
		// fma is how many Fma; neg, for each, which of its operands
		// is negated ("x" the product's first, "z" the addend);
		// plain is how many OpFMul, OpFAdd and OpFSub are left.
		fma   int
		neg   string
		plain int
	}{
		{"x*y+z", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpAdd, o.op(kir.OpMul, o.x, o.y), o.z)}
		}, 1, "", 0},
		{"z+x*y", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpAdd, o.z, o.op(kir.OpMul, o.x, o.y))}
		}, 1, "", 0},
		{"x*y-z", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpSub, o.op(kir.OpMul, o.x, o.y), o.z)}
		}, 1, "z", 0},
		{"z-x*y", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpSub, o.z, o.op(kir.OpMul, o.x, o.y))}
		}, 1, "x", 0},
		{"-(x*y)+z", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpAdd, o.op(kir.OpNeg, o.op(kir.OpMul, o.x, o.y)), o.z)}
		}, 1, "x", 0},
		{"-(x*y)-z", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpSub, o.op(kir.OpNeg, o.op(kir.OpMul, o.x, o.y)), o.z)}
		}, 1, "xz", 0},
		{"z-(-(x*y))", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpSub, o.z, o.op(kir.OpNeg, o.op(kir.OpMul, o.x, o.y)))}
		}, 1, "", 0},
		{"x*y+z*w", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpAdd, o.op(kir.OpMul, o.x, o.y), o.op(kir.OpMul, o.z, o.w))}
		}, 1, "", 1},
		{"(x*y+z)*w+x", func(o fuseOperands) []*kir.Value {
			inner := o.op(kir.OpAdd, o.op(kir.OpMul, o.x, o.y), o.z)
			return []*kir.Value{o.op(kir.OpAdd, o.op(kir.OpMul, inner, o.w), o.x)}
		}, 2, "", 0},
		{"float(x*y)+z", func(o fuseOperands) []*kir.Value {
			p := o.op(kir.OpMul, o.x, o.y)
			p.NoFuse = true
			return []*kir.Value{o.op(kir.OpAdd, p, o.z)}
		}, 0, "", 2},
		{"p:=x*y; p+z, p", func(o fuseOperands) []*kir.Value {
			p := o.op(kir.OpMul, o.x, o.y)
			return []*kir.Value{o.op(kir.OpAdd, p, o.z), p}
		}, 0, "", 2},
		{"p:=x*y; p+z, p+w", func(o fuseOperands) []*kir.Value {
			p := o.op(kir.OpMul, o.x, o.y)
			return []*kir.Value{o.op(kir.OpAdd, p, o.z), o.op(kir.OpAdd, p, o.w)}
		}, 0, "", 3},
		{"n:=-(x*y); n+z, n", func(o fuseOperands) []*kir.Value {
			n := o.op(kir.OpNeg, o.op(kir.OpMul, o.x, o.y))
			return []*kir.Value{o.op(kir.OpAdd, n, o.z), n}
		}, 0, "", 2},
		{"x*y+0", func(o fuseOperands) []*kir.Value {
			return []*kir.Value{o.op(kir.OpAdd, o.op(kir.OpMul, o.x, o.y), o.f.NewConst(o.b, o.x.Type, 0))}
		}, 0, "", 1},
	}
	for _, k := range []kir.Kind{kir.F32, kir.F64} {
		for _, c := range cases {
			name := fmt.Sprintf("%s/%v", c.name, k)
			res, err := spirv.Emit(fuseKernel(k, c.build), spirv.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for entry, err := range res.Failed {
				t.Fatalf("%s: %s not emitted: %v", name, entry, err)
			}
			validate(t, "fuse", res.Binary)
			text := disassemble(t, "fuse", res.Binary)
			checkFusions(t, name, text, c.fma, c.neg, c.plain)
		}
	}
}

// checkFusions checks the Fma, negations and plain float arithmetic of a
// disassembled module.
func checkFusions(t *testing.T, name, text string, fma int, neg string, plain int) {
	t.Helper()
	negated := map[string]bool{}
	for _, m := range regexp.MustCompile(`(%\d+) = OpFNegate %\d+ %\d+`).FindAllStringSubmatch(text, -1) {
		negated[m[1]] = true
	}
	fmas := regexp.MustCompile(`= OpExtInst %\d+ %\d+ Fma (%\d+) %\d+ (%\d+)`).FindAllStringSubmatch(text, -1)
	if len(fmas) != fma {
		t.Errorf("%s: %d Fma, want %d in\n%s", name, len(fmas), fma, text)
		return
	}
	if fma > 0 {
		got := ""
		if negated[fmas[0][1]] {
			got += "x"
		}
		if negated[fmas[0][2]] {
			got += "z"
		}
		if got != neg {
			t.Errorf("%s: Fma negates %q, want %q in\n%s", name, got, neg, text)
		}
	}
	if n := len(regexp.MustCompile(`OpF(Mul|Add|Sub) `).FindAllString(text, -1)); n != plain {
		t.Errorf("%s: %d plain float operations, want %d in\n%s", name, n, plain, text)
	}
}
