package hostgen

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/codegen/ptx"
	"github.com/gpukvet/gpukvet/internal/directive"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
	"github.com/gpukvet/gpukvet/internal/srchash"
)

// fakeCompile stands in for the codegen: gen's own logic is tested apart
// from the PTX it embeds (the differential suite runs real modules).
func fakeCompile(p *Package, opts Options) (*compiled, error) {
	c := &compiled{kernels: map[string]compiledKernel{}, positions: []string{"kernels.go:24:8", "kernels.go:34:4"}}
	var ptx strings.Builder
	fmt.Fprintf(&ptx, "//\n// fake PTX for %s\n//\n.version 7.8\n.target %s\n.address_size 64\n", p.Path(), opts.Arch)
	for _, k := range p.kernels {
		entry := p.pkg.Name + "_" + k.name
		fmt.Fprintf(&ptx, "// .entry %s\n", entry)
		ck, err := fakeKernel(p, k, entry)
		if err != nil {
			return nil, err
		}
		if k.name == "Saxpy" {
			fmt.Fprintf(&ptx, "// .entry %s\n// .entry %s\n", ck.entryFast, ck.entryFastNC)
		}
		c.kernels[k.name] = ck
	}
	c.ptx = []byte(ptx.String())
	if opts.Targets.SPIRV {
		c.spirv = []byte("\x03\x02\x23\x07 fake SPIR-V for " + p.Path())
		c.spirvFeatures = []string{"float64"}
	}
	return c, nil
}

// fakeKernel is what the codegen's manifest would say of kernel k: its
// shapes, and for Saxpy a variant assuming launch facts
// (len(y) <= len(x) && ntid.x <= 1024).
func fakeKernel(p *Package, k *kernel, entry string) (compiledKernel, error) {
	ck := compiledKernel{entry: entry, dims: 1}
	for _, f := range p.pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && p.pkg.TypesInfo.Defs[fd.Name] == k.fn {
				dir, err := directive.Find(fd.Doc)
				if err != nil {
					return ck, err
				}
				if directive.Fixed(dir.Block) {
					ck.block = dir.Block[:]
				}
				if directive.Fixed(dir.Grid) {
					ck.grid = dir.Grid[:]
				}
			}
		}
	}
	if k.name == "Saxpy" {
		ck.entryFast, ck.entryFastNC = entry+"_fast", entry+"_fast_nc"
		ck.facts = &gpuabi.Facts{Ops: []gpuabi.FactOp{
			{Op: "param", Kind: "i64", Index: 2},
			{Op: "param", Kind: "i64", Index: 4},
			{Op: "le", Kind: "bool", Args: []int{1, 0}},
			{Op: "special", Kind: "u32"},
			{Op: "const", Kind: "u32", Imm: 1024},
			{Op: "le", Kind: "bool", Args: []int{3, 4}},
			{Op: "const", Kind: "u64", Imm: 1 << 40},
		}, Result: []int{2, 5}}
	}
	return ck, nil
}

// fake are the options of the tests: both targets, the fake codegen.
var fake = Options{Targets: Targets{PTX: true, SPIRV: true}, compile: fakeCompile}

const genpkg = "./testdata/genpkg"

// loadGenpkg loads testdata/genpkg.
func loadGenpkg(t *testing.T) *Package {
	t.Helper()
	ps, err := Load([]string{genpkg})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 {
		t.Fatalf("Load(%s) = %d packages, want 1", genpkg, len(ps))
	}
	return ps[0]
}

// TestGolden checks that testdata/genpkg/gpukvet_gen.go is what Write
// writes (GPUKVET_UPDATE_GOLDEN=1 rewrites it), and that it type-checks
// with the package.
func TestGolden(t *testing.T) {
	p := loadGenpkg(t)
	update := Check
	if os.Getenv("GPUKVET_UPDATE_GOLDEN") != "" {
		update = Write
	}
	if _, err := update(p, fake); err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedSyntax}, genpkg)
	if err != nil {
		t.Fatal(err)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("generated code does not type-check: %v", e)
		}
	})
	data, _ := os.ReadFile(genpkg + "/gpukvet_gen.go")
	for _, want := range []string{
		"func LaunchSaxpy(d *device.Device, grid, block gpu.Dim3, a float32, x *device.Buffer[float32], y *device.Buffer[float32]) error",
		"func LaunchMove(d *device.Device, grid, block gpu.Dim3, p Point, d_ *device.Buffer[time.Duration], grid_ int, p4 *device.Buffer[Point], block_ bool) error",
		"gpu.Dim3{X: 64, Y: 1, Z: 1}",
		`Entry: "genpkg_Saxpy"`,
		`EntryFast: "genpkg_Saxpy_fast", EntryFastNC: "genpkg_Saxpy_fast_nc", Facts: &backend.Facts{`,
		`{Op: "le", Kind: "bool", Args: []int{1, 0}},`,
		`{Op: "param", Kind: "i64", Index: 4},`,
		`{Op: "const", Kind: "u64", Imm: 0x10000000000},`,
		`Result: []int{2, 5},`,
	} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("generated file lacks %q", want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, _, err := generate(loadGenpkg(t), fake)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := generate(loadGenpkg(t), fake)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs of gen differ")
	}
}

