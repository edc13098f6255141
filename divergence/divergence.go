package divergence

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
	"github.com/gpukvet/gpukvet/internal/twothread"
	"github.com/gpukvet/gpukvet/uniformity"
)

//go:embed doc.go
var doc string

// Analyzer reports barriers that only some threads of a block may reach.
var Analyzer = define.Check(&analysis.Analyzer{
	Name:     "divergence",
	Doc:      define.Doc(doc, "divergence"),
	URL:      "https://github.com/gpukvet/gpukvet/tree/main/divergence",
	Run:      run,
	Requires: []*analysis.Analyzer{kernels.Analyzer, uniformity.Analyzer},
})

func run(pass *analysis.Pass) (any, error) {
	if !pass.ResultOf[kernels.Analyzer].(*kernels.Result).Relevant {
		return nil, nil
	}
	res := pass.ResultOf[uniformity.Analyzer].(*uniformity.Result)
	r := &reporter{pass: pass, seen: map[string]bool{}, calls: callExprs(pass.Files), fixed: map[*ast.IfStmt]bool{}}
	for _, f := range res.Order {
		var ag *twothread.Agreement
		for _, site := range f.Barriers {
			if !site.Divergent() {
				continue
			}
			var guard *twothread.Guard
			if f.Kernel != nil && site.Arg < 0 {
				if ag == nil {
					ag = twothread.NewAgreement(f.Fn, twothread.ShapeOf(f.Kernel), res)
				}
				if agreed(f, site, ag) {
					continue
				}
				guard = suggest(f, site, ag)
			}
			r.report(f, site, guard)
		}
	}
	return nil, nil
}

// suggest returns the precondition under which every controlling branch
// of the site would agree (twothread.Agreement.Guard), so that all
// threads of a block reach it, or nil.
func suggest(f *uniformity.Func, site *uniformity.BarrierSite, ag *twothread.Agreement) *twothread.Guard {
	x := site.Call.Block()
	var brs []*ssa.BasicBlock
	for _, br := range f.Controlling(x) {
		brs = append(brs, br.Block)
	}
	if len(brs) == 0 || f.Kernel.Decl == nil || f.Kernel.Decl.Body == nil {
		return nil
	}
	if g, ok := ag.Guard(x, brs); ok {
		return &g
	}
	return nil
}

// agreed reports whether every divergent branch that decides whether
// threads reach the site is nevertheless taken the same way by all threads
// of a block, given the facts that hold at it: the kernel's preconditions
// (`if n%t.BlockDim().X != 0 { panic(…) }` makes the block-stride loop
// `for i := tid; i < n; i += t.BlockDim().X` run as many iterations in
// every thread) and the other branches that lead to it. The two-thread
// model that the races check uses too decides it (twothread.Agreement).
func agreed(f *uniformity.Func, site *uniformity.BarrierSite, ag *twothread.Agreement) bool {
	x := site.Call.Block()
	ctl := f.Controlling(x)
	if len(ctl) == 0 {
		return false
	}
	for _, br := range ctl {
		if !ag.Agree(x, br.Block) {
			return false
		}
	}
	return true
}

type reporter struct {
	pass  *analysis.Pass
	seen  map[string]bool // position and message of each report (generic functions and their instances share code)
	calls map[token.Pos]*ast.CallExpr
	fixed map[*ast.IfStmt]bool // early returns a fix was offered for
}

// callExprs maps the Lparen of every call to its expression: go/ssa gives a
// call's Lparen as its position.
func callExprs(files []*ast.File) map[token.Pos]*ast.CallExpr {
	m := map[token.Pos]*ast.CallExpr{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				m[c.Lparen] = c
			}
			return true
		})
	}
	return m
}

