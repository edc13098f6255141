// Package kernels finds the kernels and device functions of a package: the
// //gpu:kernel and //gpu:device directives, the functions of a kernel's own
// package that kernels call, and the dimensionality of each kernel (with
// internal/kerneldims, which the runtime uses too). It parses
// the directives once, for every other analysis, and exports what it found as
// facts so that analyses of other packages know the same.
//
// It reports nothing itself: malformed directives (block=0, block=a, an
// unknown option, two directives on one function, a //gpu: comment that is
// not in a function's doc comment, block= or grid= beyond the limits of
// internal/targets), block= or grid= shapes wider than the kernel's
// dimensionality, bad kernel signatures (variadic kernels and kernels named
// _ included), kernels beyond a target's shared memory (the gpu.Shared
// variables of the kernel's call tree) or parameter space, and local
// variables of kernel code beyond the compiler's bound (targets.MaxLocalVar)
// are in Result.Problems, which the memspace analyzer reports.
//
// Facts belong to the analyzer that exports them, so other analyzers look
// kernels and device functions of other packages up through the Result
// (KernelFact, DeviceFact), never with their own pass's ImportObjectFact.
package kernels

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/deviceapi"
	"github.com/gpukvet/gpukvet/internal/directive"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kerneldims"
	"github.com/gpukvet/gpukvet/internal/targets"
)

// Analyzer computes the Result for a package.
var Analyzer = define.Guarded(&analysis.Analyzer{
	Name:       "gpukernels",
	Doc:        "find //gpu:kernel and //gpu:device functions (a fact provider; reports nothing)",
	URL:        "https://github.com/gpukvet/gpukvet/tree/main/internal/kernels",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(KernelFact), new(DeviceFact)},
})

// Kernel is one //gpu:kernel function of the package.
type Kernel struct {
	Func *types.Func
	Decl *ast.FuncDecl
	// Comment is the //gpu:kernel comment.
	Comment *ast.Comment
	// Block and Grid are the shapes fixed by block= and grid= (all zero if
	// not fixed; missing dimensions are 1).
	Block, Grid [3]int
	// Dims is 1, 2 or 3: how many leading dimensions of any index or extent
	// the kernel (or a device function it calls) reads.
	Dims int
	// Problems are this kernel's entries of Result.Problems that no
	// target can compile or launch: a bad signature, a target limit
	// exceeded. The compiler refuses the kernel with them even when no
	// check runs.
	Problems []analysis.Diagnostic
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
	// Marked holds the device functions marked //gpu:device (the others
	// in Device are there because a kernel or device function calls them).
	Marked map[*types.Func]bool
	// Problems are malformed directives and kernels with a bad signature.
	Problems []analysis.Diagnostic

	kernelOf   map[*types.Func]*Kernel
	importFact func(types.Object, analysis.Fact) bool
}

// Kernel returns the kernel fn of this package, or nil.
func (r *Result) Kernel(fn *types.Func) *Kernel { return r.kernelOf[origin(fn)] }

// KernelFact marks an exported kernel for other packages.
type KernelFact struct {
	Block, Grid [3]int
	Dims        int
}

func (*KernelFact) AFact() {}

func (f *KernelFact) String() string {
	s := fmt.Sprintf("gpu kernel dims=%d", f.Dims)
	if directive.Fixed(f.Block) {
		s += " block=" + shapeString(f.Block)
	}
	if directive.Fixed(f.Grid) {
		s += " grid=" + shapeString(f.Grid)
	}
	return s
}

func shapeString(s [3]int) string { return fmt.Sprintf("%d,%d,%d", s[0], s[1], s[2]) }

// DeviceFact marks a function callable from kernels of other packages.
type DeviceFact struct {
	// Dims is how many leading dimensions of indices it reads (0 if none).
	Dims int
	// Shared is the bytes of gpu.Shared variables it and its callees
	// declare, which count against the shared memory of every kernel
	// that calls it.
	Shared int64
}

func (*DeviceFact) AFact() {}

