package llvm

import (
	"regexp"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// convFunc builds a kernel storing int32(f) and x << c through a pointer.
func convFunc() *kir.Module {
	f := &kir.Func{Name: "conv", Params: []kir.Param{
		{Name: "p", Type: kir.PtrTo(kir.Global)},
		{Name: "f", Type: kir.TF64},
		{Name: "c", Type: kir.TU32},
	}}
	b := f.NewBlock(kir.BlockPlain, "entry")
	p := f.NewValue(b, kir.OpParam, kir.PtrTo(kir.Global))
	x := f.NewValue(b, kir.OpParam, kir.TF64)
	x.Index = 1
	c := f.NewValue(b, kir.OpParam, kir.TU32)
	c.Index = 2
	i := f.NewValue(b, kir.OpConvert, kir.TI32, x)
	s := f.NewValue(b, kir.OpShl, kir.TI32, i, c)
	f.NewValue(b, kir.OpStore, kir.Type{}, p, s)
	b.Return()
	return &kir.Module{Funcs: []*kir.Func{f}}
}

func TestEmitGoSemantics(t *testing.T) {
	for _, target := range []string{"amdgcn", "nvptx"} {
		text, err := Emit(convFunc(), Options{Target: target})
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range []string{
			`call i32 @llvm\.fptosi\.sat\.i32\.f64\(double %v\d+\)`, // saturating, never poison
			`icmp uge i32 %v\d+, 32`,                                // shift counts >= width
			`select i1 %t\d+, i32 0, i32 %t\d+`,                     // give 0
			`cmpxchg`,                                               // (none here: no trap)
		}[:3] {
			if !regexp.MustCompile(re).MatchString(text) {
				t.Errorf("%s: no match for %s in\n%s", target, re, text)
			}
		}
	}
	amd, _ := Emit(convFunc(), Options{Target: "amdgcn"})
	if !regexp.MustCompile(`define amdgpu_kernel void @conv\(ptr addrspace\(1\) %p0, double %p1, i32 %p2, ptr addrspace\(1\) noalias %trap\)`).MatchString(amd) {
		t.Errorf("amdgcn signature:\n%s", amd)
	}
	nv, _ := Emit(convFunc(), Options{Target: "nvptx"})
	if !regexp.MustCompile(`!nvvm\.annotations = !\{!0\}\n!0 = !\{ptr @conv, !"kernel", i32 1\}`).MatchString(nv) {
		t.Errorf("nvptx kernel annotation:\n%s", nv)
	}
}
