package memspace

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
	"github.com/gpukvet/gpukvet/internal/directive"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kernels"
)

// checkLaunches checks every call of (*device.Device).Launch in the package
// as vet's printf check checks format strings: the kernel must be a
// //gpu:kernel function, constant launch shapes must fit its block=, grid=
// and dimensionality, and the arguments must match its parameters in number
// and type, with a *device.Buffer[T] for each []T parameter.
func checkLaunches(pass *analysis.Pass, kres *kernels.Result) {
	var launches []*launchSite
	registered := map[*types.Func]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch deviceapi.Func(typeutil.StaticCallee(pass.TypesInfo, call)) {
			case deviceapi.Launch:
				launches = appendSite(launches, call, call.Args)
			case deviceapi.LaunchWithin:
				// LaunchWithin(ulps, kernel, grid, block, args...) is
				// Launch after its tolerance.
				launches = appendSite(launches, call, call.Args[min(1, len(call.Args)):])
			case deviceapi.RegisterKernel:
				if len(call.Args) > 0 {
					if fn := funcOf(pass.TypesInfo, astutil.Unparen(call.Args[0])); fn != nil {
						registered[fn] = true
					}
				}
			}
			return true
		})
	}
	if len(launches) == 0 {
		return
	}
	shapes := singleValues(pass)
	fv := newFuncValues(pass)
	for _, site := range launches {
		checkLaunch(pass, kres, registered, shapes, fv, site)
	}
	for _, site := range wrapperSites(pass, fv, launches) {
		checkLaunch(pass, kres, registered, shapes, fv, site)
	}
}

// singleValues maps each local or unexported package-level variable that
// is assigned exactly once, in its declaration, and never has its address
// taken or a field assigned, to
// that value: grid := gpu.Dim3{...} then Launch(k, grid, ...) is checked as
// if the literal were written in the call.
func singleValues(pass *analysis.Pass) map[types.Object]ast.Expr {
	info := pass.TypesInfo
	values := map[types.Object]ast.Expr{}
	spoiled := map[types.Object]bool{}
	assign := func(lhs ast.Expr, rhs ast.Expr, define bool) {
		switch l := astutil.Unparen(lhs).(type) {
		case *ast.Ident:
			obj := info.ObjectOf(l)
			if obj == nil {
				return
			}
			if _, seen := values[obj]; seen || !define || rhs == nil {
				spoiled[obj] = true
				return
			}
			values[obj] = rhs
		case *ast.SelectorExpr:
			if id, ok := astutil.Unparen(l.X).(*ast.Ident); ok {
				if obj := info.ObjectOf(id); obj != nil {
					spoiled[obj] = true
				}
			}
		}
	}
	assignments(pass.Files, func(lhs, rhs ast.Expr, tok token.Token) {
		assign(lhs, rhs, tok == token.DEFINE || tok == token.VAR)
	})
	for obj := range values {
		// A package-level variable counts only when unexported: this
		// package holds every assignment to it, and none changed it.
		v, ok := obj.(*types.Var)
		if spoiled[obj] || !ok || isPackageLevel(v) && v.Exported() {
			delete(values, obj)
		}
	}
	return values
}

// appendSite appends the launch that call makes with args, the arguments
// of Launch from the kernel on, unless they are too few to type-check.
func appendSite(sites []*launchSite, call *ast.CallExpr, args []ast.Expr) []*launchSite {
	if len(args) < 3 {
		return sites
	}
	return append(sites, &launchSite{node: call, kernel: args[0], grid: args[1], block: args[2],
		args: args[3:], ellipsis: call.Ellipsis.IsValid()})
}

