// Package kernels finds the kernels and device functions of a package: the
// //gpu:kernel and //gpu:device directives, the functions of a kernel's own
// package that kernels call, and the dimensionality of each kernel. It parses
// the directives once, for every other analysis, and exports what it found as
// facts so that analyses of other packages know the same.
//
// It reports nothing itself: malformed directives and bad kernel signatures
// are in Result.Problems, which the memspace analyzer reports.
package kernels

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/internal/directive"
)

// Import paths of the dialect's packages.
const (
	GPUPath    = "github.com/gpukvet/gpukvet/gpu"
	DevicePath = "github.com/gpukvet/gpukvet/device"
)

// Analyzer computes the Result for a package.
var Analyzer = &analysis.Analyzer{
	Name:       "gpukernels",
	Doc:        "find //gpu:kernel and //gpu:device functions (a fact provider; reports nothing)",
	URL:        "https://github.com/gpukvet/gpukvet/tree/main/analyzers/kernels",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(KernelFact), new(DeviceFact)},
}

// Kernel is one //gpu:kernel function of the package.
type Kernel struct {
	Func *types.Func
	Decl *ast.FuncDecl
	// Block and Grid are the shapes fixed by block= and grid= (all zero if
	// not fixed; missing dimensions are 1).
	Block, Grid [3]int
	// Dims is 1, 2 or 3: how many leading dimensions of any index or extent
	// the kernel (or a device function it calls) reads.
	Dims int
}

// Result is what the analyzer found in one package.
type Result struct {
	// Relevant is false for a package that imports neither gpu nor device
	// and has no //gpu: directive; analyzers return at once on it.
	Relevant bool
	// ImportsDevice is true when the package imports the device package.
	ImportsDevice bool
	// Kernels are the package's kernels, in source order.
	Kernels []*Kernel
	// Device maps every device function of the package (marked
	// //gpu:device, or called from a kernel or device function of this
	// package) to its declaration. Kernels are not in it.
	Device map[*types.Func]*ast.FuncDecl
	// Problems are malformed directives and kernels with a bad signature.
	Problems []analysis.Diagnostic

	kernelOf map[*types.Func]*Kernel
}

// Kernel returns the kernel fn of this package, or nil.
func (r *Result) Kernel(fn *types.Func) *Kernel { return r.kernelOf[origin(fn)] }

// KernelFact marks an exported kernel for other packages.
type KernelFact struct {
	Block, Grid [3]int
	Dims        int
}

func (*KernelFact) AFact()           {}
func (f *KernelFact) String() string { return "gpu kernel" }

// DeviceFact marks a function callable from kernels of other packages.
type DeviceFact struct {
	// Dims is how many leading dimensions of indices it reads (0 if none).
	Dims int
}

func (*DeviceFact) AFact()         {}
func (*DeviceFact) String() string { return "gpu device function" }

// IsKernel reports whether fn (of any package) is a kernel.
func IsKernel(pass *analysis.Pass, fn *types.Func) bool {
	fn = origin(fn)
	return pass.ImportObjectFact(fn, new(KernelFact))
}

// IsDevice reports whether fn (of any package) may be called from kernels:
// a device function of this package or one with a DeviceFact.
func IsDevice(pass *analysis.Pass, fn *types.Func) bool {
	fn = origin(fn)
	if res, ok := pass.ResultOf[Analyzer].(*Result); ok && res.Device[fn] != nil {
		return true
	}
	return pass.ImportObjectFact(fn, new(DeviceFact))
}

func origin(fn *types.Func) *types.Func {
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{Device: map[*types.Func]*ast.FuncDecl{}, kernelOf: map[*types.Func]*Kernel{}}
	for _, imp := range pass.Pkg.Imports() {
		switch imp.Path() {
		case GPUPath:
			res.Relevant = true
		case DevicePath:
			res.Relevant = true
			res.ImportsDevice = true
		}
	}
	if !res.Relevant && !directive.Mentioned(pass.Files) {
		return res, nil
	}
	res.Relevant = true

	decls := map[*types.Func]*ast.FuncDecl{}
	var roots []*types.Func
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			decls[fn] = fd
			dir, err := directive.Find(fd.Doc)
			if err != nil {
				e := err.(*directive.Error)
				res.Problems = append(res.Problems, analysis.Diagnostic{Pos: e.Comment.Pos(), End: e.Comment.End(), Message: e.Msg})
				continue
			}
			switch dir.Kind {
			case directive.Kernel:
				if msg, pos := checkSignature(pass, fd, fn); msg != "" {
					res.Problems = append(res.Problems, analysis.Diagnostic{Pos: pos, Message: msg})
				}
				k := &Kernel{Func: fn, Decl: fd, Block: dir.Block, Grid: dir.Grid}
				res.Kernels = append(res.Kernels, k)
				res.kernelOf[fn] = k
				roots = append(roots, fn)
			case directive.Device:
				res.Device[fn] = fd
				roots = append(roots, fn)
			}
		}
	}
	dims := reach(pass, decls, roots, res)
	for _, k := range res.Kernels {
		k.Dims = max(1, dims[k.Func])
		pass.ExportObjectFact(k.Func, &KernelFact{Block: k.Block, Grid: k.Grid, Dims: k.Dims})
	}
	for fn := range res.Device {
		if fn.Exported() || fn.Signature().Recv() != nil {
			pass.ExportObjectFact(fn, &DeviceFact{Dims: dims[fn]})
		}
	}
	return res, nil
}