func (f *DeviceFact) String() string {
	s := fmt.Sprintf("gpu device function dims=%d", f.Dims)
	if f.Shared > 0 {
		s += fmt.Sprintf(" shared=%d", f.Shared)
	}
	return s
}

// KernelFact returns the KernelFact of fn (a kernel of this or any other
// package), or nil if fn is not a kernel.
func (r *Result) KernelFact(fn *types.Func) *KernelFact {
	f := new(KernelFact)
	if fn == nil || r.importFact == nil || !r.importFact(origin(fn), f) {
		return nil
	}
	return f
}

// DeviceFact returns the DeviceFact of fn (an exported device function or
// method of this or any other package), or nil.
func (r *Result) DeviceFact(fn *types.Func) *DeviceFact {
	f := new(DeviceFact)
	if fn == nil || r.importFact == nil || !r.importFact(origin(fn), f) {
		return nil
	}
	return f
}

func origin(fn *types.Func) *types.Func {
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// irrelevant is the result for every package without a kernel in sight; it
// is shared so that the fast path allocates nothing.
var irrelevant = &Result{}

func run(pass *analysis.Pass) (any, error) {
	importsDevice, relevant := false, false
	for _, imp := range pass.Pkg.Imports() {
		switch imp.Path() {
		case gpuapi.Path:
			relevant = true
		case deviceapi.Path:
			relevant = true
			importsDevice = true
		}
	}
	if !relevant && !directive.Mentioned(pass.Files) {
		return irrelevant, nil
	}
	res := &Result{
		Relevant:      true,
		ImportsDevice: importsDevice,
		Device:        map[*types.Func]*ast.FuncDecl{},
		Marked:        map[*types.Func]bool{},
		kernelOf:      map[*types.Func]*Kernel{},
		importFact:    pass.ImportObjectFact,
	}

	decls := map[*types.Func]*ast.FuncDecl{}
	attached := map[*ast.Comment]bool{}
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
			if fd.Doc != nil {
				for _, c := range fd.Doc.List {
					attached[c] = true
				}
			}
			dir, err := directive.Find(fd.Doc)
			if err != nil {
				e := err.(*directive.Error)
				res.problem(e.Comment.Pos(), e.Comment.End(), e.Msg)
				continue
			}
			switch dir.Kind {
			case directive.Kernel:
				k := &Kernel{Func: fn, Decl: fd, Comment: dir.Comment, Block: dir.Block, Grid: dir.Grid}
				if msg, pos := checkSignature(pass, fd, fn); msg != "" {
					res.kernelProblem(k, pos, token.NoPos, msg)
				} else {
					checkParamSpace(pass, k, res)
				}
				res.Kernels = append(res.Kernels, k)
				res.kernelOf[fn] = k
				roots = append(roots, fn)
			case directive.Device:
				res.Device[fn] = fd
				res.Marked[fn] = true
				roots = append(roots, fn)
			}
		}
	}
	strayDirectives(pass, attached, res)

	g := reach(pass, decls, roots, res)
	for _, k := range res.Kernels {
		k.Dims = max(1, g.dims[k.Func])
		checkShape(k, "block", k.Block, res)
		checkShape(k, "grid", k.Grid, res)
		checkShared(k, g, res)
		pass.ExportObjectFact(k.Func, &KernelFact{Block: k.Block, Grid: k.Grid, Dims: k.Dims})
	}
	for fn := range res.Device {
		if fn.Exported() || fn.Signature().Recv() != nil {
			var total int64
			for _, u := range g.sharedUnder(fn) {
				total = addBytes(total, u.bytes)
			}
			pass.ExportObjectFact(fn, &DeviceFact{Dims: g.dims[fn], Shared: total})
		}
	}
	sort.SliceStable(res.Problems, func(i, j int) bool { return res.Problems[i].Pos < res.Problems[j].Pos })
	return res, nil
}

func (r *Result) problem(pos, end token.Pos, msg string) {
	r.Problems = append(r.Problems, analysis.Diagnostic{Pos: pos, End: end, Category: "directive", Message: msg})
}

