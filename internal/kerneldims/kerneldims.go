// Package kerneldims computes a kernel's dimensionality: 1, 2 or 3, the
// highest dimension of any index or extent (a gpu.Dim3's Y is 2, Z is 3)
// that the kernel or a function it calls, transitively, reads. Launch lets
// a kernel of n dimensions have extents above 1 only in its first n.
//
// A gpu.Dim3 that the kernel takes as an argument is launch data, not an
// index or extent: reading its Y does not make the kernel two-dimensional,
// as long as the kernel never writes, rebinds or takes the address of that
// parameter (then its fields might hold a thread's index, and count). A
// kernel that another kernel calls is a device function there: what it
// reads of its Dim3 arguments counts for its caller, which may pass a
// thread's index.
//
// Kernel discovery (internal/kernels, with types) and the runtime (device,
// for a kernel that no generated code registered, from syntax alone) both
// call Walk, so they apply one rule; they differ only in how they resolve
// names, through a Resolver. The runtime's resolver cannot always tell a
// gpu.Dim3 from another struct with a Y field, so it errs towards more
// dimensions, which only lets Launch accept more shapes, never refuse one
// the checks allow.
package kerneldims

import (
	"go/ast"
	"go/token"
)

// Axis returns the dimensionality that reading field name of a gpu.Dim3
// needs: 2 for Y, 3 for Z, 0 for anything else (X needs none beyond 1).
func Axis(name string) int {
	switch name {
	case "Y":
		return 2
	case "Z":
		return 3
	}
	return 0
}

// Resolver is how a caller sees a package's functions, of type F.
type Resolver[F comparable] interface {
	// Decl returns fn's declaration, or nil if its body is not in the
	// package being walked.
	Decl(fn F) *ast.FuncDecl
	// IsDim3 reports whether x, the operand of a .Y or .Z selector in
	// fn's body, is (or, without types, may be) a gpu.Dim3 or a pointer
	// to one.
	IsDim3(fn F, x ast.Expr) bool
	// IsKernel reports whether fn is a kernel, whose parameters are the
	// launch's arguments (a device function's may be thread indices).
	IsKernel(fn F) bool
	// Refs returns the functions of the walked package that node n of
	// fn's body refers to (calls, or takes as a value), and the
	// dimensionality that the functions of other packages it refers to
	// read (0 if none).
	Refs(fn F, n ast.Node) (local []F, other int)
}

// Graph is what Walk found.
type Graph[F comparable] struct {
	// Dims maps every reached function to the dimensionality it and its
	// callees read (0 if none; a kernel's is max(1, Dims[k])).
	Dims map[F]int
	// Callees maps every reached function to the functions of the
	// package it refers to.
	Callees map[F][]F
	// Reached are the functions with a body that the walk reached from
	// the roots, roots included, in the order visited.
	Reached []F
}

// Walk visits the bodies of the roots and of every function of the package
// they refer to, transitively, and computes each one's dimensionality.
// visit, if not nil, sees every node of every visited body, so that a
// caller can collect more in the same walk.
func Walk[F comparable](r Resolver[F], roots []F, visit func(fn F, n ast.Node)) *Graph[F] {
	g := &Graph[F]{Dims: map[F]int{}, Callees: map[F][]F{}}
	launchDims := map[F]int{} // what a kernel reads of its launch parameters, which counts for its callers
	seen := map[F]bool{}
	work := append([]F(nil), roots...)
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[fn] {
			continue
		}
		seen[fn] = true
		fd := r.Decl(fn)
		if fd == nil || fd.Body == nil {
			continue
		}
		g.Reached = append(g.Reached, fn)
		var launch map[string]bool
		if r.IsKernel(fn) {
			launch = launchParams(fd)
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if d := Axis(sel.Sel.Name); d > 0 && r.IsDim3(fn, sel.X) {
					if isLaunchParam(sel.X, launch) {
						launchDims[fn] = max(launchDims[fn], d)
					} else {
						g.Dims[fn] = max(g.Dims[fn], d)
					}
				}
			}
			local, other := r.Refs(fn, n)
			g.Dims[fn] = max(g.Dims[fn], other)
			g.Callees[fn] = append(g.Callees[fn], local...)
			work = append(work, local...)
			if visit != nil {
				visit(fn, n)
			}
			return true
		})
	}
	// Propagate up the call graph to a fixed point (the graph may have
	// cycles, which memspace reports as recursion).
	for changed := true; changed; {
		changed = false
		for fn, cs := range g.Callees {
			for _, c := range cs {
				if d := max(g.Dims[c], launchDims[c]); d > g.Dims[fn] {
					g.Dims[fn] = d
					changed = true
				}
			}
		}
	}
	return g
}

// launchParams returns the names of kernel fd's parameters that its body
// only reads: no assignment, declaration, range clause or closure parameter
// binds the name (which might shadow it or give it a thread's index) and no
// & takes its address. Their fields are the launch's arguments.
func launchParams(fd *ast.FuncDecl) map[string]bool {
	names := map[string]bool{}
	for _, field := range fd.Type.Params.List {
		for _, n := range field.Names {
			names[n.Name] = true
		}
	}
	drop := func(e ast.Expr) {
		if id := rootIdent(e); id != nil {
			delete(names, id.Name)
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, e := range n.Lhs {
				drop(e)
			}
		case *ast.IncDecStmt:
			drop(n.X)
		case *ast.RangeStmt:
			drop(n.Key)
			drop(n.Value)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				drop(n.X)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				drop(id)
			}
		case *ast.FuncType:
			for _, list := range []*ast.FieldList{n.Params, n.Results} {
				if list == nil {
					continue
				}
				for _, field := range list.List {
					for _, id := range field.Names {
						drop(id)
					}
				}
			}
		}
		return true
	})
	return names
}

// rootIdent returns the variable that e (x, x.f, x[i], (x)) stores into,
// or nil (*p stores into what p points to, not into p).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// isLaunchParam reports whether x names one of the launch parameters.
func isLaunchParam(x ast.Expr, launch map[string]bool) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	return ok && launch[id.Name]
}

// Callee is the expression a call calls, without parentheses and without
// the type arguments of a generic call (gpu.Shared[[4]int32](t) calls
// gpu.Shared): how kernel discovery and the runtime both name a callee
// from syntax.
func Callee(call *ast.CallExpr) ast.Expr {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	return ast.Unparen(fun)
}
