package hostgen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// hoist finds the variables that live across a barrier (used in more than
// one piece) and turns them into fields of the per-thread locals: it
// finds the pieces that use each variable, decides which to hoist, spreads
// that to every variable declared along with one, declares the fields and
// rewrites the uses and declarations.
func (g *cpuGen) hoist() error {
	uses, order := g.usesByPiece()
	hoist, err := g.acrossBarriers(uses, order)
	if err != nil {
		return err
	}
	g.spreadToDeclarations(hoist)
	if err := g.declareLocals(hoist, order); err != nil {
		return err
	}
	return g.rewriteHoisted(uses)
}

// usesByPiece returns the pieces that use each local variable, constant,
// type and label of the body, and each parameter (the gpu.Thread and the
// block's shared variables aside), and those objects in the order of
// their first use.
func (g *cpuGen) usesByPiece() (uses map[types.Object]map[int]bool, order []types.Object) {
	info := g.p.TypesInfo
	sharedVar := map[types.Object]bool{}
	for _, s := range g.shared {
		sharedVar[info.Defs[s.(*ast.AssignStmt).Lhs[0].(*ast.Ident)]] = true
	}
	uses = map[types.Object]map[int]bool{}
	for _, pc := range g.pieces {
		for _, root := range g.pieceNodes(pc) {
			ast.Inspect(root, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok || id.Name == "_" {
					return true
				}
				obj := objOf(info, id)
				if obj == nil || sharedVar[obj] || obj == g.thread {
					return true
				}
				if _, isParam := g.params[obj]; !isParam && !g.inBody(obj) {
					return true
				}
				if uses[obj] == nil {
					uses[obj] = map[int]bool{}
					order = append(order, obj)
				}
				uses[obj][pc.id] = true
				return true
			})
		}
	}
	return uses, order
}

// inBody reports whether obj is declared in the kernel's body.
func (g *cpuGen) inBody(obj types.Object) bool {
	body := g.fd.Body
	return obj.Pos() >= body.Pos() && obj.Pos() < body.End()
}

// acrossBarriers returns the variables that more than one piece uses, but
// for the parameters that no thread assigns (each piece reads the
// argument); a local constant or type used so is an error (the generated
// file cannot name it outside the piece that declares it).
func (g *cpuGen) acrossBarriers(uses map[types.Object]map[int]bool, order []types.Object) (map[types.Object]bool, error) {
	hoist := map[types.Object]bool{}
	var err error
	for _, obj := range order {
		if len(uses[obj]) < 2 {
			continue
		}
		switch obj := obj.(type) {
		case *types.Var:
			if obj.IsField() {
				continue
			}
			if _, isParam := g.params[obj]; isParam && !g.assigned(obj) {
				continue // each piece reads the argument
			}
			hoist[obj] = true
		case *types.Const, *types.TypeName:
			if obj.Parent() != g.p.Types.Scope() && g.inBody(obj) {
				err = fmt.Errorf("the local %s %s is used across a barrier", strings.ToLower(strings.TrimPrefix(fmt.Sprintf("%T", obj), "*types.")), obj.Name())
			}
		}
	}
	return hoist, err
}

// spreadToDeclarations adds to hoist every variable declared along with a
// hoisted one: that declaration becomes an assignment, so every variable
// it declares must be a field.
func (g *cpuGen) spreadToDeclarations(hoist map[types.Object]bool) {
	info := g.p.TypesInfo
	for changed := true; changed; {
		changed = false
		spread := func(ids []ast.Expr) {
			any := false
			for _, e := range ids {
				if id, ok := e.(*ast.Ident); ok && hoist[objOf(info, id)] {
					any = true
				}
			}
			if !any {
				return
			}
			for _, e := range ids {
				if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
					if obj := info.Defs[id]; obj != nil && !hoist[obj] {
						hoist[obj] = true
						changed = true
					}
				}
			}
		}
		g.inspectPieces(func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					spread(n.Lhs)
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					spread([]ast.Expr{n.Key, n.Value})
				}
			case *ast.ValueSpec:
				var ids []ast.Expr
				for _, id := range n.Names {
					ids = append(ids, id)
				}
				spread(ids)
			case *ast.TypeSwitchStmt:
				// its symbol has no object of its own: refused by
				// rewriteHoisted
			}
			return true
		})
	}
}

// inspectPieces calls ast.Inspect(root, f) on every root of every piece.
func (g *cpuGen) inspectPieces(f func(ast.Node) bool) {
	for _, pc := range g.pieces {
		for _, root := range g.pieceNodes(pc) {
			ast.Inspect(root, f)
		}
	}
}

// declareLocals names a field of the per-thread locals for each hoisted
// variable, in order, and writes the struct's fields.
func (g *cpuGen) declareLocals(hoist map[types.Object]bool, order []types.Object) error {
	var fields strings.Builder
	fields.WriteString("gpukvetDone bool\n")
	n := 0
	for _, obj := range order {
		if !hoist[obj] {
			continue
		}
		if !nameable(obj.Type(), g.p.Types) {
			return fmt.Errorf("%s lives across a barrier and its type %s cannot be named outside the kernel", obj.Name(), obj.Type())
		}
		f := fmt.Sprintf("v%d_%s", n, obj.Name())
		n++
		g.hoisted[obj] = f
		fmt.Fprintf(&fields, "%s %s\n", f, types.TypeString(obj.Type(), g.qual))
	}
	g.locals = fields.String()
	return nil
}

