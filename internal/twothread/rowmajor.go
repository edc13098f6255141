package twothread

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// Row-major indices. An index r·w + c, with w a value of one polynomial
// for both threads and 0 ≤ c < w, names row r and column c of a matrix of
// width w, and two such indices are equal only when their rows and their
// columns are. The
// linear solver does not see it when the rows are per-thread values (a
// tile's row by·B of a wavefront kernel, whose block coordinates come from
// the block index and the diagonal number): w·(r₁ − r₂) = c₂ − c₁ is a
// product it only case-splits on signs. So a pair whose collision the
// solver could not refute is asked again with, for a value w that
// multiplies summands of both indices, the fact
//
//	c₁ ∉ [0, w) or c₂ ∉ [0, w) or (r₁ = r₂ and c₁ = c₂)
//
// which holds for all integers (and, asked again, with a column w read
// as cell 0 of the next row: retryWrapped). Each index is split into r·w + c by its
// SSA form (the summands through + and −, the factors through ·) and the
// split is kept only when r·w + c is the index's polynomial.

// maxRowMajorWidths bounds the widths tried for one pair, and
// maxRowMajorMisses the pairs of one kernel asked again in vain: in a
// kernel whose indices are row-major and race (an in-place stencil) every
// pair would otherwise be solved twice, and after one miss the kernel is
// reported anyway.
const (
	maxRowMajorWidths = 2
	maxRowMajorMisses = 1
)

// retryRowMajor asks pair problem p of accesses a and b again with the
// row-major facts of their indices ia and ib, when they have any and the
// kernel's misses allow, and returns the new answer, or the old one. An
// answer that is not a model of the polynomial constraints themselves is
// asked again with the quotient bounds (retryQuotients), then with
// columns one past the row (retryWrapped).
func (k *Kernel) retryRowMajor(p *problem, a, b *Access, ia, ib []poly, verdict lincon.Verdict, model []int64) (lincon.Verdict, []int64) {
	n := len(p.clauses)
	if k.rowMajorMisses >= maxRowMajorMisses || !p.addRowMajor(a, b, ia, ib) {
		return verdict, model
	}
	verdict, model = k.solve(p.linearize())
	if verdict != lincon.Infeasible && !(verdict == lincon.Feasible && p.genuine(model)) &&
		(k.retryQuotients(p) || k.retryWrapped(p, a, b, ia, ib, n)) {
		verdict, model = lincon.Infeasible, nil
	}
	if verdict != lincon.Infeasible {
		k.rowMajorMisses++
	}
	return verdict, model
}

// retryWrapped asks p again with its row-major facts, the clauses from
// the n-th on, made again reading a column w, one past the row, as cell 0
// of the next row (HeCBench matrix-rotate's ring with last = w − layer
// wraps there), and reports whether that refuted it. The reading costs
// three more alternatives per clause, so only pairs the plain facts did
// not settle pay for it, and the plain facts come back either way.
func (k *Kernel) retryWrapped(p *problem, a, b *Access, ia, ib []poly, n int) bool {
	plain := p.clauses
	p.clauses = slices.Clip(p.clauses[:n])
	p.wrapColumns = true
	p.addRowMajor(a, b, ia, ib)
	p.wrapColumns = false
	v, _ := k.solve(p.linearize())
	p.clauses = plain
	return v == lincon.Infeasible
}

// A summand is one term of an index's sum: sign · v.
type summand struct {
	fr   *frame
	v    ssa.Value
	sign int64
}

// addRowMajor adds the row-major fact of each index component that splits
// by a shared width, and reports whether it added any.
func (p *problem) addRowMajor(a, b *Access, ia, ib []poly) bool {
	added := false
	for i := range ia {
		sa, sb := compSummands(a.comps[i]), compSummands(b.comps[i])
		split := false
		for _, wp := range p.widths(sa, sb) {
			for _, bare := range [...]bool{true, false} {
				r1, c1, ok1 := p.splitBy(sa, a.comps[i].k, wp, ia[i], 1, bare)
				r2, c2, ok2 := p.splitBy(sb, b.comps[i].k, wp, ib[i], 2, bare)
				if !ok1 || !ok2 || !bare && !p.splitsDiffer(sa, sb, wp) {
					continue
				}
				p.addRowMajorClause(wp, r1, c1, r2, c2)
				split = true
			}
		}
		if !split {
			split = p.addPolyRowMajor(ia[i], ib[i], nil, maxPolyRowMajorDepth)
		}
		added = added || split
	}
	return added
}

