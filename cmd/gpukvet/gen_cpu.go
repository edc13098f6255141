package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// The cpu backend's entry to each kernel: gen writes, per kernel K,
//
//	func gpukvetCPUK(gpukvetArgs []any) (thread, block func(gpu.Thread)) {
//		gpukvetArg0 := gpukvetArgs[0].(float32)
//		gpukvetArg1 := []float32(gpukvetArgs[1].([]float32))
//		thread = func(gpukvetT gpu.Thread) { K(gpukvetT, gpukvetArg0, gpukvetArg1) }
//		block = func(gpukvetRow gpu.Thread) {
//			for gpukvetMore := true; gpukvetMore; gpukvetRow, gpukvetMore = gpukvetRow.CPUNextRow() {
//				for gpukvetT, gpukvetOK := gpukvetRow, true; gpukvetOK; gpukvetT, gpukvetOK = gpukvetT.CPUNext() {
//					K(gpukvetT, gpukvetArg0, gpukvetArg1)
//				}
//			}
//		}
//		return thread, block
//	}
//
// (names with gen's prefix, so that none shadows a name of the package).
// block, a loop in which the compiler can inline the kernel, is written
// only for a kernel that calls no barrier.
//
// and registers it with `CPU: &backend.CPUCode{Bind: gpukvetCPUK}`, so that
// the cpu backend calls the kernel without reflection, and runs a kernel
// that calls no barrier as a plain loop over a block's threads.

// writeCPUEntry writes kernel k's cpu entry.
func writeCPUEntry(w func(string, ...any), k *genKernel, barrier bool, qual types.Qualifier) {
	fn := "gpukvetCPU" + k.name
	w("\n// %s binds kernel %s's arguments for the cpu\n", fn, k.name)
	w("// backend, which calls it without reflection.\n")
	w("func %s(gpukvetArgs []any) (thread, block func(gpu.Thread)) {\n", fn)
	var names []string
	for i, v := range k.params {
		t := v.Type()
		name := fmt.Sprintf("gpukvetArg%d", i)
		names = append(names, name)
		if s, ok := t.Underlying().(*types.Slice); ok {
			// The cpu backend's memory holds a []E; a named slice type
			// converts from it.
			w("\t%s := %s(gpukvetArgs[%d].([]%s))\n", name, types.TypeString(t, qual), i, types.TypeString(s.Elem(), qual))
		} else {
			w("\t%s := gpukvetArgs[%d].(%s)\n", name, i, types.TypeString(t, qual))
		}
	}
	call := k.name + "(gpukvetT"
	for _, n := range names {
		call += ", " + n
	}
	call += ")"
	w("\tthread = func(gpukvetT gpu.Thread) { %s }\n", call)
	if !barrier {
		w("\tblock = func(gpukvetRow gpu.Thread) {\n\t\tfor gpukvetMore := true; gpukvetMore; gpukvetRow, gpukvetMore = gpukvetRow.CPUNextRow() {\n"+
			"\t\t\tfor gpukvetT, gpukvetOK := gpukvetRow, true; gpukvetOK; gpukvetT, gpukvetOK = gpukvetT.CPUNext() {\n\t\t\t\t%s\n\t\t\t}\n\t\t}\n\t}\n", call)
	}
	w("\treturn thread, block\n}\n")
}

// mayBarrier reports whether kernel k may call gpu.Thread.Barrier: itself,
// or through a function whose body the package holds. A call the walk
// cannot follow (a function of another package other than gpu's, a
// function value) counts as a barrier, which only costs speed: the cpu
// backend then runs the kernel's threads as coroutines.
func mayBarrier(gp *genPackage, k *genKernel) bool {
	bodies := map[*types.Func]*ast.BlockStmt{}
	for _, f := range gp.pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := gp.pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					bodies[fn] = fd.Body
				}
			}
		}
	}
	return reachesBarrier(gp.pkg, bodies, k.fn, map[*types.Func]bool{})
}

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
		case callee.Pkg() != nil && strings.HasPrefix(callee.Pkg().Path(), gpuapi.Path+"/"):
			// gpu/math32 and the like: no barriers.
		case callee.Pkg() != p.Types:
			found = true
		default:
			found = reachesBarrier(p, bodies, callee.Origin(), seen)
		}
		return true
	})
	return found
}
