package divergence

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
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
	fd, g, ok := r.earlyReturn(f, br)
	if !ok {
		return nil
	}
	guard := fd.Body.List[g].(*ast.IfStmt)
	rest := fd.Body.List[g+1:]
	segs, barriers, ok := r.pieces(f, fd.Body.List, g)
	info := r.pass.TypesInfo
	if !ok || assignsAny(info, rest, usedVars(info, guard.Cond)) || usedAcrossBarriers(info, segs, barriers) {
		return nil
	}
	text, end, neg, ok := r.rewrite(fd, guard, segs, barriers)
	if !ok {
		return nil
	}
	r.fixed[guard] = true
	return []analysis.SuggestedFix{{
		Message:   "move the work under `if " + neg + "` and keep the barrier outside it",
		TextEdits: []analysis.TextEdit{{Pos: guard.Pos(), End: end, NewText: []byte(text)}},
	}}
}

// earlyReturn finds the early return of branch br that guardFix rewrites:
// a top-level statement `if cond { return }` of f's body, with no init, no
// else and no fix offered yet. It returns f's declaration and the
// statement's index in its body.
func (r *reporter) earlyReturn(f *uniformity.Func, br *uniformity.Branch) (*ast.FuncDecl, int, bool) {
	fd, ok := f.Fn.Syntax().(*ast.FuncDecl)
	if !ok || fd.Body == nil {
		return nil, 0, false
	}
	pos := br.Cond.Pos()
	g := -1
	for i, s := range fd.Body.List {
		if s.Pos() <= pos && pos < s.End() {
			g = i
		}
	}
	if g < 0 {
		return nil, 0, false
	}
	guard, ok := fd.Body.List[g].(*ast.IfStmt)
	if !ok || guard.Init != nil || guard.Else != nil || len(guard.Body.List) != 1 || r.fixed[guard] {
		return nil, 0, false
	}
	if ret, ok := guard.Body.List[0].(*ast.ReturnStmt); !ok || len(ret.Results) != 0 {
		return nil, 0, false
	}
	return fd, g, true
}

// pieces cuts the statements of list after the guard at index g into the
// pieces of work between top-level barriers, and those barriers. ok is
// false when a barrier comes before the guard or hides in a statement
// after it, or when no barrier follows it.
func (r *reporter) pieces(f *uniformity.Func, list []ast.Stmt, g int) (segs [][]ast.Stmt, barriers []ast.Stmt, ok bool) {
	for _, s := range list[:g] {
		if r.hasBarrier(f, s) {
			return nil, nil, false
		}
	}
	var cur []ast.Stmt
	for _, s := range list[g+1:] {
		if isBarrierStmt(r.pass.TypesInfo, s) {
			segs = append(segs, cur)
			barriers = append(barriers, s)
			cur = nil
			continue
		}
		if r.hasBarrier(f, s) {
			return nil, nil, false
		}
		cur = append(cur, s)
	}
	segs = append(segs, cur)
	return segs, barriers, len(barriers) > 0
}

// usedVars returns the variables that expression e reads.
func usedVars(info *types.Info, e ast.Expr) map[types.Object]bool {
	vars := map[types.Object]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				vars[v] = true
			}
		}
		return true
	})
	return vars
}

// assignsAny reports whether the statements of list may change one of
// vars: assign it, increment it or take its address.
func assignsAny(info *types.Info, list []ast.Stmt, vars map[types.Object]bool) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && vars[info.Uses[id]]
	}
	changed := false
	for _, s := range list {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				changed = changed || slices.ContainsFunc(n.Lhs, is)
			case *ast.IncDecStmt:
				changed = changed || is(n.X)
			case *ast.UnaryExpr:
				changed = changed || n.Op == token.AND && is(n.X)
			}
			return true
		})
	}
	return changed
}

// usedAcrossBarriers reports whether a name declared in one piece of work
// is used after it: in a later piece, or in a barrier statement after it.
func usedAcrossBarriers(info *types.Info, segs [][]ast.Stmt, barriers []ast.Stmt) bool {
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
			return true
		}
	}
	return false
}

// rewrite returns the text that replaces the guard and every statement
// after it (up to end): each piece of work under `if neg`, the negated
// guard condition, with the barriers between them left outside.
func (r *reporter) rewrite(fd *ast.FuncDecl, guard *ast.IfStmt, segs [][]ast.Stmt, barriers []ast.Stmt) (text string, end token.Pos, neg string, ok bool) {
	src, err := r.pass.ReadFile(r.pass.Fset.File(fd.Pos()).Name())
	if err != nil {
		return "", token.NoPos, "", false
	}
	tf := r.pass.Fset.File(fd.Pos())
	span := func(from, to token.Pos) string { return string(src[tf.Offset(from):tf.Offset(to)]) }
	indent := lineIndent(src, tf.Offset(guard.Pos()))
	neg = negate(r.pass.TypesInfo, guard.Cond, span(guard.Cond.Pos(), guard.Cond.End()))
	var b strings.Builder
	for k, seg := range segs {
		if len(seg) > 0 {
			if b.Len() > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString("if " + neg + " {\n")
			writeIndented(&b, string(src[tf.Offset(seg[0].Pos()):withComment(src, tf.Offset(seg[len(seg)-1].End()))]), indent)
			b.WriteString(indent + "}")
		}
		if k < len(barriers) {
			if b.Len() > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString(string(src[tf.Offset(barriers[k].Pos()):withComment(src, tf.Offset(barriers[k].End()))]))
		}
	}
	list := fd.Body.List
	end = tf.Pos(withComment(src, tf.Offset(list[len(list)-1].End())))
	return b.String(), end, neg, true
}

// writeIndented writes the lines of body one level deeper than indent,
// the level they were at; blank lines stay blank.
func writeIndented(b *strings.Builder, body, indent string) {
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimPrefix(l, indent)
		if strings.TrimSpace(l) == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(indent + "\t" + l + "\n")
	}
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