// kernelProblem records a problem that keeps kernel k from compiling or
// launching on any target.
func (r *Result) kernelProblem(k *Kernel, pos, end token.Pos, msg string) {
	r.problem(pos, end, msg)
	k.Problems = append(k.Problems, r.Problems[len(r.Problems)-1])
}

// strayDirectives reports //gpu: comments that are not in the doc comment of
// a function declaration, where they would silently do nothing.
func strayDirectives(pass *analysis.Pass, attached map[*ast.Comment]bool, res *Result) {
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if attached[c] || !strings.HasPrefix(c.Text, "//gpu:") {
					continue
				}
				res.problem(c.Pos(), c.End(), fmt.Sprintf("%s has no effect here: a //gpu: directive belongs in the doc comment of a function declaration", strings.Fields(c.Text)[0]))
			}
		}
	}
}

// checkShape reports a block= or grid= shape wider than 1 in a dimension
// that the kernel never reads: DIALECT.md launches such a kernel with
// extent 1 there, so the shape could never be launched.
func checkShape(k *Kernel, key string, shape [3]int, res *Result) {
	if !directive.Fixed(shape) {
		return
	}
	for d := k.Dims; d < 3; d++ {
		if shape[d] != 1 {
			axis := "XYZ"[d : d+1]
			res.problem(k.Comment.Pos(), k.Comment.End(), fmt.Sprintf(
				"%s=%s gives kernel %s extent %d in %s, but the kernel never reads a %s index or extent, so it is %d-dimensional and must be launched with extent 1 in %s",
				key, shapeString(shape), k.Func.Name(), shape[d], axis, axis, k.Dims, axis))
			return
		}
	}
}

// graph is what reach found: the call graph among the package's functions
// reached from the roots, each one's dimensionality, and the gpu.Shared
// variables each declares (or reaches in another package, through a call).
type graph struct {
	callees map[*types.Func][]*types.Func
	dims    map[*types.Func]int
	shared  map[*types.Func][]sharedUse
}

// sharedUse is block-shared memory that one function declares: a gpu.Shared
// call, or a call of another package's device function that declares some.
type sharedUse struct {
	pos, end token.Pos
	bytes    int64 // -1: more than an int64 holds
}

// sharedUnder returns the shared memory that fn and every function it
// calls, transitively, declare, in source order. A gpu.Shared call is one
// variable per block however many callers reach it (gpu.Shared's contract),
// so each counts once.
func (g *graph) sharedUnder(fn *types.Func) []sharedUse {
	var uses []sharedUse
	seen := map[*types.Func]bool{}
	work := []*types.Func{fn}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[f] {
			continue
		}
		seen[f] = true
		uses = append(uses, g.shared[f]...)
		work = append(work, g.callees[f]...)
	}
	sort.Slice(uses, func(i, j int) bool { return uses[i].pos < uses[j].pos })
	return uses
}

// addBytes adds shared sizes, -1 standing for "more than an int64".
func addBytes(a, b int64) int64 {
	if a < 0 || b < 0 || a+b < a {
		return -1
	}
	return a + b
}

// sizes is the layout kernels' values have on every target: Go's (gc,
// amd64), which the compiler keeps for buffers and by-value structs.
var sizes = types.SizesFor("gc", "amd64")