// rewriteHoisted records the edits that make the hoisted variables fields:
// uses become fields, declarations assignments. A type switch's variable
// living across a barrier is an error: its symbol has no object to hoist.
func (g *cpuGen) rewriteHoisted(uses map[types.Object]map[int]bool) error {
	info := g.p.TypesInfo
	var err error
	g.inspectPieces(func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			if f, ok := g.hoisted[objOf(info, n)]; ok {
				g.addEdit(n.Pos(), n.End(), "gpukvetP."+f)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && g.anyHoisted(n.Lhs) {
				g.addEdit(n.TokPos, n.TokPos+2, "=")
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE && g.anyHoisted([]ast.Expr{n.Key, n.Value}) {
				g.addEdit(n.TokPos, n.TokPos+2, "=")
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				if obj := info.Implicits[c]; obj != nil && len(uses[obj]) > 1 {
					err = errors.New("a type switch's variable lives across a barrier")
				}
			}
		case *ast.DeclStmt:
			g.rewriteVarDecl(n)
		}
		return true
	})
	return err
}

// rewriteVarDecl records the edit that turns a var declaration of hoisted
// variables into assignments (computed at emission: varDecl).
func (g *cpuGen) rewriteVarDecl(n *ast.DeclStmt) {
	gd, ok := n.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return
	}
	hoisted := false
	for _, sp := range gd.Specs {
		for _, id := range sp.(*ast.ValueSpec).Names {
			hoisted = hoisted || g.hoisted[g.p.TypesInfo.Defs[id]] != ""
		}
	}
	if hoisted {
		g.edits = append(g.edits, srcEdit{start: g.off(n.Pos()), end: g.off(n.End()), fn: func() string { return g.varDecl(gd) }})
	}
}

// varDecl is a var declaration with hoisted variables as assignments.
func (g *cpuGen) varDecl(gd *ast.GenDecl) string {
	info := g.p.TypesInfo
	var parts []string
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		hoisted := false
		for _, id := range vs.Names {
			hoisted = hoisted || g.hoisted[info.Defs[id]] != ""
		}
		if !hoisted {
			parts = append(parts, "var "+g.nodeText(vs))
			continue
		}
		var lhs, rhs []string
		for i, id := range vs.Names {
			if f := g.hoisted[info.Defs[id]]; f != "" {
				lhs = append(lhs, "gpukvetP."+f)
			} else {
				lhs = append(lhs, "_")
			}
			if len(vs.Values) == 0 {
				rhs = append(rhs, "*new("+g.nodeText(vs.Type)+")")
			} else if len(vs.Values) == len(vs.Names) {
				v := g.nodeText(vs.Values[i])
				if vs.Type != nil {
					v = "(" + g.nodeText(vs.Type) + ")(" + v + ")"
				}
				rhs = append(rhs, v)
			}
		}
		if len(vs.Values) == 1 && len(vs.Names) > 1 {
			rhs = []string{g.nodeText(vs.Values[0])}
		}
		parts = append(parts, strings.Join(lhs, ", ")+" = "+strings.Join(rhs, ", "))
	}
	return strings.Join(parts, "; ")
}

// anyHoisted reports whether es names a hoisted variable.
func (g *cpuGen) anyHoisted(es []ast.Expr) bool {
	for _, e := range es {
		if id, ok := e.(*ast.Ident); ok && g.hoisted[objOf(g.p.TypesInfo, id)] != "" {
			return true
		}
	}
	return false
}

// objOf is the object id defines or uses.
func objOf(info *types.Info, id *ast.Ident) types.Object {
	if id == nil {
		return nil
	}
	if obj := info.Defs[id]; obj != nil {
		return obj
	}
	return info.Uses[id]
}

// nameable reports whether t can be written in a file of package pkg
// other than the kernel's: no type declared inside a function, no
// unexported type of another package.
func nameable(t types.Type, pkg *types.Package) bool {
	ok := true
	var walk func(t types.Type)
	seen := map[types.Type]bool{}
	walk = func(t types.Type) {
		if !ok || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			obj := t.Obj()
			if obj.Pkg() != nil && (obj.Parent() != obj.Pkg().Scope() || (obj.Pkg() != pkg && !obj.Exported())) {
				ok = false
			}
			for i := range t.TypeArgs().Len() {
				walk(t.TypeArgs().At(i))
			}
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Signature:
			for i := range t.Params().Len() {
				walk(t.Params().At(i).Type())
			}
			for i := range t.Results().Len() {
				walk(t.Results().At(i).Type())
			}
		case *types.Struct:
			for i := range t.NumFields() {
				f := t.Field(i)
				if !f.Exported() && f.Pkg() != pkg {
					ok = false
				}
				walk(f.Type())
			}
		case *types.Interface:
			ok = ok && t.NumMethods() == 0
		}
	}
	walk(t)
	return ok
}