// checkLaunch checks one call of Launch. A function that the package
// registers with device.RegisterKernel (as generated code does) counts as a
// kernel whose parameters are checked when it has a KernelFact.
func checkLaunch(pass *analysis.Pass, kres *kernels.Result, registered map[*types.Func]bool, shapes map[types.Object]ast.Expr, fv *funcValues, call *launchSite) {
	kexpr := astutil.Unparen(call.kernel)
	fn := funcOf(pass.TypesInfo, kexpr)
	if fn != nil {
		checkKernelLaunch(pass, kres, registered, shapes, call, kexpr, fn)
		return
	}
	if _, isLit := kexpr.(*ast.FuncLit); isLit {
		pass.ReportRangef(kexpr, "Launch of a function literal, which is not a //gpu:kernel function: only top-level functions marked //gpu:kernel can run on the device")
		return
	}
	if t := pass.TypesInfo.TypeOf(kexpr); t != nil && !types.IsInterface(t) {
		if _, ok := t.Underlying().(*types.Signature); !ok {
			pass.ReportRangef(kexpr, "Launch of %s, which is not a function: the first argument of Launch is a //gpu:kernel function", render(kexpr))
			return
		}
	}
	// A function value: check what the package shows it may hold.
	vals := fv.values(kexpr, 0)
	if vals == nil {
		return // which function is unknown here; Launch checks at run time
	}
	var fns []*types.Func
	unknown := false
	for _, v := range vals {
		v = astutil.Unparen(v)
		if _, isLit := v.(*ast.FuncLit); isLit {
			pass.ReportRangef(kexpr, "Launch of %s, which holds a function literal (line %d), not a //gpu:kernel function: only top-level functions marked //gpu:kernel can run on the device",
				render(kexpr), pass.Fset.Position(v.Pos()).Line)
			return
		}
		if sel, ok := v.(*ast.SelectorExpr); ok {
			if s := pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				pass.ReportRangef(kexpr, "Launch of %s, which holds the method value %s, not a //gpu:kernel function: only top-level functions marked //gpu:kernel can run on the device",
					render(kexpr), render(v))
				return
			}
		}
		f := funcOf(pass.TypesInfo, v)
		if f == nil {
			unknown = true
			continue
		}
		if !slices.Contains(fns, f) {
			fns = append(fns, f)
		}
	}
	for _, f := range fns {
		if kres.KernelFact(f) == nil && !registered[f.Origin()] {
			pass.ReportRangef(kexpr, "Launch of %s, which holds %s, not a //gpu:kernel function: only functions marked //gpu:kernel can run on the device", render(kexpr), f.Name())
			return
		}
	}
	if len(fns) == 1 && !unknown {
		checkKernelLaunch(pass, kres, registered, shapes, call, kexpr, fns[0])
	}
}

// checkKernelLaunch checks a Launch of fn, which kexpr names or holds.
func checkKernelLaunch(pass *analysis.Pass, kres *kernels.Result, registered map[*types.Func]bool, shapes map[types.Object]ast.Expr, call *launchSite, kexpr ast.Expr, fn *types.Func) {
	kf := kres.KernelFact(fn)
	if kf == nil && registered[fn.Origin()] {
		return
	}
	if kf == nil {
		pass.ReportRangef(kexpr, "Launch of %s, which is not a //gpu:kernel function: only functions marked //gpu:kernel can run on the device", render(kexpr))
		return
	}
	name := fn.Name()
	if call.grid != nil {
		checkShapeArg(pass, shapes, name, "grid", call.grid, kf.Grid, kf.Dims)
	}
	if call.block != nil {
		checkShapeArg(pass, shapes, name, "block", call.block, kf.Block, kf.Dims)
	}

	params := fn.Signature().Params()
	if params.Len() == 0 || !gpuapi.IsThread(params.At(0).Type()) || fn.Signature().TypeParams().Len() > 0 {
		return // a bad signature, reported where the kernel is declared
	}
	if call.ellipsis {
		return // args... : the count and types are known only at run time
	}
	args := call.args
	want := params.Len() - 1
	if len(args) != want {
		at := call.node
		if len(args) > want {
			at = args[want]
		}
		pass.ReportRangef(at, "Launch of %s with %d arguments after the shapes, but the kernel takes %d (%s)",
			name, len(args), want, paramList(pass.Pkg, params))
		return
	}
	for i, a := range args {
		checkArg(pass, name, params.At(i+1), a)
	}
}

// funcOf returns the function that e names (F, pkg.F, F[T], or a method
// value), or nil.
func funcOf(info *types.Info, e ast.Expr) *types.Func {
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	switch x := astutil.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := info.Uses[x.Sel].(*types.Func)
		return fn
	}
	return nil
}

func paramList(pkg *types.Package, params *types.Tuple) string {
	var parts []string
	for i := 1; i < params.Len(); i++ {
		p := params.At(i)
		parts = append(parts, strings.TrimSpace(p.Name()+" "+typeString(pkg, p.Type())))
	}
	return strings.Join(parts, ", ")
}

