package hostgen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"golang.org/x/tools/go/types/typeutil"
)

// newPiece numbers pc and adds it to the pieces.
func (g *cpuGen) newPiece(pc *piece) *piece {
	pc.id = len(g.pieces)
	g.pieces = append(g.pieces, pc)
	return pc
}

// isBarrierCall reports whether call calls gpu.Thread.Barrier.
func (g *cpuGen) isBarrierCall(call *ast.CallExpr) bool {
	return g.gpuKind(call).IsBarrier()
}

// gpuKind is the kind of package gpu's function that call calls
// (gpuapi.None for any other call).
func (g *cpuGen) gpuKind(call *ast.CallExpr) gpuapi.Kind {
	fn, _ := typeutil.Callee(g.p.TypesInfo, call).(*types.Func)
	return gpuapi.Func(fn)
}

// hasBarrier reports whether n calls the barrier itself; a barrier it
// may reach otherwise (a function it calls, a function literal) is an
// error: the split happens in the kernel's own body.
func (g *cpuGen) hasBarrier(n ast.Node) (bool, error) {
	found := false
	var err error
	ast.Inspect(n, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if ok, _ := g.hasBarrier(n.Body); ok {
				err = errors.New("it calls a barrier inside a function literal")
			}
			return false
		case *ast.CallExpr:
			if tv, ok := g.p.TypesInfo.Types[n.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
				return true
			}
			callee, _ := typeutil.Callee(g.p.TypesInfo, n).(*types.Func)
			switch {
			case g.isBarrierCall(n):
				found = true
			case callee == nil:
				err = errors.New("it calls a function value, which may reach a barrier")
			case gpuapi.IsPackage(callee.Pkg()), noBarrierPackage(g.p, callee.Pkg()):
			case reachesBarrier(g.p, g.bodies, callee.Origin(), map[*types.Func]bool{}):
				err = fmt.Errorf("it reaches a barrier inside %s, a function it calls", callee.Name())
			}
		}
		return true
	})
	return found, err
}

// buildList splits a statement list at its barriers.
func (g *cpuGen) buildList(stmts []ast.Stmt) ([]cpuNode, error) {
	var nodes []cpuNode
	var cur []ast.Stmt
	flush := func() {
		if len(cur) > 0 {
			nodes = append(nodes, g.newPiece(&piece{stmts: cur}))
			cur = nil
		}
	}
	for _, s := range stmts {
		has, err := g.hasBarrier(s)
		if err != nil {
			return nil, err
		}
		if !has {
			cur = append(cur, s)
			continue
		}
		flush()
		sub, err := g.buildStmt(s)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, sub...)
	}
	flush()
	return nodes, nil
}

// position is n's file:line, with the file's base name (the message goes
// into the generated file, which must not depend on the machine).
func (g *cpuGen) position(n ast.Node) string {
	return fmt.Sprintf("%s:%d", g.file, g.tf.Line(n.Pos()))
}

// buildStmt splits a statement that holds a barrier.
func (g *cpuGen) buildStmt(s ast.Stmt) ([]cpuNode, error) {
	switch s := s.(type) {
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok && g.isBarrierCall(call) {
			return []cpuNode{&barrierNode{call}}, nil
		}
	case *ast.BlockStmt:
		return g.buildList(s.List)
	case *ast.IfStmt:
		n := &ifNode{c: g.newPiece(&piece{pre: s.Init, cond: s.Cond, pos: s.Pos()})}
		n.c.result = fmt.Sprintf("gpukvetC%d", n.c.id)
		var err error
		if n.then, err = g.buildList(s.Body.List); err != nil {
			return nil, err
		}
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			n.els_, err = g.buildList(e.List)
		case *ast.IfStmt:
			n.els_, err = g.buildList([]ast.Stmt{e})
		}
		if err != nil {
			return nil, err
		}
		return []cpuNode{n}, nil
	case *ast.ForStmt:
		if s.Cond == nil {
			return nil, fmt.Errorf("the loop at %s around a barrier has no condition", g.position(s))
		}
		n := &forNode{init: g.newPiece(&piece{pre: s.Init, cond: s.Cond, pos: s.Pos()})}
		n.init.result = fmt.Sprintf("gpukvetC%d", n.init.id)
		var err error
		if n.body, err = g.buildList(s.Body.List); err != nil {
			return nil, err
		}
		n.post = g.newPiece(&piece{pre: s.Post, cond: s.Cond, pos: s.Pos(), result: n.init.result, assign: true})
		return []cpuNode{n}, nil
	case *ast.LabeledStmt:
		used := false
		ast.Inspect(g.fd.Body, func(n ast.Node) bool {
			if b, ok := n.(*ast.BranchStmt); ok && b.Label != nil && g.p.TypesInfo.Uses[b.Label] == g.p.TypesInfo.Defs[s.Label] {
				used = true
			}
			return !used
		})
		if !used {
			return g.buildStmt(s.Stmt)
		}
		return nil, fmt.Errorf("a branch names the label %s around a barrier", s.Label.Name)
	}
	return nil, fmt.Errorf("it calls a barrier inside a %s at %s", stmtKind(s), g.position(s))
}

