package memspace

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kernelapi"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

// A codeFunc is a kernel or device function of the package under analysis.
type codeFunc struct {
	fn       *types.Func
	decl     *ast.FuncDecl
	isKernel bool
	breaks   []violation // its own violations, in source order
	calls    []callEdge  // its calls of functions of this package
}

// A violation is one rule of kernel code broken at one expression.
type violation struct {
	pos, end token.Pos
	msg      string // the diagnostic
	what     string // short, for call chains and facts: "uses a map"
}

type callEdge struct {
	callee *types.Func
	pos    token.Pos
}

// checkKernelCode checks the bodies of the package's kernels and device
// functions, reports every violation (with the call chain from a kernel
// when it sits in a function that a kernel reaches through calls), exports a
// BreaksFact for every exported device function that breaks a rule, and
// returns the set of functions that break one directly or through calls.
func checkKernelCode(pass *analysis.Pass, kres *kernels.Result) map[*types.Func]bool {
	funcs := map[*types.Func]*codeFunc{}
	var order []*codeFunc
	add := func(fn *types.Func, fd *ast.FuncDecl, isKernel bool) {
		cf := &codeFunc{fn: fn, decl: fd, isKernel: isKernel}
		funcs[fn] = cf
		order = append(order, cf)
	}
	for _, k := range kres.Kernels {
		add(k.Func, k.Decl, true)
	}
	for fn, fd := range kres.Device {
		add(fn, fd, false)
	}
	sort.Slice(order, func(i, j int) bool { return order[i].decl.Pos() < order[j].decl.Pos() })

	for _, cf := range order {
		c := &bodyChecker{pass: pass, kres: kres, cf: cf, called: map[ast.Expr]bool{}, initialized: map[types.Object]bool{}, escapes: map[types.Object]string{}}
		c.checkSignature()
		if cf.decl.Body != nil {
			ast.Inspect(cf.decl.Body, c.visit)
		} else {
			kind := "function"
			if cf.isKernel {
				kind = "kernel"
			}
			c.report(cf.decl.Name, "needs "+cf.fn.Name()+", which has no Go body", "%s %s has no body: kernel code must be Go source the compiler can see (an implementation in assembly or through linkname cannot run on the GPU)", kind, cf.fn.Name())
		}
		checkIterationVars(cf, pass.ResultOf[kernelssa.Analyzer].(*kernelssa.SSA))
		var local []callEdge
		for _, cl := range cf.calls {
			if funcs[cl.callee] != nil {
				local = append(local, cl)
			}
		}
		cf.calls = local
	}
	checkRecursion(funcs, order)
	checkBudget(pass, order)
	reportWithChains(pass, kres, funcs, order)
	return summarize(pass, kres, funcs, order)
}

// reportWithChains reports every violation; one in a function that is
// neither a kernel nor marked //gpu:device names the call chain from the
// first kernel (in source order) that reaches it.
func reportWithChains(pass *analysis.Pass, kres *kernels.Result, funcs map[*types.Func]*codeFunc, order []*codeFunc) {
	parent := map[*codeFunc]*codeFunc{}
	rootOf := map[*codeFunc]*codeFunc{}
	var roots []*codeFunc
	for _, cf := range order {
		if cf.isKernel {
			roots = append(roots, cf)
		}
	}
	for _, cf := range order {
		if !cf.isKernel && kres.Marked[cf.fn] {
			roots = append(roots, cf)
		}
	}
	// One breadth-first search per root, in order, so that a function is
	// attributed to the first kernel that reaches it, by a shortest chain.
	for _, root := range roots {
		if rootOf[root] != nil {
			continue
		}
		rootOf[root] = root
		queue := []*codeFunc{root}
		for len(queue) > 0 {
			cf := queue[0]
			queue = queue[1:]
			for _, cl := range cf.calls {
				callee := funcs[cl.callee]
				if rootOf[callee] == nil {
					rootOf[callee] = root
					parent[callee] = cf
					queue = append(queue, callee)
				}
			}
		}
	}
	for _, cf := range order {
		suffix := ""
		var related []analysis.RelatedInformation
		if root := rootOf[cf]; root != nil && root != cf {
			var path []string
			for n := cf; n != root; n = parent[n] {
				path = append(path, n.fn.Name())
				related = append(related, callsOf(parent[n], n)...)
			}
			slices.Reverse(related)
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			kind := "kernel"
			if !root.isKernel {
				kind = "device function"
			}
			suffix = fmt.Sprintf(" (reached from %s %s via %s)", kind, root.fn.Name(), strings.Join(path, " → "))
		}
		for _, v := range cf.breaks {
			pass.Report(analysis.Diagnostic{Pos: v.pos, End: v.end, Message: v.msg + suffix, Related: related})
		}
	}
}

