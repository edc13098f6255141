package ptx

import (
	"errors"
	"github.com/gpukvet/gpukvet/codegen/internal/kirtest"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// ptxas finds NVIDIA's ptxas ($PTXAS, scripts/install-ptxas.sh's cache, or
// $PATH) or skips the test.
func ptxas(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PTXAS"); p != "" {
		return p
	}
	cached := filepath.Join("..", "..", ".cache", "ptxas", "usr", "bin", "ptxas")
	if _, err := os.Stat(cached); err == nil {
		return cached
	}
	p, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("ptxas not found (scripts/install-ptxas.sh)")
	}
	return p
}

// assemble runs ptxas on a module's text for sm_80 and sm_90.
func assemble(t *testing.T, text string) {
	t.Helper()
	as := ptxas(t)
	file := filepath.Join(t.TempDir(), "m.ptx")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arch := range []string{"sm_80", "sm_90"} {
		if out, err := exec.Command(as, "-arch="+arch, "-o", os.DevNull, file).CombinedOutput(); err != nil {
			t.Errorf("ptxas -arch=%s: %v\n%s", arch, err, out)
		}
	}
}

var numericKinds = []kir.Kind{kir.I8, kir.I16, kir.I32, kir.I64, kir.U8, kir.U16, kir.U32, kir.U64, kir.F32, kir.F64}

// everyOp builds one kernel that applies every arithmetic, logic, shift,
// comparison, conversion, math and atomic operation of the kernel IR to a
// parameter of every kind it takes, and stores each result.
func everyOp() *kir.Module {
	f := &kir.Func{Name: "everyop", Params: []kir.Param{{Name: "p", Type: kir.PtrTo(kir.Global)}}}
	b := f.NewBlock(kir.BlockPlain, "entry")
	p := f.NewValue(b, kir.OpParam, kir.PtrTo(kir.Global))
	loc := f.NewValue(b, kir.OpLocal, kir.PtrTo(kir.Local))
	loc.Imm, loc.Index = 8, 8
	store := func(v *kir.Value) { f.NewValue(b, kir.OpStore, kir.Type{}, p, v) }
	x := map[kir.Kind]*kir.Value{}
	for i, k := range numericKinds {
		f.Params = append(f.Params, kir.Param{Name: k.String(), Type: kir.Type{Kind: k}})
		x[k] = f.NewValue(b, kir.OpParam, kir.Type{Kind: k})
		x[k].Index = i + 1
	}
	for _, k := range numericKinds {
		t, v := kir.Type{Kind: k}, x[k]
		ops := []kir.Op{kir.OpAdd, kir.OpSub, kir.OpMul, kir.OpDiv}
		if k.IsInt() {
			ops = append(ops, kir.OpRem, kir.OpAnd, kir.OpOr, kir.OpXor, kir.OpAndNot)
			store(f.NewValue(b, kir.OpNot, t, v))
			for _, c := range []kir.Kind{kir.U8, kir.U16, kir.U32, kir.U64} {
				store(f.NewValue(b, kir.OpShl, t, v, x[c]))
				store(f.NewValue(b, kir.OpShr, t, v, x[c]))
			}
			if k.Bits() >= 32 {
				store(f.NewValue(b, kir.OpMulHi, t, v, v))
				store(f.NewValue(b, kir.OpClz, kir.Type{Kind: kir.U32}, v))
				store(f.NewValue(b, kir.OpPopc, kir.Type{Kind: kir.U32}, v))
			}
		} else {
			store(f.NewValue(b, kir.OpFMA, t, v, v, v))
			for fn := kir.MathSqrt; fn <= kir.MathRound; fn++ {
				if fn == kir.MathExp || fn == kir.MathLog || fn == kir.MathSin || fn == kir.MathCos || fn == kir.MathPow || fn == kir.MathIsNaN {
					continue // inlined from codegen/devmath before emission
				}
				rt, args := t, []*kir.Value{v}
				switch fn {
				case kir.MathSignbit:
					rt = kir.TBool
				case kir.MathCopysign, kir.MathMin, kir.MathMax:
					args = append(args, v)
				}
				m := f.NewValue(b, kir.OpMath, rt, args...)
				m.Index = int(fn)
				store(m)
			}
		}
		store(f.NewValue(b, kir.OpNeg, t, v))
		for _, op := range ops {
			store(f.NewValue(b, op, t, v, v))
		}
		for op := kir.OpEq; op <= kir.OpGe; op++ {
			c := f.NewValue(b, op, kir.TBool, v, v)
			store(c)
			store(f.NewValue(b, kir.OpSelect, t, c, v, v))
		}
		for _, to := range numericKinds {
			if to == k && k.IsFloat() {
				continue // no conversion in the IR
			}
			store(f.NewValue(b, kir.OpConvert, kir.Type{Kind: to}, v))
		}
		store(f.NewValue(b, kir.OpLoad, t, p))
		everyAtomic(f, b, p, loc, v)
	}
	b.Return()
	return &kir.Module{Funcs: []*kir.Func{f}}
}