// stmtKind names the kind of statement s for a message.
func stmtKind(s ast.Stmt) string {
	switch s.(type) {
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		return "switch"
	case *ast.SelectStmt:
		return "select"
	case *ast.RangeStmt:
		return "range loop"
	}
	return "statement that is not a call of its own"
}

// checkBranches refuses a break, continue or goto of piece pc whose
// target lies outside it (the loop around a barrier, say).
func (g *cpuGen) checkBranches(pc *piece) error {
	var err error
	for _, root := range g.pieceNodes(pc) {
		var stack []ast.Node
		ast.Inspect(root, func(n ast.Node) bool {
			if err != nil {
				return false
			}
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			stack = append(stack, n)
			b, ok := n.(*ast.BranchStmt)
			if !ok {
				return true
			}
			switch {
			case b.Tok == token.GOTO:
				err = fmt.Errorf("it uses goto at %s", g.position(b))
			case b.Label != nil:
				found := false
				for _, s := range stack {
					if l, ok := s.(*ast.LabeledStmt); ok && l.Label.Name == b.Label.Name {
						found = true
					}
				}
				if !found {
					err = fmt.Errorf("the %s at %s leaves a stretch between barriers", b.Tok, g.position(b))
				}
			case b.Tok == token.BREAK || b.Tok == token.CONTINUE:
				found := false
				for _, s := range stack {
					switch s.(type) {
					case *ast.ForStmt, *ast.RangeStmt:
						found = true
					case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
						found = found || b.Tok == token.BREAK
					}
				}
				if !found {
					err = fmt.Errorf("the %s at %s leaves a stretch between barriers", b.Tok, g.position(b))
				}
			}
			return true
		})
	}
	return err
}

// isSharedDecl reports whether s is `x := gpu.Shared[T](t)` with x never
// assigned again and T naming nothing local.
func (g *cpuGen) isSharedDecl(s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || g.thread == nil {
		return false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	if g.gpuKind(call) != gpuapi.Shared {
		return false
	}
	if id, ok := call.Args[0].(*ast.Ident); !ok || g.p.TypesInfo.Uses[id] != g.thread {
		return false
	}
	local := false
	ast.Inspect(call.Fun, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := g.p.TypesInfo.Uses[id]; obj != nil && obj.Pkg() == g.p.Types && obj.Parent() != g.p.Types.Scope() {
				if _, isPkg := obj.(*types.PkgName); !isPkg {
					local = true
				}
			}
		}
		return true
	})
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok || local || id.Name == "_" {
		return false
	}
	obj := g.p.TypesInfo.Defs[id]
	return obj != nil && !g.assigned(obj)
}

// assigned reports whether the body assigns obj (after its declaration),
// or takes its address.
func (g *cpuGen) assigned(obj types.Object) bool {
	info := g.p.TypesInfo
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == obj
	}
	found := false
	ast.Inspect(g.fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.RangeStmt:
			found = found || (n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value))
		case *ast.UnaryExpr:
			found = found || (n.Op == token.AND && is(n.X))
		}
		return !found
	})
	return found
}
