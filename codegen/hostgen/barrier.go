package hostgen

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// mayBarrier reports whether kernel k may call gpu.Thread.Barrier: itself,
// or through a function whose body the package holds. A call the walk
// cannot follow (a function of another package other than gpu's, a
// function value) counts as a barrier, which only costs speed: the cpu
// backend then runs the kernel's threads as coroutines.
func mayBarrier(p *Package, k *kernel) bool {
	return reachesBarrier(p.pkg, funcBodies(p.pkg), k.fn, map[*types.Func]bool{})
}

// funcBodies maps the functions that p declares to their bodies.
func funcBodies(p *packages.Package) map[*types.Func]*ast.BlockStmt {
	bodies := map[*types.Func]*ast.BlockStmt{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					bodies[fn] = fd.Body
				}
			}
		}
	}
	return bodies
}

// reachesBarrier reports whether fn may call a barrier (see mayBarrier);
// seen holds the functions the walk entered.
func reachesBarrier(p *packages.Package, bodies map[*types.Func]*ast.BlockStmt, fn *types.Func, seen map[*types.Func]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	body := bodies[fn]
	if body == nil {
		return true
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if tv, ok := p.TypesInfo.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true // a conversion or a builtin
		}
		callee, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
		switch {
		case callee == nil:
			found = true // a function value: cannot follow
		case gpuapi.IsPackage(callee.Pkg()):
			found = gpuapi.Func(callee).IsBarrier()
		case noBarrierPackage(p, callee.Pkg()):
		case callee.Pkg() != p.Types:
			found = true
		default:
			found = reachesBarrier(p, bodies, callee.Origin(), seen)
		}
		return true
	})
	return found
}

// noBarrierPackage reports whether no function of pkg, imported by p, can
// reach a barrier: gpu/math32 and the like, and the standard library
// (loaded without a module), which cannot import package gpu.
func noBarrierPackage(p *packages.Package, pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if strings.HasPrefix(pkg.Path(), gpuapi.Path+"/") {
		return true
	}
	imp := p.Imports[pkg.Path()]
	return imp != nil && imp.Module == nil && !strings.Contains(strings.Split(pkg.Path(), "/")[0], ".")
}