// TestCheckStale: Check reports a file that Write would change, and
// writes nothing.
func TestCheckStale(t *testing.T) {
	p := loadGenpkg(t)
	before, _ := os.ReadFile(genpkg + "/gpukvet_gen.go")
	opts := fake
	opts.Arch = "sm_90"
	res, err := Check(p, opts)
	if !errors.Is(err, ErrStale) || !res.Existed || res.Wrote {
		t.Fatalf("Check with another arch: %+v, %v; want an existing file and ErrStale", res, err)
	}
	after, _ := os.ReadFile(genpkg + "/gpukvet_gen.go")
	if !bytes.Equal(before, after) {
		t.Fatal("Check wrote the file")
	}
}

// TestWrite: Write writes a missing file, naming it in its line
// directives, and leaves one that is up to date alone.
func TestWrite(t *testing.T) {
	p := loadGenpkg(t)
	opts := fake
	opts.File = "hostgen_write.go"
	file := filepath.Join(p.Dir(), opts.File)
	t.Cleanup(func() { os.Remove(file) })
	for i, want := range []Result{{File: file, Wrote: true}, {File: file, Existed: true}} {
		res, err := Write(p, opts)
		if err != nil || res.File != want.File || res.Existed != want.Existed || res.Wrote != want.Wrote {
			t.Fatalf("Write #%d: %+v, %v; want %+v", i+1, res, err, want)
		}
	}
	data, _ := os.ReadFile(file)
	if !bytes.Contains(data, []byte("/*line hostgen_write.go:")) {
		t.Error("the written file's line directives do not name it")
	}
}

func TestRefusesForeignFile(t *testing.T) {
	p := loadGenpkg(t)
	before, _ := os.ReadFile(genpkg + "/kernels.go")
	opts := fake
	opts.File = "kernels.go"
	if _, err := Write(p, opts); !errors.Is(err, ErrNotGenerated) {
		t.Fatalf("Write to kernels.go: %v, want ErrNotGenerated", err)
	}
	after, _ := os.ReadFile(genpkg + "/kernels.go")
	if !bytes.Equal(before, after) {
		t.Fatal("gen overwrote a file it did not write")
	}
}

func TestValidFile(t *testing.T) {
	for name, want := range map[string]bool{"gpukvet_gen.go": true, "x/y.go": false, "y_test.go": false, "y.txt": false} {
		if got := ValidFile(name); got != want {
			t.Errorf("ValidFile(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	for _, pattern := range []string{"./testdata/nosuchpkg", "github.com/gpukvet/gpukvet/gpu"} {
		if _, err := Load([]string{pattern}); err == nil {
			t.Errorf("Load(%s): no error", pattern)
		}
	}
}

// TestPattern: a pattern with "..." checks every package with kernels
// and skips the rest.
func TestPattern(t *testing.T) {
	ps, err := Load([]string{"./testdata/..."})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if _, err := Check(p, fake); err != nil {
			t.Error(err)
		}
	}
}

// generatedFiles returns the files in the repository that gpukvet gen wrote
// (outside testdata/src trees of analyzer tests).
func generatedFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	root := filepath.Join("..", "..") // the repository's root, not the folder holding it
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || filepath.Base(filepath.Dir(path)) == "genpkg" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err == nil && srchash.IsGenerated(data) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// genConst returns the value of a string constant of a generated file.
func genConst(t *testing.T, file, name string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gd.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || vs.Names[0].Name != name || len(vs.Values) != 1 {
				continue
			}
			if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		}
	}
	t.Fatalf("%s: no constant %s", file, name)
	return ""
}

// TestGeneratedFilesFresh is the vet-style staleness check: every committed
// gpukvet_gen.go must record the hash of its package's current sources, or
// its embedded GPU code was compiled from other sources.
func TestGeneratedFilesFresh(t *testing.T) {
	files := generatedFiles(t)
	if len(files) == 0 {
		t.Skip("no generated files in this tree")
	}
	root, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	for _, file := range files {
		if data, _ := os.ReadFile(file); bytes.Contains(data, []byte(root+string(filepath.Separator))) {
			t.Errorf("%s holds the absolute path %s: generated output must not depend on the checkout", file, root)
		}
		want := genConst(t, file, "gpukvetSourceHash")
		got, err := srchash.Dir(filepath.Dir(file))
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s is stale: its package's sources changed since it was generated; run gpukvet gen in %s", file, filepath.Dir(file))
		}
	}
}