// addRowMajorClause adds that r1·w + c1 and r2·w + c2 are equal only as
// row and column, when both columns are in [0, w); with unless, only when
// its alternatives all fail (they say the two indices differ). With
// p.wrapColumns a column w is read too, as cell 0 of the next row.
func (p *problem) addRowMajorClause(w, r1, c1, r2, c2 poly, unless ...[]cons) {
	if !p.wrapColumns {
		p.clauses = append(p.clauses, append(clause{
			{lt(c1, constPoly(0))}, {le(w, c1)},
			{lt(c2, constPoly(0))}, {le(w, c2)},
			{eq(sub(r1, r2)), eq(sub(c1, c2))},
		}, unless...))
		return
	}
	one := constPoly(1)
	p.clauses = append(p.clauses, append(clause{
		{lt(c1, constPoly(0))}, {lt(w, c1)},
		{lt(c2, constPoly(0))}, {lt(w, c2)},
		{lt(c1, w), lt(c2, w), eq(sub(r1, r2)), eq(sub(c1, c2))},
		{eq(sub(c1, w)), lt(c2, w), eq(sub(add(r1, one), r2)), eq(c2)},
		{lt(c1, w), eq(sub(c2, w)), eq(sub(r1, add(r2, one))), eq(c1)},
		{eq(sub(c1, w)), eq(sub(c2, w)), eq(sub(r1, r2))},
	}, unless...))
}

// splitsDiffer reports whether a summand of sa or sb is w itself, so that
// splitBy's two readings differ.
func (p *problem) splitsDiffer(sa, sb []summand, w poly) bool {
	for t, ss := range [...][]summand{sa, sb} {
		for _, s := range ss {
			if fs := factors(s.fr, s.v, 0); len(fs) == 1 && len(sub(p.eval(s.fr, s.v, t+1), w)) == 0 {
				return true
			}
		}
	}
	return false
}

// maxPolyRowMajorDepth bounds the nested splits of addPolyRowMajor: a
// plane of rows (k·w·h + j·w + i) needs two.
const maxPolyRowMajorDepth = 2

// addPolyRowMajor is the row-major split read off the index polynomials a
// and b when their SSA form does not show it: a loop value moved by a
// loop-invariant step (Rodinia hotspot3D's c := i + j·w; … c += w·h) is one
// phi in SSA, but its polynomial, i + j·w + k·w·h, splits by w all the
// same, and its row j + k·h splits again by h. A width is a variable both
// threads share that multiplies a term of degree two or more in both
// polynomials (at the top; in either, for a row split again). Any split
// r·w + c of equal indices makes the clause true for all integers, so the
// choice only decides whether it helps. The indices are equal at the top
// (the pair question says so); rows split again are equal only where the
// clause above took its last alternative, so the nested clause holds
// unless they differ (differ lists the alternatives saying so).
func (p *problem) addPolyRowMajor(a, b poly, differ [][]cons, depth int) bool {
	if depth == 0 {
		return false
	}
	added := false
	for _, v := range p.polyWidths(a, b, differ == nil) {
		r1, c1 := splitPoly(a, v)
		r2, c2 := splitPoly(b, v)
		p.addRowMajorClause(varPoly(v), r1, c1, r2, c2, differ...)
		rowsDiffer := append(slices.Clip(differ), []cons{lt(r1, r2)}, []cons{lt(r2, r1)})
		p.addPolyRowMajor(r1, r2, rowsDiffer, depth-1)
		added = true
	}
	return added
}

// polyWidths returns addPolyRowMajor's candidate widths of a and b, at
// most maxRowMajorWidths: with both, those of a's product terms that also
// multiply in b; otherwise those of either's, a's first.
func (p *problem) polyWidths(a, b poly, both bool) []lincon.Var {
	inB := productVars(b)
	var out []lincon.Var
	for _, x := range []poly{a, b} {
		for _, t := range x.sorted() {
			if len(t.vars) < 2 {
				continue
			}
			for _, v := range t.vars {
				if !p.vars[v].shared || slices.Contains(out, v) || both && !slices.Contains(inB, v) {
					continue
				}
				if out = append(out, v); len(out) == maxRowMajorWidths {
					return out
				}
			}
		}
		if both {
			break
		}
	}
	return out
}

// productVars returns the variables of x's terms of degree two or more.
func productVars(x poly) []lincon.Var {
	var out []lincon.Var
	for _, t := range x {
		if len(t.vars) >= 2 {
			out = append(out, t.vars...)
		}
	}
	return out
}

// splitPoly splits x into r·v + c: r the terms with v as a factor (one v
// taken out), c the rest.
func splitPoly(x poly, v lincon.Var) (r, c poly) {
	r, c = poly{}, poly{}
	for _, t := range x {
		i := slices.Index(t.vars, v)
		if i < 0 {
			c.addTerm(t.vars, t.coef)
			continue
		}
		r.addTerm(slices.Delete(slices.Clone(t.vars), i, i+1), t.coef)
	}
	return r, c
}

