package hostgen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"golang.org/x/tools/go/types/typeutil"
)

// fastCond returns the condition under which the block's row of threads
// indexes every slice parameter that piece pc indexes with the thread's
// global X (t.GlobalIdx().X, or a variable set to it once) in bounds:
// the row's global X range [gpukvetBX, gpukvetEX) lies in [0, len(s)) of
// each. Under it Go's compiler proves those indexings, and the kernel's
// own tests of the index against the slice's length (`if i < len(y)`),
// and drops their checks: the row's loop is then as short as a Go loop
// over the slice. "" when pc indexes no slice parameter so, or declares
// a label (the copy under the condition would declare it again).
func (g *cpuGen) fastCond(pc *piece) string {
	info := g.p.TypesInfo
	vars := g.globalXVars(pc)
	slices := map[int]bool{}
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
						slices[i] = true
					}
				}
			}
			return true
		})
	}
	if labelled || len(slices) == 0 {
		return ""
	}
	var idx []int
	for i := range slices {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	conds := []string{"gpukvetBX >= 0"}
	for _, i := range idx {
		conds = append(conds, fmt.Sprintf("gpukvetEX <= len(gpukvetArg%d)", i))
	}
	return strings.Join(conds, " && ")
}

// globalXVars returns the variables of piece pc set to the thread's
// global X where they are declared (i := t.GlobalIdx().X) and never
// assigned or addressed after.
func (g *cpuGen) globalXVars(pc *piece) map[types.Object]bool {
	info := g.p.TypesInfo
	vars := map[types.Object]bool{}
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
				if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 && g.isGlobalX(n.Rhs[0], nil) {
					if obj := info.Defs[n.Lhs[0].(*ast.Ident)]; obj != nil {
						vars[obj] = true
					}
				}
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
	for obj := range changed {
		delete(vars, obj)
	}
	return vars
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
		fn, ok := typeutil.Callee(g.p.TypesInfo, call).(*types.Func)
		return ok && gpuapi.Func(fn) == gpuapi.GlobalIdx
	}
	return false
}