// checkArg checks the argument a for the kernel parameter p.
func checkArg(pass *analysis.Pass, kernel string, p *types.Var, a ast.Expr) {
	tv, ok := pass.TypesInfo.Types[a]
	if !ok {
		return
	}
	pt := p.Type()
	where := fmt.Sprintf("Launch of %s: argument for parameter %s %s", kernel, p.Name(), typeString(pass.Pkg, pt))
	if tv.IsNil() {
		pass.ReportRangef(a, "%s is nil", where)
		return
	}
	at := tv.Type
	if types.IsInterface(at) {
		return // known only at run time
	}
	if s, ok := pt.Underlying().(*types.Slice); ok {
		elem, isBuf := bufferElem(at)
		switch {
		case isBuf && !types.Identical(elem, s.Elem()):
			pass.ReportRangef(a, "%s is a *device.Buffer[%s]; it needs a *device.Buffer[%s]",
				where, typeString(pass.Pkg, elem), typeString(pass.Pkg, s.Elem()))
		case isBuf:
		case isSlice(at):
			pass.ReportRangef(a, "%s is the host slice %s (%s); pass a *device.Buffer[%s] (device.Upload copies a host slice to the device)",
				where, render(a), typeString(pass.Pkg, at), typeString(pass.Pkg, s.Elem()))
		default:
			pass.ReportRangef(a, "%s has type %s; a slice parameter takes a *device.Buffer[%s]",
				where, typeString(pass.Pkg, at), typeString(pass.Pkg, s.Elem()))
		}
		return
	}
	if _, isBuf := bufferElem(at); isBuf {
		pass.ReportRangef(a, "%s is a device buffer, but the parameter is not a slice", where)
		return
	}
	if tv.Value != nil {
		checkConstArg(pass, where, pt, a, tv)
		return
	}
	if types.Identical(at, pt) {
		return
	}
	d := analysis.Diagnostic{
		Pos: a.Pos(), End: a.End(),
		Message: fmt.Sprintf("%s has type %s; the types must match (Launch converts only ints and float64s, at run time, and fails if the value does not fit)", where, typeString(pass.Pkg, at)),
	}
	if types.ConvertibleTo(at, pt) && isNumeric(at) && isNumeric(pt) {
		d.SuggestedFixes = []analysis.SuggestedFix{conversionFix(pass.Pkg, pt, a)}
	}
	pass.Report(d)
}

// checkConstArg checks a constant argument. In Launch's ...any an untyped
// constant becomes a bool, rune, int, float64 or string; the run time
// converts an int or float64 to a numeric parameter type exactly as Go
// converts the constant, and refuses any other mismatch.
func checkConstArg(pass *analysis.Pass, where string, pt types.Type, a ast.Expr, tv types.TypeAndValue) {
	got := tv.Type // as converted to any: the default type of an untyped constant
	if types.Identical(got, pt) {
		return
	}
	b, _ := pt.Underlying().(*types.Basic)
	numeric := b != nil && b.Info()&types.IsNumeric != 0 && b.Info()&types.IsComplex == 0
	if numeric && runtimeConverts(tv.Value, got, b) {
		return
	}
	d := analysis.Diagnostic{
		Pos: a.Pos(), End: a.End(),
		Message: fmt.Sprintf("%s is the constant %s, which Launch receives as %s and cannot convert to %s",
			where, tv.Value.String(), typeString(pass.Pkg, got), typeString(pass.Pkg, pt)),
	}
	if numeric && representable(tv.Value, pt) {
		d.Message += fmt.Sprintf("; write %s(%s)", typeString(pass.Pkg, pt), render(a))
		d.SuggestedFixes = []analysis.SuggestedFix{conversionFix(pass.Pkg, pt, a)}
	}
	pass.Report(d)
}

// runtimeConverts mirrors device's conversion of an int or float64
// argument to a numeric parameter type b: exact, as for a constant.
func runtimeConverts(v constant.Value, def types.Type, b *types.Basic) bool {
	db, ok := def.(*types.Basic)
	if !ok {
		return false
	}
	switch db.Kind() {
	case types.Int, types.Float64:
	default:
		return false // a rune, bool or string default type is never converted
	}
	if db.Kind() == types.Float64 && b.Info()&types.IsInteger != 0 {
		// A float64 converts to an integer type only if it is whole.
		if constant.ToInt(v).Kind() != constant.Int {
			return false
		}
	}
	return representable(v, b)
}

// representable reports whether the constant v converts to the basic type
// t as Go converts constants: integers exactly and in range, floats
// rounded but finite.
func representable(v constant.Value, t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	switch {
	case b.Info()&types.IsInteger != 0:
		v = constant.ToInt(v)
		if v.Kind() != constant.Int {
			return false
		}
		bits := uint(intBits[b.Kind()])
		if bits == 0 {
			return false
		}
		if b.Info()&types.IsUnsigned != 0 {
			limit := constant.Shift(constant.MakeInt64(1), token.SHL, bits)
			return constant.Sign(v) >= 0 && constant.Compare(v, token.LSS, limit)
		}
		limit := constant.Shift(constant.MakeInt64(1), token.SHL, bits-1)
		return constant.Compare(v, token.LSS, limit) && constant.Compare(v, token.GEQ, constant.UnaryOp(token.SUB, limit, 0))
	case b.Kind() == types.Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return constant.ToFloat(v).Kind() == constant.Float && !math.IsInf(float64(f), 0)
	case b.Kind() == types.Float64:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return constant.ToFloat(v).Kind() == constant.Float && !math.IsInf(f, 0)
	}
	return false
}