// widths returns the candidate widths of a pair's index components: the
// polynomials of non-constant factors of a product summand of each that
// are one polynomial for both threads (a value both share, or one
// computed from such values alone; Go's SSA computes n+1 afresh in
// row*(n+1) and (row-1)*(n+1), so factors are matched by polynomial).
func (p *problem) widths(sa, sb []summand) []poly {
	var inB []poly
	for _, s := range sb {
		if fs := factors(s.fr, s.v, 0); len(fs) > 1 {
			for _, f := range fs {
				inB = append(inB, p.eval(f.fr, f.v, 2))
			}
		}
	}
	var out []poly
	for _, s := range sa {
		fs := factors(s.fr, s.v, 0)
		if len(fs) < 2 {
			continue
		}
		for _, f := range fs {
			wp := p.eval(f.fr, f.v, 1)
			if _, isConst := wp.constant(); isConst || !containsPoly(inB, wp) || containsPoly(out, wp) {
				continue
			}
			out = append(out, wp)
			if len(out) == maxRowMajorWidths {
				return out
			}
		}
	}
	return out
}

func containsPoly(ps []poly, x poly) bool {
	for _, q := range ps {
		if len(sub(q, x)) == 0 {
			return true
		}
	}
	return false
}

// compSummands returns the summands of an index component.
func compSummands(c comp) []summand {
	if c.any || c.field {
		return nil
	}
	var out []summand
	for _, t := range c.terms {
		out = appendSummands(out, t.fr, t.v, 1, 0)
	}
	return out
}

func appendSummands(out []summand, fr *frame, v ssa.Value, sign int64, depth int) []summand {
	if depth < 12 {
		switch x := v.(type) {
		case *ssa.BinOp:
			if x.Op == token.ADD || x.Op == token.SUB {
				out = appendSummands(out, fr, x.X, sign, depth+1)
				s := sign
				if x.Op == token.SUB {
					s = -sign
				}
				return appendSummands(out, fr, x.Y, s, depth+1)
			}
		case *ssa.Convert:
			if isInteger(x.X.Type()) {
				return appendSummands(out, fr, x.X, sign, depth+1)
			}
		case *ssa.Parameter:
			if a, pfr, ok := argOf(fr, x); ok {
				return appendSummands(out, pfr, a, sign, depth+1)
			}
		}
	}
	return append(out, summand{fr, v, sign})
}

// factors returns the factors of a product (through · and conversions).
func factors(fr *frame, v ssa.Value, depth int) []valRef {
	if depth < 12 {
		switch x := v.(type) {
		case *ssa.BinOp:
			if x.Op == token.MUL {
				return append(factors(fr, x.X, depth+1), factors(fr, x.Y, depth+1)...)
			}
		case *ssa.Convert:
			if isInteger(x.X.Type()) {
				return factors(fr, x.X, depth+1)
			}
		case *ssa.Parameter:
			if a, pfr, ok := argOf(fr, x); ok {
				return factors(pfr, a, depth+1)
			}
		}
	}
	return []valRef{{fr, v}}
}

// splitBy writes index idx (summands ss plus constant k) of thread t as
// r·w + c, with r the summands that have a factor of polynomial w (or,
// with bare, are w), divided by it. It fails when r·w + c is not idx as a
// polynomial (a product beyond the model's degree).
//
// A summand that is w itself is a row in a plane offset (n·w + i + w is
// row rows + y + 1), and a column in a mirrored one: HeCBench
// matrix-rotate's last·w + last − offset, last = w − 1 − layer, is row
// last and column last − offset, while counting its summand w as a row
// gives row last + 1 and a negative column, which the clause cannot use.
// So the pair gets a clause for each reading (splitsDiffer).
func (p *problem) splitBy(ss []summand, k int64, w, idx poly, t int, bare bool) (r, c poly, ok bool) {
	r, c = constPoly(0), constPoly(k)
	for _, s := range ss {
		fs := factors(s.fr, s.v, 0)
		at := -1
		for i, f := range fs {
			if (bare || len(fs) > 1) && len(sub(p.eval(f.fr, f.v, t), w)) == 0 {
				at = i
				break
			}
		}
		if at < 0 {
			c = add(c, scale(p.eval(s.fr, s.v, t), s.sign))
			continue
		}
		cof := constPoly(s.sign)
		for i, f := range fs {
			if i == at {
				continue
			}
			if cof, ok = mulPoly(cof, p.eval(f.fr, f.v, t)); !ok {
				return nil, nil, false
			}
		}
		r = add(r, cof)
	}
	rw, ok := mulPoly(r, w)
	if !ok || len(sub(add(rw, c), idx)) != 0 {
		return nil, nil, false
	}
	return r, c, true
}
