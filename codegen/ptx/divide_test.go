package ptx

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// divFunc builds a kernel storing x/8 and x%8 for an int64 x, y/4 and
// y%4 for a uint64 y, z/16 and z%16 for an int32 z, and u/2 for a uint32
// u widened to int64, each through a global pointer.
func divFunc() *kir.Module {
	f := &kir.Func{Name: "divs", Params: []kir.Param{
		{Name: "p", Type: kir.PtrTo(kir.Global)},
		{Name: "x", Type: kir.TI64}, {Name: "y", Type: kir.TU64},
		{Name: "z", Type: kir.TI32}, {Name: "u", Type: kir.TU32},
	}, Block: [3]int{64, 1, 1}}
	b := f.NewBlock(kir.BlockPlain, "entry")
	p := f.NewValue(b, kir.OpParam, kir.PtrTo(kir.Global))
	param := func(i int, t kir.Type) *kir.Value {
		v := f.NewValue(b, kir.OpParam, t)
		v.Index = i
		return v
	}
	x, y, z, u := param(1, kir.TI64), param(2, kir.TU64), param(3, kir.TI32), param(4, kir.TU32)
	off := int64(0)
	store := func(v *kir.Value) {
		q := f.NewValue(b, kir.OpPtrAdd, kir.PtrTo(kir.Global), p, f.NewConst(b, kir.TI64, uint64(off)))
		f.NewValue(b, kir.OpStore, kir.Type{}, q, v)
		off += 8
	}
	for _, a := range []struct {
		v *kir.Value
		c uint64
	}{{x, 8}, {y, 4}, {z, 16}} {
		c := f.NewConst(b, a.v.Type, a.c)
		store(f.NewValue(b, kir.OpDiv, a.v.Type, a.v, c))
		store(f.NewValue(b, kir.OpRem, a.v.Type, a.v, c))
	}
	wide := f.NewValue(b, kir.OpConvert, kir.TI64, u)
	store(f.NewValue(b, kir.OpDiv, kir.TI64, wide, f.NewConst(b, kir.TI64, 2)))
	b.Return()
	return &kir.Module{Funcs: []*kir.Func{f}}
}

// TestEmitDivPow2 checks that divisions and remainders by constant powers
// of two become shifts and masks (no div or rem for ptxas to call a
// routine for), with the bias only where the dividend may be negative,
// and that ptxas accepts them where it is installed.
func TestEmitDivPow2(t *testing.T) {
	m := divFunc()
	if err := kir.Verify(m.Funcs[0]); err != nil {
		t.Fatal(err)
	}
	text, err := Emit(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "div.") || strings.Contains(text, "rem.") {
		t.Errorf("a division by a power of two is left:\n%s", text)
	}
	for _, re := range []string{
		`shr\.s64 (%rd\d+), %rd\d+, 63;\n\tshr\.u64 %rd\d+, %rd\d+, 61;\n\tadd\.s64 %rd\d+, %rd\d+, %rd\d+;\n\tshr\.s64 %rd\d+, %rd\d+, 3;`, // x/8
		`and\.b64 %rd\d+, %rd\d+, 0xfffffffffffffff8;\n\tsub\.s64`,                                                                          // x%8
		`shr\.u64 %rd\d+, %rd\d+, 2;`,                              // y/4
		`and\.b64 %rd\d+, %rd\d+, 0x3;`,                            // y%4
		`shr\.s32 %r\d+, %r\d+, 31;\n\tshr\.u32 %r\d+, %r\d+, 28;`, // z/16, z%16
		`and\.b32 %r\d+, %r\d+, 0xfffffff0;`,
		`shr\.u64 %rd\d+, %rd\d+, 1;`, // u/2: no bias for a zero-extended dividend
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("no match for %s in\n%s", re, text)
		}
	}
	assemble(t, text)
}