var intBits = map[types.BasicKind]int{
	types.Int: 64, types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Int64: 64,
	types.Uint: 64, types.Uint8: 8, types.Uint16: 16, types.Uint32: 32, types.Uint64: 64, types.Uintptr: 64,
}

func conversionFix(pkg *types.Package, pt types.Type, a ast.Expr) analysis.SuggestedFix {
	text := typeString(pkg, pt) + "("
	return analysis.SuggestedFix{
		Message: "convert to " + typeString(pkg, pt),
		TextEdits: []analysis.TextEdit{
			{Pos: a.Pos(), End: a.Pos(), NewText: []byte(text)},
			{Pos: a.End(), End: a.End(), NewText: []byte(")")},
		},
	}
}

// bufferElem returns T for *device.Buffer[T].
func bufferElem(t types.Type) (types.Type, bool) {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return nil, false
	}
	// Only a pointer to the Buffer itself: a **device.Buffer (&b of a
	// buffer variable) is some other value.
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || !deviceapi.IsBuffer(n) || n.TypeArgs().Len() != 1 {
		return nil, false
	}
	return n.TypeArgs().At(0), true
}

func isSlice(t types.Type) bool { _, ok := t.Underlying().(*types.Slice); return ok }

func isNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0 && b.Info()&types.IsComplex == 0
}

// checkShapeArg checks a grid or block argument whose extents are
// constants (a gpu.Dim3 composite literal): each extent at least 1, equal
// to the kernel's block= or grid= if it fixes one, and 1 in the dimensions
// the kernel never reads.
func checkShapeArg(pass *analysis.Pass, shapes map[types.Object]ast.Expr, kernel, what string, e ast.Expr, fixed [3]int, dims int) {
	lit := e
	if id, ok := astutil.Unparen(e).(*ast.Ident); ok {
		if v := shapes[pass.TypesInfo.Uses[id]]; v != nil {
			lit = v
		}
	}
	shape, known, ok := constShape(pass.TypesInfo, lit)
	if !ok {
		return
	}
	axes := "XYZ"
	for d := range 3 {
		if known[d] && d >= dims && shape[d] != 1 && shape[d] >= 1 {
			pass.ReportRangef(e, "Launch of %s: %s has extent %d in %c, but %s is %d-dimensional (it never reads %c of an index or extent), so the extent must be 1",
				kernel, what, shape[d], axes[d], kernel, dims, axes[d])
			return
		}
	}
	if directive.Fixed(fixed) {
		for d := range 3 {
			if known[d] && shape[d] != fixed[d] {
				pass.ReportRangef(e, "Launch of %s: %s has extent %d in %c, but the kernel's //gpu:kernel directive fixes %s=%d,%d,%d",
					kernel, what, shape[d], axes[d], what, fixed[0], fixed[1], fixed[2])
				return
			}
		}
	}
	for d := range 3 {
		if known[d] && shape[d] < 1 {
			pass.ReportRangef(e, "Launch of %s: %s has extent %d in %c, and Launch refuses extents below 1 (an unused dimension has extent 1: write %c: 1)",
				kernel, what, shape[d], axes[d], axes[d])
			return
		}
	}
}

// constShape evaluates a gpu.Dim3 composite literal: the extents that are
// constants (a missing field is 0), and which ones are known.
func constShape(info *types.Info, e ast.Expr) (shape [3]int, known [3]bool, ok bool) {
	lit, isLit := astutil.Unparen(e).(*ast.CompositeLit)
	if !isLit {
		return shape, known, false
	}
	if !gpuapi.IsDim3(info.TypeOf(lit)) {
		return shape, known, false
	}
	known = [3]bool{true, true, true}
	for i, elt := range lit.Elts {
		d, val := i, elt
		if kv, isKV := elt.(*ast.KeyValueExpr); isKV {
			id, _ := kv.Key.(*ast.Ident)
			if id == nil {
				return shape, known, false
			}
			d = strings.Index("XYZ", id.Name)
			val = kv.Value
		}
		if d < 0 || d > 2 {
			return shape, known, false
		}
		tv := info.Types[val]
		if tv.Value == nil {
			known[d] = false
			continue
		}
		x, exact := constant.Int64Val(constant.ToInt(tv.Value))
		if !exact {
			known[d] = false
			continue
		}
		shape[d] = int(x)
	}
	return shape, known, true
}