// reach adds to res.Device every function of this package that a root calls,
// transitively, and returns the call graph among them, the number of leading
// index dimensions each (or its callees) reads, and the shared memory each
// declares.
func reach(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, roots []*types.Func, res *Result) *graph {
	shared := map[*types.Func][]sharedUse{}
	r := &typedResolver{pass: pass, decls: decls, shared: shared, kernelOf: res.kernelOf}
	g := kerneldims.Walk(r, roots, func(fn *types.Func, n ast.Node) {
		switch n := n.(type) {
		case *ast.CallExpr:
			if b, ok := sharedBytes(pass, n); ok {
				shared[fn] = append(shared[fn], sharedUse{n.Pos(), n.End(), b})
			}
		case *ast.Ident:
			// A local variable beyond the compiler's bound, which
			// codegen/lower would refuse.
			if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok && !v.IsField() {
				if size, ok := sharedSize(v.Type()); ok && (size < 0 || size > targets.MaxLocalVar) {
					if size < 0 {
						size = math.MaxInt64
					}
					res.problem(n.Pos(), n.End(), targets.LocalVarMessage(n.Name, size))
				}
			}
		}
	})
	for _, fn := range g.Reached {
		if res.kernelOf[fn] == nil {
			res.Device[fn] = decls[fn]
		}
	}
	// A function of the package declared without a body (assembly, or
	// //go:linkname to another) is kernel code too when called, so that
	// memspace reports it: the walk has no body of it to visit.
	for _, callees := range g.Callees {
		for _, fn := range callees {
			if fd := decls[fn]; fd != nil && fd.Body == nil && res.kernelOf[fn] == nil {
				res.Device[fn] = fd
			}
		}
	}
	return &graph{callees: g.Callees, dims: g.Dims, shared: shared}
}

// typedResolver resolves names for kerneldims.Walk with the pass's types
// and the facts of other packages.
type typedResolver struct {
	pass     *analysis.Pass
	decls    map[*types.Func]*ast.FuncDecl
	shared   map[*types.Func][]sharedUse // gains the calls of other packages' device functions that declare shared memory
	kernelOf map[*types.Func]*Kernel
}

func (r *typedResolver) Decl(fn *types.Func) *ast.FuncDecl { return r.decls[fn] }

func (r *typedResolver) IsKernel(fn *types.Func) bool { return r.kernelOf[fn] != nil }

func (r *typedResolver) IsDim3(_ *types.Func, x ast.Expr) bool {
	t := r.pass.TypesInfo.TypeOf(x)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem() // p.Y with p a *gpu.Dim3
	}
	return gpuapi.IsDim3(t)
}

func (r *typedResolver) Refs(fn *types.Func, n ast.Node) ([]*types.Func, int) {
	id, ok := n.(*ast.Ident)
	if !ok {
		return nil, 0
	}
	callee, ok := r.pass.TypesInfo.Uses[id].(*types.Func)
	if !ok {
		return nil, 0
	}
	callee = callee.Origin()
	if callee.Pkg() == r.pass.Pkg {
		return []*types.Func{callee}, 0
	}
	var df DeviceFact
	var kf KernelFact
	if r.pass.ImportObjectFact(callee, &df) {
		if df.Shared > 0 {
			r.shared[fn] = append(r.shared[fn], sharedUse{id.Pos(), id.End(), df.Shared})
		}
		return nil, df.Dims
	}
	if r.pass.ImportObjectFact(callee, &kf) {
		return nil, kf.Dims
	}
	return nil, 0
}

// sharedBytes returns the size of the variable a gpu.Shared[T] call
// declares (T's), and whether call is one.
func sharedBytes(pass *analysis.Pass, call *ast.CallExpr) (int64, bool) {
	fun := kerneldims.Callee(call)
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return 0, false
	}
	fn, ok := pass.TypesInfo.Uses[id].(*types.Func)
	if !ok || gpuapi.Func(fn) != gpuapi.Shared {
		return 0, false
	}
	p, ok := pass.TypesInfo.TypeOf(call).(*types.Pointer)
	if !ok {
		return 0, false
	}
	n, ok := sharedSize(p.Elem())
	return n, ok
}

// sharedSize is t's size in bytes, -1 if it does not fit an int64 (go/types
// reports such sizes as negative), or 0 and false if t has no size of its
// own (a type parameter: each instance is checked where it is compiled).
func sharedSize(t types.Type) (n int64, ok bool) {
	defer func() {
		if recover() != nil {
			n, ok = 0, false
		}
	}()
	if n = sizes.Sizeof(t); n < 0 {
		n = -1
	}
	return n, true
}