// reach adds to res.Device every function of this package that a root calls,
// transitively, and returns for each reached function the number of leading
// index dimensions it (or its callees) reads.
func reach(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, roots []*types.Func, res *Result) map[*types.Func]int {
	callees := map[*types.Func][]*types.Func{}
	own := map[*types.Func]int{}
	seen := map[*types.Func]bool{}
	work := append([]*types.Func(nil), roots...)
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[fn] {
			continue
		}
		seen[fn] = true
		fd := decls[fn]
		if fd == nil || fd.Body == nil {
			continue
		}
		if res.kernelOf[fn] == nil {
			res.Device[fn] = fd
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if d := dimOfSelector(pass, n); d > own[fn] {
					own[fn] = d
				}
			case *ast.Ident:
				callee, ok := pass.TypesInfo.Uses[n].(*types.Func)
				if !ok {
					return true
				}
				callee = callee.Origin()
				if callee.Pkg() == pass.Pkg {
					callees[fn] = append(callees[fn], callee)
					work = append(work, callee)
				} else {
					var df DeviceFact
					var kf KernelFact
					if pass.ImportObjectFact(callee, &df) && df.Dims > own[fn] {
						own[fn] = df.Dims
					} else if pass.ImportObjectFact(callee, &kf) && kf.Dims > own[fn] {
						own[fn] = kf.Dims
					}
				}
			}
			return true
		})
	}
	// Propagate dimensions up the call graph to a fixed point (the graph
	// may have cycles, which memspace reports as recursion).
	for changed := true; changed; {
		changed = false
		for fn, cs := range callees {
			for _, c := range cs {
				if own[c] > own[fn] {
					own[fn] = own[c]
					changed = true
				}
			}
		}
	}
	return own
}

// dimOfSelector returns 2 for a read of .Y and 3 for .Z of a gpu.Dim3 value,
// else 0.
func dimOfSelector(pass *analysis.Pass, sel *ast.SelectorExpr) int {
	var d int
	switch sel.Sel.Name {
	case "Y":
		d = 2
	case "Z":
		d = 3
	default:
		return 0
	}
	if isNamed(pass.TypesInfo.TypeOf(sel.X), GPUPath, "Dim3") {
		return d
	}
	return 0
}

func isNamed(t types.Type, path, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// IsThread reports whether t is gpu.Thread.
func IsThread(t types.Type) bool { return isNamed(t, GPUPath, "Thread") }

// checkSignature returns a message and position if a kernel's signature
// breaks the dialect: a method, type parameters, results, or a first
// parameter that is not gpu.Thread. Parameter types are memspace's concern.
func checkSignature(pass *analysis.Pass, fd *ast.FuncDecl, fn *types.Func) (string, token.Pos) {
	sig := fn.Signature()
	switch {
	case sig.Recv() != nil:
		return "a //gpu:kernel must be a top-level function, not a method", fd.Name.Pos()
	case sig.TypeParams().Len() > 0:
		return "a //gpu:kernel cannot have type parameters; call a generic device function from it instead", fd.Name.Pos()
	case sig.Results().Len() > 0:
		return "a //gpu:kernel has no results; write them to a slice parameter", fd.Type.Results.Pos()
	case sig.Params().Len() == 0 || !IsThread(sig.Params().At(0).Type()):
		pos := fd.Type.Params.Pos()
		if sig.Params().Len() > 0 {
			pos = fd.Type.Params.List[0].Pos()
		}
		return "the first parameter of a //gpu:kernel must be a gpu.Thread", pos
	}
	return "", token.NoPos
}