func (r *reporter) report(f *uniformity.Func, site *uniformity.BarrierSite, guard *twothread.Guard) {
	what := "barrier"
	if site.Callee != nil {
		what = fmt.Sprintf("call of %s, which reaches a barrier,", site.Callee.Name())
	}
	var msg string
	if br := site.Under; br != nil {
		msg = fmt.Sprintf("%s may be reached by only some threads of the block: %s", what, r.how(f, site, br))
	} else {
		name := fmt.Sprintf("argument %d", site.Arg+1)
		if sig := site.Callee.Signature(); sig != nil {
			i := site.Arg
			if sig.Recv() != nil {
				i--
			}
			if i >= 0 && i < sig.Params().Len() && sig.Params().At(i).Name() != "" {
				name = "argument " + sig.Params().At(i).Name()
			} else if i < 0 {
				name = "receiver"
			}
		}
		msg = fmt.Sprintf("%s may be reached by only some threads of the block: whether %s reaches its barrier depends on its %s, which depends on %s",
			what, site.Callee.Name(), name, r.describe(site.ArgDep.Src, site.Call.Pos()))
	}
	if guard != nil {
		msg += guard.Clause()
	}
	pos, end := site.Call.Pos(), token.NoPos
	if c := r.calls[pos]; c != nil {
		pos, end = c.Pos(), c.End()
	}
	key := fmt.Sprint(pos, msg)
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	d := analysis.Diagnostic{Pos: pos, End: end, Category: "divergence", Message: msg, Related: r.related(f, site)}
	if site.Under != nil && site.Under.ExitsFunction {
		d.SuggestedFixes = r.guardFix(f, site.Under)
	}
	// An early return that only some threads take is the bounds check of
	// a grid that overhangs the data: the fix that keeps it (the work
	// moves under the opposite condition, above) serves every size, so
	// the precondition is only named there, not offered.
	if guard != nil && (site.Under == nil || !site.Under.ExitsFunction) {
		d.SuggestedFixes = append(d.SuggestedFixes, guard.Fix(f.Kernel.Decl.Body.Lbrace))
	}
	r.pass.Report(d)
}

// related gives the positions a report at a barrier site speaks of: the
// divergent condition, or the divergent argument, and the source of its
// divergence (ThreadIdx, a load, ...) when it is elsewhere.
func (r *reporter) related(f *uniformity.Func, site *uniformity.BarrierSite) []analysis.RelatedInformation {
	var rel []analysis.RelatedInformation
	why := site.ArgDep.Src
	if br := site.Under; br != nil {
		cond, at := r.condText(f, br)
		if at.IsValid() {
			rel = append(rel, analysis.RelatedInformation{Pos: at, Message: "the divergent condition " + cond})
		}
		why = br.Dep.Src
	} else if args := site.Call.Common().Args; site.Arg >= 0 && site.Arg < len(args) && args[site.Arg].Pos().IsValid() {
		rel = append(rel, analysis.RelatedInformation{Pos: args[site.Arg].Pos(), Message: "the divergent argument"})
	}
	if why != nil && why.Pos.IsValid() && (len(rel) == 0 || r.pass.Fset.Position(why.Pos).Line != r.pass.Fset.Position(rel[0].Pos).Line) {
		rel = append(rel, analysis.RelatedInformation{Pos: why.Pos, Message: "where threads start to differ: " + why.What})
	}
	return rel
}

// how says why a thread may not reach the site that branch br controls. The
// statement the condition belongs to decides the words where the syntax is
// plain; the control-flow graph decides otherwise.
func (r *reporter) how(f *uniformity.Func, site *uniformity.BarrierSite, br *uniformity.Branch) string {
	cond, condAt := r.condText(f, br)
	line := r.pass.Fset.Position(condAt).Line
	why := r.describe(br.Dep.Src, site.Call.Pos())
	under := fmt.Sprintf("it is under the condition %s (line %d), which depends on %s", cond, line, why)
	trip := fmt.Sprintf("it is in a loop whose trip count differs between threads: the loop condition %s (line %d) depends on %s", cond, line, why)
	early := fmt.Sprintf("some threads return (or panic) before it, on the condition %s (line %d), which depends on %s", cond, line, why)
	brk := fmt.Sprintf("threads leave the loop early (break) on the condition %s (line %d), which depends on %s", cond, line, why)
	cont := fmt.Sprintf("threads skip the rest of the loop (continue) on the condition %s (line %d), which depends on %s", cond, line, why)

	at := site.Call.Pos()
	if stmt := condStmt(f, br); stmt != nil {
		switch s := stmt.(type) {
		case *ast.ForStmt:
			if within(s.Body, at) {
				return trip
			}
		case *ast.IfStmt:
			if within(s.Body, at) || s.Else != nil && within(s.Else, at) {
				return under
			}
			if n := len(s.Body.List); s.Else == nil && n > 0 {
				switch last := s.Body.List[n-1].(type) {
				case *ast.ReturnStmt:
					return early
				case *ast.ExprStmt:
					if call, ok := last.X.(*ast.CallExpr); ok {
						if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
							return early
						}
					}
				case *ast.BranchStmt:
					switch last.Tok {
					case token.BREAK:
						return brk
					case token.CONTINUE:
						return cont
					}
				}
			}
		case *ast.CaseClause:
			if within(s, at) {
				return under
			}
		}
	}
	x := site.Call.Block()
	switch {
	case br.Loop != nil && inLoop(br.Loop, x) && br.Block == br.Loop:
		return trip
	case br.Loop != nil && inLoop(br.Loop, x) && br.ExitsFunction:
		return fmt.Sprintf("threads return early from the loop on the condition %s (line %d), which depends on %s", cond, line, why)
	case br.Loop != nil && inLoop(br.Loop, x):
		return brk
	case br.ExitsFunction:
		return early
	}
	return under
}