// checkShared reports, at the gpu.Shared call that makes the sum overflow,
// a kernel whose call tree declares more shared memory than a block has.
func checkShared(k *Kernel, g *graph, res *Result) {
	limit := targets.Static.MaxShared
	var total int64
	var at *sharedUse
	uses := g.sharedUnder(k.Func)
	for i := range uses {
		total = addBytes(total, uses[i].bytes)
		if at == nil && (total < 0 || total > limit) {
			at = &uses[i]
		}
	}
	if at == nil {
		return
	}
	msg := targets.Static.SharedMessage(k.Func.Name(), total)
	if total < 0 {
		msg = targets.Static.SharedMessage(k.Func.Name(), math.MaxInt64)
		msg = strings.Replace(msg, fmt.Sprint(int64(math.MaxInt64)), "more than 2^63", 1)
	}
	res.kernelProblem(k, at.pos, at.end, msg)
}

// checkParamSpace reports a kernel whose parameters, as the ptx target
// passes them (a slice as its address and length, a struct by value, the
// trap record's address last), overflow the parameter space.
func checkParamSpace(pass *analysis.Pass, k *Kernel, res *Result) {
	sig := k.Func.Signature()
	var entry []targets.Param
	for i := 1; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		if _, ok := t.Underlying().(*types.Slice); ok {
			entry = append(entry, targets.Param{Size: 8, Align: 8}, targets.Param{Size: 8, Align: 8})
			continue
		}
		size, align := int64(8), int64(8)
		switch n, ok := sharedSize(t); {
		case ok && n < 0:
			size = math.MaxInt32 // beyond any limit
		case ok:
			size, align = n, sizes.Alignof(t)
		}
		entry = append(entry, targets.Param{Size: int(min(size, math.MaxInt32)), Align: int(align)})
	}
	entry = append(entry, targets.Param{Size: 8, Align: 8}) // the trap record's address
	if n := targets.ParamBytes(entry); n > targets.Static.MaxParams {
		params := k.Decl.Type.Params
		res.kernelProblem(k, params.Pos(), params.End(), targets.Static.ParamsMessage(k.Func.Name(), n))
	}
}

// checkSignature returns a message and position if a kernel's signature
// breaks the dialect: a method, type parameters, results, or a first
// parameter that is not gpu.Thread. Parameter types are memspace's concern.
func checkSignature(pass *analysis.Pass, fd *ast.FuncDecl, fn *types.Func) (string, token.Pos) {
	sig := fn.Signature()
	switch {
	case fn.Name() == "_":
		return "a //gpu:kernel cannot be named _: nothing could launch it, and `gpukvet gen` could not register it", fd.Name.Pos()
	case sig.Variadic():
		last := fd.Type.Params.List[len(fd.Type.Params.List)-1]
		return "a //gpu:kernel cannot be variadic: Launch passes a fixed list of parameters; take a slice parameter instead", last.Type.Pos()
	case sig.Recv() != nil:
		return "a //gpu:kernel must be a top-level function, not a method", fd.Name.Pos()
	case sig.TypeParams().Len() > 0:
		return "a //gpu:kernel cannot have type parameters; call a generic device function from it instead", fd.Name.Pos()
	case sig.Results().Len() > 0:
		return "a //gpu:kernel has no results; write them to a slice parameter", fd.Type.Results.Pos()
	case sig.Params().Len() == 0 || !gpuapi.IsThread(sig.Params().At(0).Type()):
		pos := fd.Type.Params.Pos()
		if sig.Params().Len() > 0 {
			pos = fd.Type.Params.List[0].Pos()
		}
		return "the first parameter of a //gpu:kernel must be a gpu.Thread", pos
	case isPointer(sig.Params().At(0).Type()):
		// gpuapi.IsThread accepts *gpu.Thread (method receivers); a kernel's
		// first parameter is what Launch passes, the Thread value itself.
		return fmt.Sprintf("the first parameter of a //gpu:kernel must be a gpu.Thread, not %s",
			types.TypeString(sig.Params().At(0).Type(), func(p *types.Package) string { return p.Name() })), fd.Type.Params.List[0].Pos()
	}
	return "", token.NoPos
}

func isPointer(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}