// callsOf is the related information of caller's first call of callee
// (the edge the chain from a kernel to a violation took), as a list of one.
func callsOf(caller, callee *codeFunc) []analysis.RelatedInformation {
	for _, cl := range caller.calls {
		if cl.callee == callee.fn {
			return []analysis.RelatedInformation{{Pos: cl.pos, Message: caller.fn.Name() + " calls " + callee.fn.Name()}}
		}
	}
	return nil
}

// summarize propagates "breaks a rule" up the call graph, exports a
// BreaksFact for each exported device function that breaks one, and
// returns the set of such functions.
func summarize(pass *analysis.Pass, kres *kernels.Result, funcs map[*types.Func]*codeFunc, order []*codeFunc) map[*types.Func]bool {
	first := map[*codeFunc]*BreaksFact{}
	for _, cf := range order {
		if len(cf.breaks) > 0 {
			v := cf.breaks[0]
			p := pass.Fset.Position(v.pos)
			first[cf] = &BreaksFact{What: v.what, At: fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, cf := range order {
			if first[cf] != nil {
				continue
			}
			for _, cl := range cf.calls {
				if f := first[funcs[cl.callee]]; f != nil {
					first[cf] = f
					changed = true
					break
				}
			}
		}
	}
	broken := map[*types.Func]bool{}
	for cf, f := range first {
		broken[cf.fn] = true
		if !cf.isKernel && kres.DeviceFact(cf.fn) != nil {
			pass.ExportObjectFact(cf.fn, f)
		}
	}
	return broken
}

// checkRecursion adds a violation at every call that closes a cycle of
// calls (recursion, direct or mutual): kernels run without a call stack of
// unbounded depth.
func checkRecursion(funcs map[*types.Func]*codeFunc, order []*codeFunc) {
	for _, cf := range order {
		for _, cl := range cf.calls {
			back := pathTo(funcs, funcs[cl.callee], cf)
			if back == nil {
				continue
			}
			names := []string{cf.fn.Name()}
			for _, n := range back {
				names = append(names, n.fn.Name())
			}
			msg := fmt.Sprintf("recursive call of %s (%s): kernel code cannot recurse", cl.callee.Name(), strings.Join(names, " → "))
			cf.breaks = append(cf.breaks, violation{pos: cl.pos, msg: msg, what: "recurses"})
		}
		sort.SliceStable(cf.breaks, func(i, j int) bool { return cf.breaks[i].pos < cf.breaks[j].pos })
	}
}

// pathTo returns the shortest call path from from to to (both included),
// or nil.
func pathTo(funcs map[*types.Func]*codeFunc, from, to *codeFunc) []*codeFunc {
	parent := map[*codeFunc]*codeFunc{from: nil}
	queue := []*codeFunc{from}
	for len(queue) > 0 {
		cf := queue[0]
		queue = queue[1:]
		if cf == to {
			var path []*codeFunc
			for n := cf; n != nil; n = parent[n] {
				path = append([]*codeFunc{n}, path...)
			}
			return path
		}
		for _, cl := range cf.calls {
			next := funcs[cl.callee]
			if _, ok := parent[next]; !ok {
				parent[next] = cf
				queue = append(queue, next)
			}
		}
	}
	return nil
}

// bodyChecker checks one kernel or device function.
type bodyChecker struct {
	pass *analysis.Pass
	kres *kernels.Result
	cf   *codeFunc
	// called holds the expressions in the function position of a call.
	called map[ast.Expr]bool
	// initialized holds local variables declared with a non-constant
	// initial value, which is checked instead of the variable.
	initialized map[types.Object]bool
	// escapes maps a local variable that holds a pointer into (or a slice
	// of) the function's local memory to the name of that memory.
	escapes map[types.Object]string
}

// positioned is an ast.Node or anything else with a source range.
type positioned interface {
	Pos() token.Pos
}

func (c *bodyChecker) report(n positioned, what, msg string, args ...any) {
	end := token.NoPos
	if n, ok := n.(ast.Node); ok {
		end = n.End()
	}
	c.cf.breaks = append(c.cf.breaks, violation{pos: n.Pos(), end: end, what: what, msg: fmt.Sprintf(msg, args...)})
}

func (c *bodyChecker) typeString(t types.Type) string { return typeString(c.pass.Pkg, t) }

// typeString writes t with package names (not paths), as the user reads it.
func typeString(pkg *types.Package, t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	})
}