// everyAtomic adds the atomics of the kernel IR that take v's kind, on a
// global and on a local pointer.
func everyAtomic(f *kir.Func, b *kir.Block, global, local, v *kir.Value) {
	k := v.Type.Kind
	if k.Bits() < 32 {
		return
	}
	for _, ptr := range []*kir.Value{global, local} {
		for op := kir.AtomicAdd; op <= kir.AtomicCAS; op++ {
			if (op == kir.AtomicMin || op == kir.AtomicMax) && k.IsFloat() {
				continue // the lowering has no float atomic min or max
			}
			args := []*kir.Value{ptr, v}
			if op == kir.AtomicCAS {
				args = append(args, v)
			}
			a := f.NewValue(b, kir.OpAtomic, v.Type, args...)
			a.Index = int(op)
			f.NewValue(b, kir.OpStore, kir.Type{}, global, a)
		}
	}
}

// TestEveryOpAssembles emits every operation on every kind: the emitter
// must write only forms its ISA table allows, and ptxas must accept them.
func TestEveryOpAssembles(t *testing.T) {
	m := everyOp()
	if err := kir.Verify(m.Funcs[0]); err != nil {
		t.Fatal(err)
	}
	text, err := Emit(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(text); err != nil {
		t.Error(err)
	}
	assemble(t, text)
}

// TestNegUnsigned: -x for an unsigned x wraps in Go; PTX has no neg.uN, so
// it is the signed negation of the register's width, at every width.
func TestNegUnsigned(t *testing.T) {
	text, err := Emit(everyOp(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bad := regexp.MustCompile(`neg\.u\d+`).FindString(text); bad != "" {
		t.Errorf("the module negates with %s, which ptxas refuses", bad)
	}
	for _, want := range []string{`neg\.s32 %r\d+, %r\d+;\n\tand\.b32 %r\d+, %r\d+, 255;`, `neg\.s32 %r\d+, %r\d+;\n\tand\.b32 %r\d+, %r\d+, 65535;`, `neg\.s64`} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("no %s in the module", want)
		}
	}
}

// TestISATable shows the table refusing forms the PTX ISA does not allow
// and accepting the legal ones around them.
func TestISATable(t *testing.T) {
	for _, tc := range []struct {
		ins string
		ok  bool
	}{
		{"neg.s32 %r1, %r2", true},
		{"neg.u32 %r1, %r2", false},
		{"neg.u8 %r1, %r2", false},
		{"neg.f64 %rd1, %rd2", true},
		{"setp.lt.s64 %p1, %rd1, %rd2", true},
		{"setp.lt.b32 %p1, %r1, %r2", false}, // bit types compare only for equality
		{"setp.neu.f32 %p1, %r1, %r2", true},
		{"setp.neu.s32 %p1, %r1, %r2", false}, // unordered forms are for floats
		{"cvt.rzi.s32.f32 %r1, %r2", true},
		{"cvt.f32.s32 %r1, %r2", false}, // int to float needs a rounding
		{"cvt.f32.f64 %r1, %rd2", false},
		{"cvt.f64.f32 %rd1, %r2", true},
		{"shl.u32 %r1, %r2, %r3", false},
		{"shr.s32 %r1, %r2, %r3", true},
		{"mul.wide.s64 %rd1, %rd2, %rd3", false},
		{"div.f32 %r1, %r2, %r3", false}, // needs .rn (or .approx/.full)
		{"atom.global.add.s64 %rd1, [%rd2], %rd3", false},
		{"atom.global.min.f32 %r1, [%rd2], %r3", false},
		{"@!%p1 bra $L_2", true},
		{"frob.s32 %r1, %r2", false},
	} {
		err := checkInstruction(tc.ins)
		if (err == nil) != tc.ok {
			t.Errorf("checkInstruction(%q) = %v, want ok=%v", tc.ins, err, tc.ok)
		}
	}
}

// TestEmitRefusesBadForm: an instruction the table refuses is an *Error
// naming the kernel and the Go position of the value being emitted.
func TestEmitRefusesBadForm(t *testing.T) {
	m := shiftFunc()
	f := m.Funcs[0]
	fset := token.NewFileSet()
	file := fset.AddFile("k.go", -1, 100)
	file.SetLines([]int{0, 10, 20})
	v := f.Blocks[0].Values[1]
	v.Pos = file.Pos(25)
	opts := Options{Position: func(p token.Pos) string { return fset.Position(p).String() }}
	var sb strings.Builder
	e := newEmitter(f, f.Name, nil, &sb, opts)
	e.at(v)
	e.ins("neg.u32 %%r1, %%r2")
	var perr *Error
	if !errors.As(e.err, &perr) || perr.Entry != "shifts" || perr.Pos != "k.go:3:6" || !strings.Contains(perr.Msg, "neg") {
		t.Fatalf("err = %v, want an *Error of kernel shifts at k.go:3:6", e.err)
	}
	if got := e.err.Error(); !strings.HasPrefix(got, "k.go:3:6: ptx: kernel shifts: internal error: neg.u32") {
		t.Errorf("error text %q", got)
	}
	if err := Check("// m\n.visible .entry k(\n)\n{\n\tneg.u16 %r1, %r2;\n}\n"); err == nil || !strings.Contains(err.Error(), "ptx line 5 (entry k)") {
		t.Errorf("Check = %v, want the line and entry of neg.u16", err)
	}
}

// TestFloatForms: only a product feeding a sum, and that sum, are left
// contractible; every other float operation is .rn (ptxas would fold
// (x*0.5)*2 into x, which is 0 in Go for the smallest subnormal); nothing
// flushes subnormals; comparisons are ordered but != (NaN != NaN); min
// gives NaN for a NaN operand and -0 for (-0, +0).
func TestFloatForms(t *testing.T) {
	text, err := Emit(kirtest.FloatForms(true), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`mul\.rn\.f32 %r\d+, %r1, %r\d+;\n\tmul\.rn\.f32 %r\d+, %r\d+, %r\d+;`, // (x*0.5)*2
		`mul\.f32 (%r\d+), %r\d+, %r\d+;\n\tadd\.f32 %r\d+, %r\d+, %r\d+;`,     // a*x+y: an FMA is allowed
		`mul\.rn\.f32 %r\d+, %r\d+, %r\d+;\n\tadd\.rn\.f32`,                    // float32(a*y)+x
		`sub\.rn\.f32`,
		`setp\.eq\.f32`, `setp\.neu\.f32`, `setp\.lt\.f32`, `setp\.le\.f32`, `setp\.gt\.f32`, `setp\.ge\.f32`,
		`min\.f32 (%r\d+), (%r\d+), (%r\d+);\n\tsetp\.eq\.f32 (%p\d+), %r\d+, %r\d+;\n\tor\.b32 (%r\d+), %r\d+, %r\d+;\n\tselp\.b32 %r\d+, %r\d+, %r\d+, %p\d+;\n\tsetp\.nan\.f32`,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("no %s in\n%s", want, text)
		}
	}
	if strings.Contains(text, ".ftz") {
		t.Error("the module flushes subnormals (.ftz)")
	}
	sass := disassemble(t, text)
	if regexp.MustCompile(`FMUL\.M`).MatchString(sass) {
		t.Errorf("ptxas scaled a product (FMUL.M*: (x*0.5)*2 folded):\n%s", sass)
	}
	if !strings.Contains(sass, "FFMA") {
		t.Errorf("ptxas contracted no product and sum into an FMA:\n%s", sass)
	}
}

// disassemble assembles a module for sm_80 and returns its SASS, by the
// nvdisasm beside ptxas; it skips the test without them.
func disassemble(t *testing.T, text string) string {
	t.Helper()
	as := ptxas(t)
	nvdisasm := filepath.Join(filepath.Dir(as), "nvdisasm")
	if _, err := os.Stat(nvdisasm); err != nil {
		t.Skip("nvdisasm not found beside ptxas")
	}
	dir := t.TempDir()
	src, cubin := filepath.Join(dir, "m.ptx"), filepath.Join(dir, "m.cubin")
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, "-arch=sm_80", "-o", cubin, src).CombinedOutput(); err != nil {
		t.Fatalf("ptxas: %v\n%s", err, out)
	}
	out, err := exec.Command(nvdisasm, cubin).Output()
	if err != nil {
		t.Fatalf("nvdisasm: %v", err)
	}
	return string(out)
}
