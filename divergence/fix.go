package divergence

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/uniformity"
)

// guardFix offers, for the common shape
//
//	i := t.GlobalIdx().X
//	if i >= n {
//		return
//	}
//	work1
//	t.Barrier()
//	work2
//
// the rewrite
//
//	i := t.GlobalIdx().X
//	if i < n {
//		work1
//	}
//	t.Barrier()
//	if i < n {
//		work2
//	}
//
// It applies only when the early return is a top-level statement of the
// function body whose body is a bare return, every barrier after it is a
// top-level statement too, no barrier hides elsewhere after it, the guard's
// variables are not changed after it, and no variable declared in one piece
// of work is used in a later one. Otherwise it offers nothing.
func (r *reporter) guardFix(f *uniformity.Func, br *uniformity.Branch) []analysis.SuggestedFix {
	fd, ok := f.Fn.Syntax().(*ast.FuncDecl)
	if !ok || fd.Body == nil {
		return nil
	}
	pos := br.Cond.Pos()
	list := fd.Body.List
	g := -1
	for i, s := range list {
		if s.Pos() <= pos && pos < s.End() {
			g = i
		}
	}
	if g < 0 {
		return nil
	}
	guard, ok := list[g].(*ast.IfStmt)
	if !ok || guard.Init != nil || guard.Else != nil || len(guard.Body.List) != 1 || r.fixed[guard] {
		return nil
	}
	if ret, ok := guard.Body.List[0].(*ast.ReturnStmt); !ok || len(ret.Results) != 0 {
		return nil
	}
	info := r.pass.TypesInfo
	// No barrier before the guard, and the barriers after it at top level.
	for _, s := range list[:g] {
		if r.hasBarrier(f, s) {
			return nil
		}
	}
	rest := list[g+1:]
	var segs [][]ast.Stmt // pieces of work between top-level barriers
	var barriers []ast.Stmt
	var cur []ast.Stmt
	for _, s := range rest {
		if isBarrierStmt(info, s) {
			segs = append(segs, cur)
			barriers = append(barriers, s)
			cur = nil
			continue
		}
		if r.hasBarrier(f, s) {
			return nil
		}
		cur = append(cur, s)
	}
	segs = append(segs, cur)
	if len(barriers) == 0 {
		return nil
	}
	// The guard's variables keep their values after it.
	condVars := map[types.Object]bool{}
	ast.Inspect(guard.Cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				condVars[v] = true
			}
		}
		return true
	})
	changed := false
	for _, s := range rest {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && condVars[info.Uses[id]] {
						changed = true
					}
				}
			case *ast.IncDecStmt:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && condVars[info.Uses[id]] {
					changed = true
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && condVars[info.Uses[id]] {
					changed = true
				}
			}
			return true
		})
	}
	if changed {
		return nil
	}
	// Names declared in one piece are not used after it.
	for k, seg := range segs {
		declared := map[types.Object]bool{}
		for _, s := range seg {
			ast.Inspect(s, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && info.Defs[id] != nil {
					declared[info.Defs[id]] = true
				}
				return true
			})
		}
		var later []ast.Stmt
		for _, s := range segs[k+1:] {
			later = append(later, s...)
		}
		later = append(later, barriers[k:]...)
		used := false
		for _, s := range later {
			ast.Inspect(s, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && declared[info.Uses[id]] {
					used = true
				}
				return true
			})
		}
		if used {
			return nil
		}
	}

	src, err := r.pass.ReadFile(r.pass.Fset.File(fd.Pos()).Name())
	if err != nil {
		return nil
	}
	tf := r.pass.Fset.File(fd.Pos())
	text := func(from, to token.Pos) string { return string(src[tf.Offset(from):tf.Offset(to)]) }
	indent := lineIndent(src, tf.Offset(guard.Pos()))
	neg := negate(info, guard.Cond, text(guard.Cond.Pos(), guard.Cond.End()))
	var b strings.Builder
	for k, seg := range segs {
		if len(seg) > 0 {
			if b.Len() > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString("if " + neg + " {\n")
			body := string(src[tf.Offset(seg[0].Pos()):withComment(src, tf.Offset(seg[len(seg)-1].End()))])
			for _, l := range strings.Split(body, "\n") {
				l = strings.TrimPrefix(l, indent)
				if strings.TrimSpace(l) == "" {
					b.WriteString("\n")
					continue
				}
				b.WriteString(indent + "\t" + l + "\n")
			}
			b.WriteString(indent + "}")
		}
		if k < len(barriers) {
			if b.Len() > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString(string(src[tf.Offset(barriers[k].Pos()):withComment(src, tf.Offset(barriers[k].End()))]))
		}
	}
	end := tf.Pos(withComment(src, tf.Offset(rest[len(rest)-1].End())))
	r.fixed[guard] = true
	return []analysis.SuggestedFix{{
		Message: "move the work under `if " + neg + "` and keep the barrier outside it",
		TextEdits: []analysis.TextEdit{{
			Pos:     guard.Pos(),
			End:     end,
			NewText: []byte(b.String()),
		}},
	}}
}

// hasBarrier reports whether statement s holds a barrier site of f (a
// Thread.Barrier call or a call of a device function that reaches one).
func (r *reporter) hasBarrier(f *uniformity.Func, s ast.Stmt) bool {
	for _, site := range f.Barriers {
		if p := site.Call.Pos(); s.Pos() <= p && p < s.End() {
			return true
		}
	}
	return false
}

// isBarrierStmt reports whether s is the statement t.Barrier().
func isBarrierStmt(info *types.Info, s ast.Stmt) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return gpuapi.Func(fn).IsBarrier()
}

func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	i := start
	for i < off && (src[i] == '\t' || src[i] == ' ') {
		i++
	}
	return string(src[start:i])
}

// negate returns the source of !(cond), simplified for a comparison of
// integers (not of floats: NaN compares false both ways).
func negate(info *types.Info, cond ast.Expr, text string) string {
	if b, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok && isInteger(info.TypeOf(b.X)) {
		inv := map[token.Token]token.Token{
			token.EQL: token.NEQ, token.NEQ: token.EQL,
			token.LSS: token.GEQ, token.GEQ: token.LSS,
			token.GTR: token.LEQ, token.LEQ: token.GTR,
		}
		if op, ok := inv[b.Op]; ok {
			return types.ExprString(b.X) + " " + op.String() + " " + types.ExprString(b.Y)
		}
	}
	switch ast.Unparen(cond).(type) {
	case *ast.Ident, *ast.CallExpr, *ast.SelectorExpr:
		return "!" + text
	}
	return "!(" + text + ")"
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// withComment extends the end offset of a statement over a comment that
// follows it on the same line.
func withComment(src []byte, end int) int {
	i := end
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if bytes.HasPrefix(src[i:], []byte("//")) {
		if nl := bytes.IndexByte(src[i:], '\n'); nl >= 0 {
			return i + nl
		}
		return len(src)
	}
	return end
}