// checkSignature reports parameters and results of a device function that
// hold a host kind. (Kernel parameters are checked by checkKernelParams.)
func (c *bodyChecker) checkSignature() {
	if c.cf.isKernel {
		return
	}
	sig := c.cf.fn.Signature()
	for v := range sig.Params().Variables() {
		if k := hostKindOf(v.Type()); k != noHostKind {
			c.report(v, "takes "+k.what(), "parameter %s of device function %s has type %s: kernel code cannot use %s (%s)",
				v.Name(), c.cf.fn.Name(), c.typeString(v.Type()), k.what(), k.why())
		}
	}
	for v := range sig.Results().Variables() {
		if k := hostKindOf(v.Type()); k != noHostKind {
			at := positioned(c.cf.decl.Type.Results)
			if v.Name() != "" {
				at = v
			}
			c.report(at, "returns "+k.what(), "device function %s returns %s: kernel code cannot use %s (%s)",
				c.cf.fn.Name(), c.typeString(v.Type()), k.what(), k.why())
		}
	}
}

func (c *bodyChecker) visit(n ast.Node) bool {
	info := c.pass.TypesInfo
	switch n := n.(type) {
	case *ast.FuncLit:
		c.report(n, "uses a closure", "function literal: kernel code cannot use closures or function values")
		return false
	case *ast.GoStmt:
		c.report(n, "uses go", "go statement: kernel code cannot start goroutines, a host service")
		return false
	case *ast.DeferStmt:
		c.report(n, "uses defer", "defer statement: kernel code cannot defer calls, which needs host run-time support")
		return false
	case *ast.SelectStmt:
		c.report(n, "uses select", "select statement: kernel code cannot use channels, a host service")
		return false
	case *ast.SendStmt:
		c.report(n, "uses a channel", "channel send: kernel code cannot use channels, a host service")
		return false
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			c.report(n, "uses a channel", "channel receive: kernel code cannot use channels, a host service")
			return false
		}
	case *ast.CompositeLit:
		if t := info.TypeOf(n); t != nil {
			if _, ok := t.Underlying().(*types.Slice); ok {
				c.report(n, "allocates a slice", "slice literal: kernel code cannot allocate memory; use a fixed-size array")
				return false
			}
		}
	case *ast.ReturnStmt:
		c.checkEscape(n)
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			c.markInitialized(n.Lhs, n.Rhs)
		}
		c.trackEscapes(n)
	case *ast.ValueSpec:
		c.markInitialized(identExprs(n.Names), n.Values)
	case *ast.CallExpr:
		if c.checkCall(n) {
			return true // reported; its arguments may break other rules
		}
	case *ast.SelectorExpr:
		if id, ok := n.X.(*ast.Ident); ok {
			if pn, ok := info.Uses[id].(*types.PkgName); ok {
				c.checkQualified(n, pn.Imported())
				return false
			}
		}
		if sel := info.Selections[n]; sel != nil && sel.Kind() != types.FieldVal && !c.called[n] {
			c.report(n, "uses a function value", "method value %s.%s: kernel code cannot use function values", render(n.X), n.Sel.Name)
			ast.Inspect(n.X, c.visit)
			return false
		}
	case *ast.Ident:
		c.checkIdent(n)
		return false
	}
	if e, ok := n.(ast.Expr); ok {
		return c.checkExprType(e)
	}
	return true
}

