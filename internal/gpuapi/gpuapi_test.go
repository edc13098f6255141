package gpuapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gpukvet/gpukvet/internal/apitable"
)

// loadGPU type-checks package gpu, recording positions in fset.
func loadGPU(t *testing.T, fset *token.FileSet) *types.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Fset: fset}
	pkgs, err := packages.Load(cfg, Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		t.Fatalf("loading %s: %v", Path, pkgs)
	}
	return pkgs[0].Types
}

// TestEveryAPIHasAKind reads the exported scope of package gpu: every
// function and every method of its types must have a Kind, and every type
// must be one gpuapi knows, so that adding to the gpu package's API without
// teaching this recognizer fails here. Conversely every Kind must name a
// function or method that exists, with the shape its classification claims.
func TestEveryAPIHasAKind(t *testing.T) {
	pkg := loadGPU(t, token.NewFileSet())
	funcs, typeNames, others := apitable.Exported(pkg)
	sigs := map[Kind]*types.Signature{}
	for _, fn := range funcs {
		k := Func(fn)
		if k == None {
			t.Errorf("%s has no gpuapi.Kind: add it to internal/gpuapi and to every analysis and the lowering", fn.FullName())
		}
		sigs[k] = fn.Signature()
	}
	for _, tn := range typeNames {
		if !IsThread(tn.Type()) && !IsDim3(tn.Type()) {
			t.Errorf("type gpu.%s is unknown to gpuapi", tn.Name())
		}
	}
	for _, obj := range others {
		t.Errorf("gpu.%s (%T) is unknown to gpuapi", obj.Name(), obj)
	}
	for k := None + 1; k < numKinds; k++ {
		if sigs[k] == nil {
			t.Errorf("Kind %s names no exported function or method of package gpu", k.Selector())
			continue
		}
		checkShape(t, pkg, k, sigs[k])
	}
}

// checkShape checks that sig, the signature of the function or method of
// Kind k in package gpu (pkg), has the shape its classification claims.
func checkShape(t *testing.T, pkg *types.Package, k Kind, sig *types.Signature) {
	t.Helper()
	dim3 := pkg.Scope().Lookup("Dim3").Type()
	switch {
	case k.IsThreadIndex():
		if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), dim3) {
			t.Errorf("%s is classified as a thread index but does not return a gpu.Dim3", k.Selector())
		}
	case k.IsAtomic(), k == Shared:
		if sig.TypeParams().Len() != 1 || sig.Results().Len() != 1 {
			t.Errorf("%s is classified as generic with one result: %s", k.Selector(), sig)
		}
	}
	if k.IsAtomic() {
		if _, ok := sig.Params().At(0).Type().(*types.Pointer); !ok {
			t.Errorf("%s is classified as atomic but its first parameter is not the address it updates", k.Selector())
		}
	}
}

// src exercises every way a kernel calls the API; a comment names the Kind
// of every call on its line, and a call on a line without one is None.
const src = `package k

import "github.com/gpukvet/gpukvet/gpu"

func K(t gpu.Thread, p *gpu.Thread, a []int32, f []float32) {
	_ = t.ThreadIdx().X // ThreadIdx
	_ = p.BlockIdx()    // BlockIdx
	_ = t.BlockDim()    // BlockDim
	_ = p.GridDim()     // GridDim
	_ = t.GlobalIdx()   // GlobalIdx
	t.Barrier()         // Barrier
	p.Barrier()         // Barrier
	gpu.Thread.Barrier(t)    // Barrier
	(*gpu.Thread).Barrier(p) // Barrier
	s := gpu.Shared[[4]int32](t) // Shared
	gpu.AtomicAdd(&s[0], 1)                // AtomicAdd
	gpu.AtomicAdd(&f[0], 1)                // AtomicAdd
	gpu.AtomicMin(&a[0], 1)                // AtomicMin
	gpu.AtomicMax(&a[0], 1)                // AtomicMax
	gpu.AtomicExchange(&f[0], 1)           // AtomicExchange
	gpu.AtomicCompareAndSwap(&a[0], 1, 2)  // AtomicCompareAndSwap
	add(&a[0], 1)
	add(&f[0], 1)
	_ = shared[float32](t)
	_ = len(a)
	local(a)
	var m interface{ Barrier() } = t
	m.Barrier()
}

func add[T int32 | float32](p *T, v T) T {
	return gpu.AtomicAdd(p, v) // AtomicAdd
}

func shared[T any](t gpu.Thread) *T {
	return gpu.Shared[T](t) // Shared
}

func local(a []int32) {}
`

// TestCalls builds SSA for src, with and without instantiated generics,
// and checks the Kind of every call in it.
func TestCalls(t *testing.T) {
	fset := token.NewFileSet()
	gpu := loadGPU(t, fset)
	f, err := parser.ParseFile(fset, "k.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]Kind{}
	for k := None + 1; k < numKinds; k++ {
		kinds[k.String()] = k
	}
	want := map[int]Kind{} // line → Kind
	for _, cg := range f.Comments {
		name := strings.TrimSpace(strings.TrimPrefix(cg.Text(), "//"))
		k, ok := kinds[name]
		if !ok {
			t.Fatalf("k.go: comment %q names no Kind", name)
		}
		want[fset.Position(cg.Pos()).Line] = k
	}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path != Path {
			t.Fatalf("k.go imports %s", path)
		}
		return gpu, nil
	})
	for _, mode := range []ssa.BuilderMode{0, ssa.InstantiateGenerics} {
		pkg := types.NewPackage("k", "k")
		spkg, _, err := ssautil.BuildPackage(&types.Config{Importer: imp}, fset, pkg, []*ast.File{f}, mode)
		if err != nil {
			t.Fatal(err)
		}
		found := map[int]bool{}
		for fn := range ssautil.AllFunctions(spkg.Prog) {
			for _, b := range fn.Blocks {
				for _, in := range b.Instrs {
					c, ok := in.(ssa.CallInstruction)
					if !ok || !c.Pos().IsValid() || fset.File(c.Pos()) != fset.File(f.Pos()) {
						continue
					}
					line := fset.Position(c.Pos()).Line
					if got := Call(c.Common()); got != want[line] {
						t.Errorf("mode %v: k.go:%d: %s (callee %v) is %s, want %s", mode, line, c, c.Common().StaticCallee(), got, want[line])
					}
					found[line] = true
				}
			}
		}
		for line := range want {
			if !found[line] {
				t.Errorf("mode %v: k.go:%d: no call found", mode, line)
			}
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func TestKindNames(t *testing.T) {
	for k := None + 1; k < numKinds; k++ {
		if api.Lookup(k.Selector()) != k {
			t.Errorf("%s does not round-trip through its selector", k.Selector())
		}
	}
	if ThreadIdx.String() != "ThreadIdx" || Barrier.Selector() != "Thread.Barrier" || AtomicAdd.Selector() != "AtomicAdd" || None.String() != "None" {
		t.Error("names are not the gpu package's")
	}
	if !GlobalIdx.PerThread() || BlockIdx.PerThread() || !GridDim.IsThreadIndex() || Barrier.IsThreadIndex() ||
		!AtomicCompareAndSwap.IsAtomic() || Shared.IsAtomic() || None.IsThreadIndex() {
		t.Error("classification is wrong")
	}
}
