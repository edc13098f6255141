package memspace

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// launchSite is what a Launch is checked on: a call of Launch itself, or a
// call of a launch wrapper, with the expressions that become Launch's
// kernel, shapes and arguments (grid or block nil when the wrapper makes
// them itself).
type launchSite struct {
	node        ast.Node // where a wrong argument count is reported
	kernel      ast.Expr
	grid, block ast.Expr
	args        []ast.Expr
	ellipsis    bool // args... : known only at run time
}

// wrapper is a function of the package that passes its own kernel
// parameter and its own ...any parameter to Launch: func run(d
// *device.Device, k any, n int, args ...any) error { ...; return
// d.Launch(k, grid(n), block, args...) }. Its grid and block are its
// parameters at those indices, or -1.
type wrapper struct {
	kernel, grid, block int
	nparams             int
}

// wrapperSites finds the launch wrappers among the functions declared in
// the package (a kernel parameter and a variadic parameter that the
// function never reassigns, passed to Launch as they are) and returns the
// calls of them as launch sites.
func wrapperSites(pass *analysis.Pass, fv *funcValues, launches []*launchSite) []*launchSite {
	info := pass.TypesInfo
	wrappers := map[*types.Func]*wrapper{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			if fn == nil || !fn.Signature().Variadic() {
				continue
			}
			sig := fn.Signature()
			params := sig.Params()
			index := func(e ast.Expr) int {
				id, ok := astutil.Unparen(e).(*ast.Ident)
				if !ok {
					return -1
				}
				v, _ := info.Uses[id].(*types.Var)
				for i := range params.Len() {
					if params.At(i) == v && len(fv.assigned[v]) == 0 {
						return i
					}
				}
				return -1
			}
			for _, l := range launches {
				if l.node.Pos() < fd.Body.Pos() || l.node.End() > fd.Body.End() || len(l.args) != 1 || !l.ellipsis {
					continue
				}
				if index(l.args[0]) != params.Len()-1 {
					continue // not the wrapper's own ...any
				}
				k := index(l.kernel)
				if k < 0 {
					continue
				}
				wrappers[fn] = &wrapper{kernel: k, grid: index(l.grid), block: index(l.block), nparams: params.Len()}
			}
		}
	}
	if len(wrappers) == 0 {
		return nil
	}
	var sites []*launchSite
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			id, ok := astutil.Unparen(call.Fun).(*ast.Ident)
			if !ok {
				return true
			}
			fn, _ := info.Uses[id].(*types.Func)
			w := wrappers[fn]
			if w == nil || len(call.Args) < w.nparams-1 {
				return true
			}
			site := &launchSite{node: call, kernel: call.Args[w.kernel], args: call.Args[w.nparams-1:], ellipsis: call.Ellipsis.IsValid()}
			if w.grid >= 0 {
				site.grid = call.Args[w.grid]
			}
			if w.block >= 0 {
				site.block = call.Args[w.block]
			}
			sites = append(sites, site)
			return true
		})
	}
	return sites
}