// markInitialized records the variables of a declaration whose initial
// value is not a constant: the value is checked, not the variable, so that
// f := func() {...} is reported once, as a closure.
func (c *bodyChecker) markInitialized(lhs, rhs []ast.Expr) {
	if len(rhs) == 0 {
		return
	}
	for i, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id == nil {
			continue
		}
		init := rhs[0]
		if len(rhs) == len(lhs) {
			init = rhs[i]
		}
		tv, ok := c.pass.TypesInfo.Types[init]
		obj := c.pass.TypesInfo.Defs[id]
		if !ok || obj == nil || tv.Value != nil || tv.IsNil() {
			continue
		}
		// An implicit conversion (var x any = 1) is the variable's doing.
		if _, tuple := tv.Type.(*types.Tuple); tuple || types.Identical(tv.Type, obj.Type()) {
			c.initialized[obj] = true
		}
	}
}

func identExprs(ids []*ast.Ident) []ast.Expr {
	out := make([]ast.Expr, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// checkExprType reports an expression whose type is or holds a host kind,
// and says whether to look inside it.
func (c *bodyChecker) checkExprType(e ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[e]
	switch {
	case !ok:
		return true
	case tv.IsType():
		return false // type expressions: values and variables of the type are reported
	case tv.Value != nil, tv.IsNil(), c.called[e]:
		return true
	}
	if k := hostKindOf(tv.Type); k != noHostKind {
		c.report(e, "uses "+k.what(), "%s has type %s: kernel code cannot use %s (%s)", describeExpr(e), c.typeString(tv.Type), k.what(), k.why())
		return false
	}
	return true
}

func describeExpr(e ast.Expr) string {
	switch e := astutil.Unparen(e).(type) {
	case *ast.CallExpr:
		return render(e.Fun) + "(...)"
	case *ast.CompositeLit:
		return "composite literal"
	}
	s := render(e)
	if len(s) > 40 {
		return "expression"
	}
	return s
}

// checkIdent reports uses of package-level variables and of functions as
// values, and local variables declared with a host kind.
func (c *bodyChecker) checkIdent(id *ast.Ident) {
	info := c.pass.TypesInfo
	if obj, ok := info.Defs[id].(*types.Var); ok && !obj.IsField() {
		if id.Name == "_" || c.initialized[obj] {
			return
		}
		if k := hostKindOf(obj.Type()); k != noHostKind {
			c.report(id, "uses "+k.what(), "variable %s has type %s: kernel code cannot use %s (%s)", id.Name, c.typeString(obj.Type()), k.what(), k.why())
		}
		return
	}
	switch obj := info.Uses[id].(type) {
	case *types.Var:
		if isPackageLevel(obj) {
			name := obj.Name()
			if obj.Pkg() != c.pass.Pkg {
				name = obj.Pkg().Name() + "." + name
			}
			c.report(id, "uses package-level variable "+name, "package-level variable %s: kernel code cannot reach host memory (constants are fine)", name)
		}
	case *types.Func:
		if !c.called[id] {
			c.report(id, "uses a function value", "function %s used as a value: kernel code cannot use function values", obj.Name())
		}
	}
}

func isPackageLevel(v *types.Var) bool {
	return v.Pkg() != nil && !v.IsField() && v.Parent() == v.Pkg().Scope()
}

// checkQualified checks pkg.Name in kernel code.
func (c *bodyChecker) checkQualified(sel *ast.SelectorExpr, pkg *types.Package) {
	name := pkg.Name() + "." + sel.Sel.Name
	if k, ok := hostPackageKind[pkg.Path()]; ok {
		c.report(sel, "uses "+k.what(), "%s: kernel code cannot use %s (%s)", name, k.what(), k.why())
		return
	}
	switch obj := c.pass.TypesInfo.Uses[sel.Sel].(type) {
	case *types.Var:
		if isPackageLevel(obj) {
			c.report(sel, "uses package-level variable "+name, "package-level variable %s: kernel code cannot reach host memory (constants are fine)", name)
		}
	case *types.Func:
		if !c.called[sel] {
			c.report(sel, "uses a function value", "function %s used as a value: kernel code cannot use function values", name)
		}
	}
}

// checkCall checks a call: builtins that allocate or need the host, calls
// through function values and interfaces, and calls of functions of other
// packages that kernel code may not call.
//
// It reports whether the call was (or, for a qualified identifier such as
// reflect.TypeOf, will be) reported, so that its result type is not.
func (c *bodyChecker) checkCall(call *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	fun := astutil.Unparen(call.Fun)
	c.markCalled(fun)
	if tv, ok := info.Types[fun]; ok && tv.IsType() {
		return false // a conversion; its result type is checked as an expression
	}
	switch obj := typeutil.Callee(info, call).(type) {
	case *types.Builtin:
		switch name := obj.Name(); name {
		case "make", "new", "append":
			c.report(call, "allocates with "+name, "%s allocates memory: kernel code cannot allocate; use a fixed-size local array, or gpu.Shared for block-shared memory", name)
			return true
		case "print", "println":
			c.report(call, "calls "+name, "%s writes to the host's standard error: kernel code cannot use host services", name)
			return true
		case "recover":
			c.report(call, "calls recover", "recover: kernel code cannot recover from panics, which are device traps")
			return true
		case "copy":
			if len(call.Args) == 2 {
				if t := info.TypeOf(call.Args[1]); t != nil && hostKindOf(t) == stringKind {
					c.report(call, "copies a string", "copy from a string: kernel code cannot copy strings; index the constant string in a loop")
					return true
				}
			}
		}
		return false
	case *types.Func:
		if fn := typeutil.StaticCallee(info, call); fn != nil {
			return c.checkStaticCall(call, fn.Origin())
		}
		if sel, ok := fun.(*ast.SelectorExpr); ok && types.IsInterface(info.TypeOf(sel.X)) {
			c.report(call, "calls an interface method", "call of method %s through interface %s: kernel code cannot use interfaces (dynamic dispatch needs host run-time type information)",
				sel.Sel.Name, c.typeString(info.TypeOf(sel.X)))
			return true
		}
	}
	c.report(call, "calls a function value", "call of a function value: kernel code can call only functions named at compile time")
	return true
}

// markCalled records the parts of a call's function expression as being
// in call position (pkg.F, x.M, F[T]).
func (c *bodyChecker) markCalled(fun ast.Expr) {
	for {
		c.called[fun] = true
		switch f := fun.(type) {
		case *ast.IndexExpr:
			fun = astutil.Unparen(f.X)
			continue
		case *ast.IndexListExpr:
			fun = astutil.Unparen(f.X)
			continue
		case *ast.SelectorExpr:
			c.called[f.Sel] = true
		}
		return
	}
}

// checkStaticCall checks a call of fn, a function named at compile time,
// and reports whether the call breaks a rule (see checkCall).
func (c *bodyChecker) checkStaticCall(call *ast.CallExpr, fn *types.Func) bool {
	pkg := fn.Pkg()
	if pkg == nil || pkg == c.pass.Pkg {
		if pkg != nil {
			c.cf.calls = append(c.cf.calls, callEdge{callee: fn, pos: call.Pos()})
		}
		return false
	}
	name := pkg.Name() + "." + fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		name = c.typeString(recv.Type()) + "." + fn.Name()
	}
	path := pkg.Path()
	_, hostPkg := hostPackageKind[path]
	switch {
	case gpuapi.Func(fn) == gpuapi.Shared:
		return c.checkShared(call)
	case gpuapi.Func(fn) != gpuapi.None, kernelapi.Allowed(path, fn.Name()):
		return false
	case hostPkg:
		// pkg.F is reported as a qualified identifier, and x.M for a
		// receiver x of that package where x's declaration or value is.
		return true
	case kernelapi.Listed(path):
		c.report(call, "calls "+name, "call of %s: kernel code may call only the %s functions listed in memspace's documentation", name, path)
		return true
	}
	if c.kres.DeviceFact(fn) == nil {
		c.report(call, "calls "+name, "call of %s, which is not a //gpu:device function: kernel code can call only device functions, the gpu package and the math functions memspace lists", name)
		return true
	}
	var bf BreaksFact
	if c.pass.ImportObjectFact(fn, &bf) {
		c.report(call, "calls "+name+", which "+bf.What, "call of %s, which breaks the rules of kernel code: it %s (%s)", name, bf.What, bf.At)
		return true
	}
	return false
}

// checkShared reports a gpu.Shared[T] call whose T is not a value of fixed
// size made of bool, integers, float32 and float64 (DIALECT.md: a
// fixed-size array such as [256]float32): a slice, pointer, string or map
// in block-shared memory would point at memory that no block owns.
func (c *bodyChecker) checkShared(call *ast.CallExpr) bool {
	p, ok := c.pass.TypesInfo.TypeOf(call).(*types.Pointer)
	if !ok {
		return false
	}
	if _, ok := p.Elem().(*types.TypeParam); ok {
		return false // each instance is compiled, and checked, where it is known
	}
	bad := unsharable(p.Elem(), 0)
	if bad == nil {
		return false
	}
	msg := fmt.Sprintf("gpu.Shared[%s]: block-shared memory has a fixed size and layout: T must be a fixed-size array such as [256]float32 (or a struct of such fields) of bool, integers, float32 or float64, and %s is %s",
		c.typeString(p.Elem()), c.typeString(bad), kindName(bad))
	if sl, ok := p.Elem().Underlying().(*types.Slice); ok && unsharable(sl.Elem(), 0) == nil {
		msg += fmt.Sprintf("; use gpu.Shared[[N]%s] with a constant N", c.typeString(sl.Elem()))
	}
	c.report(call, "declares shared memory of type "+c.typeString(p.Elem()), "%s", msg)
	return true
}

// unsharable returns the part of t that block-shared memory cannot hold
// (a slice, pointer, string, map, channel, function, interface or complex
// number, or a type parameter below the top), or nil if there is none.
func unsharable(t types.Type, depth int) types.Type {
	if depth > 16 {
		return nil // go/types refuses deeper cycles of value types
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if isScalar(u) {
			return nil
		}
	case *types.Array:
		return unsharable(u.Elem(), depth+1)
	case *types.Struct:
		for f := range u.Fields() {
			if bad := unsharable(f.Type(), depth+1); bad != nil {
				return bad
			}
		}
		return nil
	}
	return t
}

// kindName names the kind of a type that block-shared memory cannot hold:
// the host kinds by their names in hostKinds.
func kindName(t types.Type) string {
	switch t.Underlying().(type) {
	case *types.Slice:
		return "a slice, whose length is not fixed and whose elements live outside it"
	case *types.Pointer:
		return "a pointer"
	case *types.TypeParam:
		return "a type parameter"
	}
	if k := hostKindOf(t); k != noHostKind {
		return k.what()
	}
	return "not a fixed-size value"
}

// trackEscapes remembers local variables assigned a pointer into, or a
// slice of, the function's local memory.
func (c *bodyChecker) trackEscapes(as *ast.AssignStmt) {
	if c.cf.isKernel || len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, lhs := range as.Lhs {
		id, ok := lhs.(*ast.Ident)
		if !ok {
			continue
		}
		obj := c.pass.TypesInfo.ObjectOf(id)
		if obj == nil || !c.isLocal(obj) {
			continue
		}
		if what := c.localMemory(as.Rhs[i]); what != "" {
			c.escapes[obj] = what
		} else {
			delete(c.escapes, obj)
		}
	}
}

// checkEscape reports a device function returning a pointer into, or a
// slice of, its own local memory, which ends when the function returns.
func (c *bodyChecker) checkEscape(ret *ast.ReturnStmt) {
	if c.cf.isKernel {
		return
	}
	for _, r := range ret.Results {
		if what := c.localMemory(r); what != "" {
			c.report(r, "returns local memory", "%s does not outlive device function %s: kernel code cannot return a pointer or slice into a function's local memory", what, c.cf.fn.Name())
		}
	}
}

// localMemory describes the local memory that e points into or slices
// (&x, &x.f, &x[i], x[i:j] of a local array x, or a variable holding one),
// or returns "".
func (c *bodyChecker) localMemory(e ast.Expr) string {
	info := c.pass.TypesInfo
	e = astutil.Unparen(e)
	switch e := e.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if v := c.localRoot(e.X); v != nil {
				return "the address of local variable " + v.Name()
			}
		}
	case *ast.SliceExpr:
		if _, ok := info.TypeOf(e.X).Underlying().(*types.Array); ok {
			if v := c.localRoot(e.X); v != nil {
				return "a slice of local array " + v.Name()
			}
		}
	case *ast.Ident:
		if obj := info.Uses[e]; obj != nil && c.escapes[obj] != "" {
			return c.escapes[obj] + " (through " + e.Name + ")"
		}
	}
	return ""
}