// describe renders a reason, naming its file when it lies in another file
// than the report.
func (r *reporter) describe(why *uniformity.Reason, at token.Pos) string {
	if why == nil || !why.Pos.IsValid() {
		return why.Describe(r.pass.Fset)
	}
	p, q := r.pass.Fset.Position(why.Pos), r.pass.Fset.Position(at)
	if p.Filename != q.Filename {
		s := fmt.Sprintf("%s at %s:%d", why.What, filepath.Base(p.Filename), p.Line)
		if why.Because != nil {
			s += ", which depends on " + r.describe(why.Because, why.Pos)
		}
		return s
	}
	return why.Describe(r.pass.Fset)
}

func within(n ast.Node, pos token.Pos) bool { return n.Pos() <= pos && pos < n.End() }

// condStmt returns the innermost if, for or switch case whose condition
// holds the branch's condition, or nil.
func condStmt(f *uniformity.Func, br *uniformity.Branch) ast.Node {
	fd, ok := f.Fn.Syntax().(*ast.FuncDecl)
	pos := br.Cond.Pos()
	if !ok || !pos.IsValid() {
		return nil
	}
	var found ast.Node
	ast.Inspect(fd, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.IfStmt:
			if within(s.Cond, pos) {
				found = s
			}
		case *ast.ForStmt:
			if s.Cond != nil && within(s.Cond, pos) {
				found = s
			}
		case *ast.CaseClause:
			for _, e := range s.List {
				if within(e, pos) {
					found = s
				}
			}
		}
		return true
	})
	return found
}

// inLoop reports whether block x is in the natural loop of header h: h
// dominates x and x reaches h.
func inLoop(h, x *ssa.BasicBlock) bool {
	return h.Dominates(x) && kernelssa.Reaches(x, h)
}

// condText returns the source text of a branch condition (quoted) and its
// line.
func (r *reporter) condText(f *uniformity.Func, br *uniformity.Branch) (string, token.Pos) {
	pos := br.Cond.Pos()
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			if ref, ok := instr.(*ssa.DebugRef); ok && ref.X == br.Cond {
				return "`" + types.ExprString(ref.Expr) + "`", ref.Expr.Pos()
			}
		}
	}
	if !pos.IsValid() {
		if ifi, ok := br.Block.Instrs[len(br.Block.Instrs)-1].(*ssa.If); ok {
			pos = ifi.Pos()
		}
	}
	// A switch case compares the tag with the case expression.
	if bin, ok := br.Cond.(*ssa.BinOp); ok && bin.Op == token.EQL {
		if fd, ok := f.Fn.Syntax().(*ast.FuncDecl); ok {
			if tag, val := switchCase(fd, pos); tag != nil {
				return "`" + types.ExprString(tag) + " == " + types.ExprString(val) + "` (a switch case)", pos
			}
		}
	}
	return "at this branch", pos
}

// switchCase returns the tag and the case expression of the innermost
// tagged switch in fd with a case expression at pos, or nils.
func switchCase(fd *ast.FuncDecl, pos token.Pos) (tag, val ast.Expr) {
	ast.Inspect(fd, func(n ast.Node) bool {
		s, ok := n.(*ast.SwitchStmt)
		if !ok || s.Tag == nil || !within(s, pos) {
			return true
		}
		for _, c := range s.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if within(e, pos) {
					tag, val = s.Tag, e
				}
			}
		}
		return true
	})
	return tag, val
}