// TestGeneratedPTXFollowsISA runs every committed generated module (the
// examples, the differential, benchmark and phase kernels) through the PTX
// emitter's table of what the PTX ISA allows, without ptxas.
func TestGeneratedPTXFollowsISA(t *testing.T) {
	files := generatedFiles(t)
	if len(files) == 0 {
		t.Skip("no generated files in this tree")
	}
	for _, file := range files {
		if err := ptx.Check(genConst(t, file, "gpukvetPTX")); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// TestGeneratedPTXAssembles runs NVIDIA's ptxas (scripts/install-ptxas.sh,
// or PTXAS) on every committed generated module, for sm_80 and sm_90.
func TestGeneratedPTXAssembles(t *testing.T) {
	ptxas := os.Getenv("PTXAS")
	if ptxas == "" {
		ptxas = filepath.Join("..", "..", ".cache", "ptxas", "usr", "bin", "ptxas")
		if _, err := os.Stat(ptxas); err != nil {
			if ptxas, err = exec.LookPath("ptxas"); err != nil {
				t.Skip("ptxas not found: run scripts/install-ptxas.sh (or set PTXAS)")
			}
		}
	}
	for _, file := range generatedFiles(t) {
		ptx := filepath.Join(t.TempDir(), "m.ptx")
		if err := os.WriteFile(ptx, []byte(genConst(t, file, "gpukvetPTX")), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, arch := range []string{"sm_80", "sm_90"} {
			if out, err := exec.Command(ptxas, "-arch="+arch, "-o", os.DevNull, ptx).CombinedOutput(); err != nil {
				t.Errorf("ptxas -arch=%s on the module of %s: %v\n%s", arch, file, err, out)
			}
		}
	}
}

// TestCPUBarrier checks the cpu entry's Barrier flag: a kernel that
// calls a barrier through a device function has one, the others none.
func TestCPUBarrier(t *testing.T) {
	p := loadGenpkg(t)
	want := map[string]bool{"Deferred": false, "Move": false, "Rotate": true, "Saxpy": false, "SwitchBarrier": true, "SplitLoop": true}
	for _, k := range p.kernels {
		if got := mayBarrier(p, k); got != want[k.name] {
			t.Errorf("mayBarrier(%s) = %v, want %v", k.name, got, want[k.name])
		}
	}
}

// TestCPUSplit checks which kernels gen splits at their barriers into
// per-phase loops and that the others keep coroutines with the reason.
func TestCPUSplit(t *testing.T) {
	src, _, err := generate(loadGenpkg(t), fake)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"// Its threads run as coroutines: it reaches a barrier inside sync, a function it calls.\nfunc gpukvetCPURotate(",
		"// Its threads run as coroutines: it calls a barrier inside a switch at kernels.go:",
		"type gpukvetLocalsSplitLoop struct {\n\tgpukvetDone bool\n\tv0_p        Point\n\tv1_s        int\n}",
		"gpukvetB.PhaseBarrier(gpukvetFirst)",
		"gpukvetC1 := gpukvetB.PhaseUniform(gpukvetYes1, gpukvetNo1)",
		"/*line kernels.go:",
		"// Its block loop calls it per thread: it defers a call.\nfunc gpukvetCPUDeferred(",
		"Deferred(gpukvetB.Thread(gpukvetX, gpukvetY, gpukvetZ), gpukvetArg0)",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated file lacks %q", want)
		}
	}
}

// TestFactsFields: a kernel's launch facts and fast entry points reach its
// backend.Code only with PTX and with facts that can hold; EntryFastNC
// only when there is one.
func TestFactsFields(t *testing.T) {
	facts := &gpuabi.Facts{Ops: []gpuabi.FactOp{{Op: "const", Kind: "bool", Imm: 1}}, Result: []int{0}}
	ptx, spirvOnly := &generation{opts: Options{Targets: Targets{PTX: true}}}, &generation{opts: Options{Targets: Targets{SPIRV: true}}}
	for _, c := range []struct {
		name string
		g    *generation
		ck   compiledKernel
		want string
	}{
		{"fast and fast nc", ptx, compiledKernel{entryFast: "k_fast", entryFastNC: "k_fast_nc", facts: facts},
			", EntryFast: \"k_fast\", EntryFastNC: \"k_fast_nc\", Facts: &backend.Facts{\nOps: []backend.FactOp{\n{Op: \"const\", Kind: \"bool\", Imm: 1},\n},\nResult: []int{0},\n}"},
		{"fast only", ptx, compiledKernel{entryFast: "k_fast", facts: facts},
			", EntryFast: \"k_fast\", Facts: &backend.Facts{\nOps: []backend.FactOp{\n{Op: \"const\", Kind: \"bool\", Imm: 1},\n},\nResult: []int{0},\n}"},
		{"no PTX", spirvOnly, compiledKernel{entryFast: "k_fast", facts: facts}, ""},
		{"no facts", ptx, compiledKernel{entryFast: "k_fast"}, ""},
		{"facts without a result", ptx, compiledKernel{entryFast: "k_fast", facts: &gpuabi.Facts{}}, ""},
		{"no fast entry", ptx, compiledKernel{facts: facts}, ""},
	} {
		if got := c.g.factsFields(c.ck); got != c.want {
			t.Errorf("%s: factsFields = %q, want %q", c.name, got, c.want)
		}
	}
}
