package ptx

import (
	"regexp"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// shiftFunc builds a kernel computing int8(x << c) and int64(x) >> c for
// an int8 x and a uint64 count c, storing both through a global pointer.
func shiftFunc() *kir.Module {
	f := &kir.Func{Name: "shifts", Params: []kir.Param{
		{Name: "p", Type: kir.PtrTo(kir.Global)},
		{Name: "x", Type: kir.Type{Kind: kir.I8}},
		{Name: "c", Type: kir.TU64},
	}, Block: [3]int{64, 1, 1}}
	b := f.NewBlock(kir.BlockPlain, "entry")
	p := f.NewValue(b, kir.OpParam, kir.PtrTo(kir.Global))
	x := f.NewValue(b, kir.OpParam, kir.Type{Kind: kir.I8})
	x.Index = 1
	c := f.NewValue(b, kir.OpParam, kir.TU64)
	c.Index = 2
	shl := f.NewValue(b, kir.OpShl, kir.Type{Kind: kir.I8}, x, c)
	f.NewValue(b, kir.OpStore, kir.Type{}, p, shl)
	wide := f.NewValue(b, kir.OpConvert, kir.TI64, x)
	shr := f.NewValue(b, kir.OpShr, kir.TI64, wide, c)
	eight := f.NewValue(b, kir.OpConst, kir.TI64)
	eight.Imm = 8
	q := f.NewValue(b, kir.OpPtrAdd, kir.PtrTo(kir.Global), p, eight)
	f.NewValue(b, kir.OpStore, kir.Type{}, q, shr)
	b.Return()
	return &kir.Module{Funcs: []*kir.Func{f}}
}

func TestEmitShifts(t *testing.T) {
	m := shiftFunc()
	if err := kir.Verify(m.Funcs[0]); err != nil {
		t.Fatal(err)
	}
	text, err := Emit(m, Options{Arch: "sm_90"})
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{
		`\.target sm_90`,
		`\.reqntid 64, 1, 1`,
		`\.param \.s8 shifts_param_1`,
		`ld\.param\.s8 %r\d+, \[shifts_param_1\]`,
		`min\.u64 %rd\d+, %rd\d+, 64`,                                   // a 64-bit count is clamped before it is narrowed
		`shl\.b32 %r(\d+), %r\d+, %r\d+;\n\tcvt\.s32\.s8 %r\d+, %r\d+;`, // int8 result re-extended
		`shr\.s64`,
		`st\.global\.s8`,
		`ld\.param\.u64 %trap`,
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("no match for %s in\n%s", re, text)
		}
	}
}

// TestEmitShiftsAssembles runs ptxas on the module when it is installed.
func TestEmitShiftsAssembles(t *testing.T) {
	text, err := Emit(shiftFunc(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	assemble(t, text)
}
