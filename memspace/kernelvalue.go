package memspace

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// funcValues finds what a function-valued expression passed to Launch may
// hold, when the package says: a variable (local, or unexported and
// package-level) holds the values assigned to it; an element of a map,
// slice or array variable holds the values of the composite literal it is
// initialised with (the element of a constant key, or any element); a field
// of a struct variable holds the value its composite literal gives that
// field. A parameter, and a variable whose address is taken, that is
// assigned from something else than one value per name, whose elements or
// fields are assigned, or that is passed by pointer or as a map or slice to
// a call (which may change what it holds), hold values the package does not
// show.
type funcValues struct {
	info *types.Info
	// assigned maps each variable to the values assigned to it (nil values
	// for declarations without one).
	assigned map[*types.Var][]ast.Expr
	// spoiled variables hold values the package does not show.
	spoiled map[*types.Var]bool
}

func newFuncValues(pass *analysis.Pass) *funcValues {
	fv := &funcValues{info: pass.TypesInfo, assigned: map[*types.Var][]ast.Expr{}, spoiled: map[*types.Var]bool{}}
	varOf := func(e ast.Expr) *types.Var {
		if id, ok := astutil.Unparen(e).(*ast.Ident); ok {
			v, _ := fv.info.ObjectOf(id).(*types.Var)
			return v
		}
		return nil
	}
	// base is the variable an lvalue or operand is rooted at (x of
	// x.f[i].g), or nil.
	var base func(e ast.Expr) *types.Var
	base = func(e ast.Expr) *types.Var {
		switch x := astutil.Unparen(e).(type) {
		case *ast.Ident:
			return varOf(x)
		case *ast.SelectorExpr:
			if _, isField := fv.info.Selections[x]; isField {
				return base(x.X)
			}
		case *ast.IndexExpr:
			return base(x.X)
		case *ast.StarExpr:
			return base(x.X)
		}
		return nil
	}
	assign := func(lhs, rhs ast.Expr) {
		if v := varOf(lhs); v != nil {
			if rhs == nil {
				fv.spoiled[v] = true
				return
			}
			fv.assigned[v] = append(fv.assigned[v], rhs)
			return
		}
		if v := base(lhs); v != nil {
			fv.spoiled[v] = true // an element or field assigned
		}
	}
	assignments(pass.Files, func(lhs, rhs ast.Expr, tok token.Token) {
		if tok != token.AND {
			assign(lhs, rhs)
		} else if v := base(lhs); v != nil {
			fv.spoiled[v] = true
		}
	})
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncType:
				// A parameter holds what its callers pass.
				if n.Params != nil {
					for _, f := range n.Params.List {
						for _, id := range f.Names {
							if v, ok := fv.info.Defs[id].(*types.Var); ok {
								fv.spoiled[v] = true
							}
						}
					}
				}
			case *ast.CallExpr:
				// A map, slice or pointer passed to a call may be changed by it.
				for _, a := range n.Args {
					if v := varOf(a); v != nil {
						switch v.Type().Underlying().(type) {
						case *types.Map, *types.Slice, *types.Pointer:
							fv.spoiled[v] = true
						}
					}
				}
			}
			return true
		})
	}
	return fv
}

// known reports whether the package shows every value v holds.
func (fv *funcValues) known(v *types.Var) bool {
	if v == nil || fv.spoiled[v] || len(fv.assigned[v]) == 0 || v.IsField() {
		return false
	}
	return !isPackageLevel(v) || !v.Exported()
}

// values returns the expressions e may evaluate to (each a function name,
// a function literal, a method value or something else), or nil when
// unknown.
func (fv *funcValues) values(e ast.Expr, depth int) []ast.Expr {
	if depth > 8 {
		return nil
	}
	e = astutil.Unparen(e)
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := fv.info.Uses[x].(*types.Var)
		if v == nil {
			return []ast.Expr{e}
		}
		if !fv.known(v) {
			return nil
		}
		var out []ast.Expr
		for _, a := range fv.assigned[v] {
			vs := fv.values(a, depth+1)
			if vs == nil {
				return nil
			}
			out = append(out, vs...)
		}
		return out
	case *ast.IndexExpr:
		if _, isGeneric := fv.info.Types[x.X].Type.(*types.Signature); isGeneric {
			return []ast.Expr{e} // F[T]
		}
		lit := fv.literalOf(x.X, depth)
		if lit == nil {
			return nil
		}
		key := fv.info.Types[x.Index].Value
		var out []ast.Expr
		for i, el := range lit.Elts {
			val := el
			var k constant.Value
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				val = kv.Value
				k = fv.info.Types[kv.Key].Value
			} else if _, isMap := fv.info.Types[lit].Type.Underlying().(*types.Map); !isMap {
				k = constant.MakeInt64(int64(i))
			}
			if key != nil && k != nil && !constant.Compare(key, token.EQL, k) {
				continue
			}
			vs := fv.values(val, depth+1)
			if vs == nil {
				return nil
			}
			out = append(out, vs...)
		}
		return out
	case *ast.SelectorExpr:
		sel := fv.info.Selections[x]
		if sel == nil {
			return []ast.Expr{e} // pkg.F
		}
		if sel.Kind() != types.FieldVal {
			return []ast.Expr{e} // a method value
		}
		lit := fv.literalOf(x.X, depth)
		if lit == nil {
			return nil
		}
		field := sel.Obj().(*types.Var)
		st, ok := fv.info.Types[lit].Type.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		for i, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field.Name() {
					return fv.values(kv.Value, depth+1)
				}
				continue
			}
			if i < st.NumFields() && st.Field(i) == field {
				return fv.values(el, depth+1)
			}
		}
		return []ast.Expr{} // the zero value, nil: nothing to check
	}
	return []ast.Expr{e}
}

// literalOf returns the composite literal that the variable e names holds
// (through &T{...}), when it is its only value.
func (fv *funcValues) literalOf(e ast.Expr, depth int) *ast.CompositeLit {
	id, ok := astutil.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := fv.info.Uses[id].(*types.Var)
	if !fv.known(v) || len(fv.assigned[v]) != 1 {
		return nil
	}
	a := astutil.Unparen(fv.assigned[v][0])
	if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
		a = astutil.Unparen(u.X)
	}
	if lit, ok := a.(*ast.CompositeLit); ok {
		return lit
	}
	if _, ok := a.(*ast.Ident); ok {
		return fv.literalOf(a, depth+1)
	}
	return nil
}
