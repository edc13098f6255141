package hostgen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// fastCopy is the copy of a row's X loop that runs where cond holds.
type fastCopy struct{ cond, body string }

// fastCond returns the condition under which the block's row of threads
// indexes every slice parameter that piece pc indexes with the thread's
// global X (t.GlobalIdx().X, or a variable set to it once) in bounds:
// the row's global X range [gpukvetBX, gpukvetEX) lies in [0, len(s)) of
// each. Under it Go's compiler proves those indexings, and the kernel's
// own tests of the index against the slice's length (`if i < len(y)`),
// and drops their checks: the row's loop is then as short as a Go loop
// over the slice. cond is "" when pc indexes no slice parameter so, or
// declares a label (the copy under the condition would declare it
// again). trapFree says that pc cannot trap where cond holds (trapFree),
// so that its copy there need not record the running thread: a store per
// thread, behind the kernel's own stores to memory that is not in the
// cache, halves the speed of a loop like saxpy's.
func (g *cpuGen) fastCond(pc *piece) (cond string, trapFree bool) {
	info := g.p.TypesInfo
	changed := g.changed(pc)
	vars := g.globalXVars(pc, changed)
	slices := map[types.Object]int{}
	labelled := false
	for _, root := range g.pieceNodes(pc) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.LabeledStmt:
				labelled = true
			case *ast.IndexExpr:
				id, ok := ast.Unparen(n.X).(*ast.Ident)
				if !ok || !g.isGlobalX(n.Index, vars) {
					return true
				}
				obj := info.Uses[id]
				if i, ok := g.params[obj]; ok {
					if _, isSlice := obj.Type().Underlying().(*types.Slice); isSlice {
						slices[obj] = i
					}
				}
			}
			return true
		})
	}
	if labelled || len(slices) == 0 {
		return "", false
	}
	var idx []int
	for _, i := range slices {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	conds := []string{"gpukvetBX >= 0"}
	for _, i := range idx {
		conds = append(conds, fmt.Sprintf("gpukvetEX <= len(gpukvetArg%d)", i))
	}
	for obj := range slices {
		if changed[obj] {
			delete(slices, obj) // its indexings are not the condition's
		}
	}
	return strings.Join(conds, " && "), g.trapFree(pc, slices, vars)
}

// changed returns the variables that piece pc assigns (but where it
// declares them), increments, addresses or ranges into.
func (g *cpuGen) changed(pc *piece) map[types.Object]bool {
	info := g.p.TypesInfo
	changed := map[types.Object]bool{}
	lhs := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && info.Uses[id] != nil {
			changed[info.Uses[id]] = true
		}
	}
	for _, root := range g.pieceNodes(pc) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, e := range n.Lhs {
					lhs(e)
				}
			case *ast.IncDecStmt:
				lhs(n.X)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					lhs(n.X)
				}
			case *ast.RangeStmt:
				lhs(n.Key)
				lhs(n.Value)
			}
			return true
		})
	}
	return changed
}

// globalXVars returns the variables of piece pc set to the thread's
// global X where they are declared (i := t.GlobalIdx().X) and not
// changed after.
func (g *cpuGen) globalXVars(pc *piece, changed map[types.Object]bool) map[types.Object]bool {
	info := g.p.TypesInfo
	vars := map[types.Object]bool{}
	for _, root := range g.pieceNodes(pc) {
		ast.Inspect(root, func(n ast.Node) bool {
			if n, ok := n.(*ast.AssignStmt); ok && n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 && g.isGlobalX(n.Rhs[0], nil) {
				if obj := info.Defs[n.Lhs[0].(*ast.Ident)]; obj != nil && !changed[obj] {
					vars[obj] = true
				}
			}
			return true
		})
	}
	return vars
}

// trapFree reports whether piece pc cannot panic where the slices (slice
// parameters it never changes) hold its global X's range: it is made of
// assignments, ifs, loops and returns over arithmetic that cannot trap
// (no integer division, no shift by a variable), numeric conversions,
// len, cap, min and max, and indexings of those slices by the global X.
func (g *cpuGen) trapFree(pc *piece, slices map[types.Object]int, vars map[types.Object]bool) bool {
	info := g.p.TypesInfo
	isFloat := func(e ast.Expr) bool {
		b, ok := info.TypeOf(e).Underlying().(*types.Basic)
		return ok && b.Info()&types.IsFloat != 0
	}
	ok := true
	for _, root := range g.pieceNodes(pc) {
		ast.Inspect(root, func(n ast.Node) bool {
			if !ok || n == nil {
				return false
			}
			switch n := n.(type) {
			case *ast.Ident, *ast.BasicLit, *ast.ParenExpr, *ast.BlockStmt, *ast.IfStmt, *ast.ForStmt, *ast.IncDecStmt:
			case *ast.ReturnStmt:
				ok = len(n.Results) == 0
			case *ast.AssignStmt:
				switch n.Tok {
				case token.QUO_ASSIGN, token.REM_ASSIGN:
					ok = isFloat(n.Lhs[0])
				case token.SHL_ASSIGN, token.SHR_ASSIGN:
					ok = false
				}
			case *ast.BinaryExpr:
				switch n.Op {
				case token.QUO, token.REM:
					ok = isFloat(n)
				case token.SHL, token.SHR:
					ok = info.Types[n.Y].Value != nil
				}
			case *ast.UnaryExpr:
				ok = n.Op != token.AND && n.Op != token.ARROW
			case *ast.IndexExpr:
				id, isID := ast.Unparen(n.X).(*ast.Ident)
				_, fast := slices[info.Uses[id]]
				ok = isID && fast && g.isGlobalX(n.Index, vars)
				return false
			case *ast.SelectorExpr:
				ok = g.isGlobalX(n, vars)
				return false
			case *ast.CallExpr:
				ok = g.safeCall(n)
			default:
				ok = false
			}
			return ok
		})
	}
	return ok
}

// safeCall reports whether call is a conversion to a basic type or a call
// of len, cap, min or max, none of which can panic.
func (g *cpuGen) safeCall(call *ast.CallExpr) bool {
	tv := g.p.TypesInfo.Types[call.Fun]
	if tv.IsType() {
		_, basic := tv.Type.Underlying().(*types.Basic)
		return basic
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || !tv.IsBuiltin() {
		return false
	}
	switch id.Name {
	case "len", "cap", "min", "max":
		return true
	}
	return false
}

// isGlobalX reports whether e is the thread's global X: t.GlobalIdx().X,
// or one of vars.
func (g *cpuGen) isGlobalX(e ast.Expr, vars map[types.Object]bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return vars[g.p.TypesInfo.Uses[e]]
	case *ast.SelectorExpr:
		call, ok := ast.Unparen(e.X).(*ast.CallExpr)
		if !ok || e.Sel.Name != "X" || !g.indexOf[call] {
			return false
		}
		return g.gpuKind(call) == gpuapi.GlobalIdx
	}
	return false
}

// spannable reports whether piece pc, the whole body of a kernel without
// barriers, may run a span of blocks as one block Span times as wide
// (backend.CPUCode.Spans): it reads only the thread's global index, not
// its index in the block nor the block's, nor the gpu.Thread otherwise.
func (g *cpuGen) spannable(pc *piece) bool {
	if _, thread := g.uses(pc); thread {
		return false
	}
	for call := range g.indexOf {
		if g.gpuKind(call) != gpuapi.GlobalIdx {
			return false
		}
	}
	return true
}
