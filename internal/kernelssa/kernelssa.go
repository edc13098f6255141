// Package kernelssa builds the SSA form of the packages that the dialect
// concerns, and of no others. It is buildssa with the fast path of
// internal/kernels in front: `go vet -vettool=gpukvet std` must cost next to
// nothing, and building SSA for every package of a large tree would not.
//
// The SSA is built with debug references (ssa.GlobalDebug), so that analyses
// can map values back to the expressions they came from, and with generic
// functions instantiated.
package kernelssa

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/kernels"
)

// Analyzer builds the SSA of a relevant package; its result is nil for a
// package that imports neither gpu nor device and has no //gpu: directive.
var Analyzer = define.Guarded(&analysis.Analyzer{
	Name:       "kernelssa",
	Doc:        "build SSA for packages that use the gpu or device packages (reports nothing)",
	URL:        "https://github.com/gpukvet/gpukvet/tree/main/internal/kernelssa",
	Run:        run,
	Requires:   []*analysis.Analyzer{kernels.Analyzer},
	ResultType: reflect.TypeFor[*SSA](),
})

// SSA is the SSA form of one package.
type SSA struct {
	Pkg *ssa.Package
	// Funcs maps each function declared in the package to its SSA form.
	Funcs map[*types.Func]*ssa.Function
	// SrcFuncs lists every source function, anonymous ones included, in
	// source order.
	SrcFuncs []*ssa.Function
}

// Func returns the SSA form of fn, a function of this package.
func (s *SSA) Func(fn *types.Func) *ssa.Function { return s.Funcs[fn.Origin()] }

func run(pass *analysis.Pass) (any, error) {
	if !pass.ResultOf[kernels.Analyzer].(*kernels.Result).Relevant {
		return (*SSA)(nil), nil
	}
	return Build(pass), nil
}

// Build builds the SSA of pass's package whatever its relevance. Analyzers
// that must also look at packages the fast path skips (ownership follows
// buffers through packages that use the device API only through another
// package) call it directly.
func Build(pass *analysis.Pass) *SSA {
	prog := ssa.NewProgram(pass.Fset, ssa.GlobalDebug|ssa.InstantiateGenerics)
	// Every dependency, not only the direct imports: method sets of types
	// from indirect imports need their packages.
	created := map[*types.Package]bool{}
	var create func(pkgs []*types.Package)
	create = func(pkgs []*types.Package) {
		for _, p := range pkgs {
			if !created[p] {
				created[p] = true
				prog.CreatePackage(p, nil, nil, true)
				create(p.Imports())
			}
		}
	}
	create(pass.Pkg.Imports())
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	s := &SSA{Pkg: pkg, Funcs: map[*types.Func]*ssa.Function{}}
	var addAnons func(f *ssa.Function)
	addAnons = func(f *ssa.Function) {
		s.SrcFuncs = append(s.SrcFuncs, f)
		for _, anon := range f.AnonFuncs {
			addAnons(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			if f := prog.FuncValue(fn); f != nil {
				s.Funcs[fn] = f
				addAnons(f)
			}
		}
	}
	return s
}

// Reaches reports whether a path of the control-flow graph leads from a to b
// (a == b counts).
func Reaches(a, b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{a}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return false
}