// TestDivPow2Sequence runs the emitted sequence's arithmetic in Go against
// Go's own / and % over the values at the edges, for every power of two.
func TestDivPow2Sequence(t *testing.T) {
	xs := []int64{0, 1, -1, 2, -2, 3, -3, 7, -7, 8, -8, 9, -9, 1 << 31, -1 << 31, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	for s := 1; s < 63; s++ {
		c := int64(1) << s
		for _, x := range xs {
			for _, d := range []int64{0, 1, -1, c - 1, -(c - 1), c, -c} {
				x := x + d
				t0 := int64(uint64(x>>63) >> (64 - s))
				t0 += x
				q, r := t0>>s, x-(t0&-c)
				if q != x/c || r != x%c {
					t.Fatalf("x=%d c=%d: got %d, %d, want %d, %d", x, c, q, r, x/c, x%c)
				}
			}
		}
	}
}

// TestEmitDivBypass checks that a 64-bit division and remainder by a
// value test whether both operands fit in 32 bits and divide in 32 bits
// then, and that ptxas accepts the module where it is installed.
func TestEmitDivBypass(t *testing.T) {
	f := &kir.Func{Name: "divv", Params: []kir.Param{
		{Name: "p", Type: kir.PtrTo(kir.Global)}, {Name: "x", Type: kir.TI64}, {Name: "y", Type: kir.TI64},
	}, Block: [3]int{64, 1, 1}}
	b := f.NewBlock(kir.BlockPlain, "entry")
	p := f.NewValue(b, kir.OpParam, kir.PtrTo(kir.Global))
	x := f.NewValue(b, kir.OpParam, kir.TI64)
	x.Index = 1
	y := f.NewValue(b, kir.OpParam, kir.TI64)
	y.Index = 2
	f.NewValue(b, kir.OpStore, kir.Type{}, p, f.NewValue(b, kir.OpDiv, kir.TI64, x, y))
	q := f.NewValue(b, kir.OpPtrAdd, kir.PtrTo(kir.Global), p, f.NewConst(b, kir.TI64, 8))
	f.NewValue(b, kir.OpStore, kir.Type{}, q, f.NewValue(b, kir.OpRem, kir.TI64, x, y))
	b.Return()
	m := &kir.Module{Funcs: []*kir.Func{f}}
	if err := kir.Verify(f); err != nil {
		t.Fatal(err)
	}
	text, err := Emit(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"div", "rem"} {
		re := `or\.b64 (%rd\d+), (%rd\d+), (%rd\d+);\n\tshr\.u64 %rd\d+, %rd\d+, 32;\n\tsetp\.ne\.u64 (%p\d+), %rd\d+, 0;\n\t@%p\d+ bra (\$D_\d+);\n` +
			`(\tcvt\.u32\.u64 %r\d+, %rd\d+;\n){2}\t` + op + `\.u32 %r\d+, %r\d+, %r\d+;\n\tcvt\.u64\.u32 (%rd\d+), %r\d+;\n\tbra \$DE_\d+;\n` +
			`\$D_\d+:\n\t` + op + `\.s64 %rd\d+, %rd\d+, %rd\d+;\n\$DE_\d+:\n`
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("%s: no 32-bit bypass in\n%s", op, text)
		}
	}
	assemble(t, text)
}

// TestEmitReciprocal checks that 1/x becomes rcp.rn for f32 and f64 (the
// same correctly rounded bits as div.rn, in ptxas's shorter sequence),
// that another dividend stays a division, and that ptxas accepts them.
func TestEmitReciprocal(t *testing.T) {
	f := &kir.Func{Name: "recips", Params: []kir.Param{
		{Name: "p", Type: kir.PtrTo(kir.Global)}, {Name: "x", Type: kir.TF32}, {Name: "y", Type: kir.TF64},
	}, Block: [3]int{64, 1, 1}}
	b := f.NewBlock(kir.BlockPlain, "entry")
	p := f.NewValue(b, kir.OpParam, kir.PtrTo(kir.Global))
	x := f.NewValue(b, kir.OpParam, kir.TF32)
	x.Index = 1
	y := f.NewValue(b, kir.OpParam, kir.TF64)
	y.Index = 2
	f.NewValue(b, kir.OpStore, kir.Type{}, p, f.NewValue(b, kir.OpDiv, kir.TF32, f.NewConst(b, kir.TF32, uint64(math.Float32bits(1))), x))
	f.NewValue(b, kir.OpStore, kir.Type{}, p, f.NewValue(b, kir.OpDiv, kir.TF32, f.NewConst(b, kir.TF32, uint64(math.Float32bits(2))), x))
	f.NewValue(b, kir.OpStore, kir.Type{}, p, f.NewValue(b, kir.OpDiv, kir.TF64, f.NewConst(b, kir.TF64, math.Float64bits(1)), y))
	b.Return()
	m := &kir.Module{Funcs: []*kir.Func{f}}
	if err := kir.Verify(f); err != nil {
		t.Fatal(err)
	}
	text, err := Emit(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for re, want := range map[string]int{`rcp\.rn\.f32 %r\d+, %r\d+;`: 1, `rcp\.rn\.f64 %rd\d+, %rd\d+;`: 1, `div\.rn\.f32 %r\d+, %r\d+, %r\d+;`: 1} {
		if n := len(regexp.MustCompile(re).FindAllString(text, -1)); n != want {
			t.Errorf("%d matches of %s, want %d, in\n%s", n, re, want, text)
		}
	}
	assemble(t, text)
}