// localRoot returns the local variable whose own storage e denotes (x,
// x.f, x[i] for a struct or array x), or nil.
func (c *bodyChecker) localRoot(e ast.Expr) types.Object {
	info := c.pass.TypesInfo
	for {
		switch x := astutil.Unparen(e).(type) {
		case *ast.Ident:
			if obj := info.Uses[x]; obj != nil && c.isLocal(obj) {
				return obj
			}
			return nil
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal || sel.Indirect() {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			if _, ok := info.TypeOf(x.X).Underlying().(*types.Array); !ok {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// isLocal reports whether obj is a variable (parameters included) of the
// function being checked.
func (c *bodyChecker) isLocal(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && !v.IsField() && v.Pkg() == c.pass.Pkg && !isPackageLevel(v) &&
		v.Pos() >= c.cf.decl.Pos() && v.Pos() < c.cf.decl.End()
}

func render(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
		b.WriteString(e.Name)
	case *ast.SelectorExpr:
		writeExpr(b, e.X)
		b.WriteString(".")
		b.WriteString(e.Sel.Name)
	case *ast.ParenExpr:
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(")")
	case *ast.StarExpr:
		b.WriteString("*")
		writeExpr(b, e.X)
	case *ast.IndexExpr:
		writeExpr(b, e.X)
		b.WriteString("[")
		writeExpr(b, e.Index)
		b.WriteString("]")
	case *ast.CallExpr:
		writeExpr(b, e.Fun)
		b.WriteString("(...)")
	case *ast.BasicLit:
		b.WriteString(e.Value)
	default:
		b.WriteString("...")
	}
}
