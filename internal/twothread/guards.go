package twothread

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// Guard suggestions: when a race (or, through Agreement, a divergent
// barrier) needs sizes that a kernel would exclude with a precondition, the
// diagnostic names the guard and offers it as a fix. The candidates come
// from the sizes the question speaks of: the kernel's integer parameters
// and the lengths of its slice parameters, against the block's extents and
// each other:
//
//	n > len(a)      n must be at most len(a)
//	x < B           x must be at least the block (B: t.BlockDim().X, or
//	                the block= extent)
//	x%B != 0        x must be a multiple of the block
//	x&(x-1) != 0    x must be a power of two (a parameter)
//
// A candidate is kept only when it holds in the witness (it excludes the
// collision found) and when every pair question of the race's line, asked
// again with its negation as a fact, has no answer: the guard removes the
// race, never only this witness of it. Degenerate sizes (witness.go) are
// tried first, then the candidates above in that order.

// A Guard is a precondition `if Cond { panic(Require) }` at a kernel's
// top: Cond is a condition on the kernel's sizes ("n < 1") under which
// alone the collision (or disagreement) happens, and Require says what
// the guard requires ("n must be a multiple of t.BlockDim().X").
type Guard struct {
	Cond, Require string
}

// Clause is the end of a diagnostic that g excludes: what the collision
// (or disagreement) needs and how the kernel states the guard.
func (g Guard) Clause() string {
	return fmt.Sprintf("; it needs %s, which the kernel can exclude as a precondition: if %s { panic(...) } at its top", g.Cond, g.Cond)
}

// Fix inserts g as the first statement of the kernel body whose opening
// brace is at lbrace.
func (g Guard) Fix(lbrace token.Pos) analysis.SuggestedFix {
	text := fmt.Sprintf("\n\tif %s {\n\t\tpanic(%q)\n\t}", g.Cond, g.Require)
	return analysis.SuggestedFix{
		Message:   "state the precondition: " + g.Require,
		TextEdits: []analysis.TextEdit{{Pos: lbrace + 1, End: lbrace + 1, NewText: []byte(text)}},
	}
}

// A guardCand is a candidate guard.
type guardCand struct {
	Guard
	pow2  int                // parameter index a power-of-two guard speaks of, else −1
	fact  func(p *problem)   // adds the negation of Cond to p
	holds func([]int64) bool // Cond holds in a model of the problem the candidate came from
	// reach asks, instead of the pair question, whether both accesses
	// still run under the negation of Cond.
	reach bool
}

// sizeOperand is a size a guard may speak of: a parameter, a length or a
// block extent.
type sizeOperand struct {
	text  string
	param int // parameter index for a parameter, else −1
	val   func([]int64) int64
	poly  func(*problem) poly
}

// sizeOperands lists the integer parameters and slice lengths that problem
// p speaks of, sorted by name, and the block extents (X first).
func (p *problem) sizeOperands() (sizes, blocks []sizeOperand) {
	k := p.k
	for key, x := range p.varIdx {
		key, x := key, x
		if key.dim < 0 || key.dim >= len(k.fn.Params) {
			continue
		}
		prm := k.fn.Params[key.dim]
		switch key.kind {
		case vParam:
			if b, ok := prm.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
				continue
			}
			sizes = append(sizes, sizeOperand{text: prm.Name(), param: key.dim,
				val: func(m []int64) int64 { return m[x] }, poly: func(q *problem) poly { return q.v(key) }})
		case vLen:
			sizes = append(sizes, sizeOperand{text: "len(" + prm.Name() + ")", param: -1,
				val: func(m []int64) int64 { return m[x] }, poly: func(q *problem) poly { return q.v(key) }})
		}
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i].text < sizes[j].text })
	tname := ""
	if len(k.fn.Params) > 0 && k.fn.Params[0].Name() != "_" {
		tname = k.fn.Params[0].Name()
	}
	for d := 0; d < k.shape.Dims; d++ {
		d := d
		if c := int64(k.shape.Block[d]); c > 0 {
			if c > 1 {
				blocks = append(blocks, sizeOperand{text: itoa(c), param: -1,
					val: func([]int64) int64 { return c }, poly: func(*problem) poly { return constPoly(c) }})
			}
			continue
		}
		x, ok := p.varIdx[varKey{kind: vBdim, dim: d}]
		if !ok || tname == "" {
			continue
		}
		blocks = append(blocks, sizeOperand{text: tname + ".BlockDim()." + string("XYZ"[d]), param: -1,
			val: func(m []int64) int64 { return m[x] }, poly: func(q *problem) poly { return q.bdim(d) }})
	}
	return sizes, blocks
}

// guardCands lists the candidate guards for problem p, in the order they
// are tried (the plainest first).
func (p *problem) guardCands() []guardCand {
	sizes, blocks := p.sizeOperands()
	var out []guardCand
	for _, x := range sizes {
		for _, y := range sizes {
			if x.param < 0 || y.param >= 0 {
				continue // a parameter against a length: n > len(a)
			}
			x, y := x, y
			out = append(out, guardCand{Guard: Guard{Cond: x.text + " > " + y.text, Require: x.text + " must be at most " + y.text}, pow2: -1,
				fact:  func(q *problem) { q.base = append(q.base, le(x.poly(q), y.poly(q))) },
				holds: func(m []int64) bool { return x.val(m) > y.val(m) }})
		}
	}
	for _, x := range sizes {
		for _, b := range blocks {
			x, b := x, b
			out = append(out, guardCand{Guard: Guard{Cond: x.text + " < " + b.text, Require: x.text + " must be at least " + b.text}, pow2: -1,
				fact:  func(q *problem) { q.base = append(q.base, le(b.poly(q), x.poly(q))) },
				holds: func(m []int64) bool { return x.val(m) < b.val(m) }})
		}
	}
	for _, x := range sizes {
		for _, b := range blocks {
			x, b := x, b
			out = append(out, guardCand{Guard: Guard{Cond: x.text + "%" + b.text + " != 0", Require: x.text + " must be a multiple of " + b.text}, pow2: -1,
				fact: func(q *problem) {
					var r poly
					bp := b.poly(q)
					if c, ok := bp.constant(); ok {
						_, r = q.truncDiv(x.poly(q), c, 0)
					} else if _, rr, ok := q.divMod(x.poly(q), bp, 0); ok {
						r = rr
					} else {
						return
					}
					q.base = append(q.base, eq(r))
				},
				holds: func(m []int64) bool { bv := b.val(m); return bv != 0 && x.val(m)%bv != 0 }})
		}
	}
	for _, x := range sizes {
		if x.param < 0 {
			continue
		}
		x := x
		out = append(out, guardCand{Guard: Guard{Cond: x.text + "&(" + x.text + "-1) != 0", Require: x.text + " must be a power of two"}, pow2: x.param,
			holds: func(m []int64) bool { v := x.val(m); return v&(v-1) != 0 }})
	}
	return out
}

// maxGuardWork bounds the work of the guard search of one kernel, in
// conjunctions the solver decides (lincon.SolveCounted), a measure that
// does not depend on the machine, so that the diagnostics do not either.
// A candidate that does not remove the race fails at the reported pair,
// in a few conjunctions; verifying one that does costs what checking the
// kernel that states it costs (a power-of-two stride: the 300–450 of a
// bitonic merge), so the racy kernel then takes about as long as its
// guarded twin. Past the budget the race is reported without a guard.
const maxGuardWork = 500

// Guard returns the precondition that excludes collision c, found for
// pair reported, and every collision of pairs (the pairs a diagnostic
// stands for, not only the one that found it): the first candidate that
// holds in c's witness and under whose negation none of the pairs has an
// answer, while both accesses of the reported pair can still run. Without
// an Exact witness, power-of-two guards are tried whatever the model
// says: they change how x & (n-1) is modelled, which is what such a
// question most often lacks. ok is false when no candidate does, or when
// the kernel's budget for the search (maxGuardWork) is spent.
func (k *Kernel) Guard(c Collision, reported Pair, pairs []Pair) (Guard, bool) {
	cands := c.candidates()
	// The budget counts the search from here (the degenerate candidate's
	// own questions are not part of it).
	start := k.work
	defer func() { k.guardWork += k.work - start }()
	s := &guardSearch{k: k, c: c, reported: reported}
	if c.model != nil {
		s.models = append(s.models, c.model)
	}
	// The reported pair first: a candidate that does not remove the
	// collision almost always fails there, at one question.
	order := []Pair{reported}
	for _, pr := range pairs {
		if pr != reported {
			order = append(order, pr)
		}
	}
	for i := range cands {
		cand := &cands[i]
		removed, spent := s.removes(cand, order, start)
		if spent {
			return Guard{}, false
		}
		if !removed {
			continue
		}
		// A guard under which the accesses no longer run (the kernel's
		// own early return contradicts it) removes the collision by
		// removing the kernel's work: not a precondition worth stating.
		// (Asked as threads of two blocks: the accesses run somewhere in
		// the kernel, not necessarily in one barrier interval.)
		r := *cand
		r.reach = true
		if !s.unsat(Pair{A: reported.A, B: reported.B, Cross: true}, &r) {
			return cand.Guard, true
		}
	}
	return Guard{}, false
}

// candidates lists the guard candidates for collision c, in the order
// Guard tries them: degenerate sizes of an exact witness first
// (witness.go), then those of problem.guardCands that hold in the
// witness.
func (c Collision) candidates() []guardCand {
	var cands []guardCand
	if c.model != nil && c.Witness == Exact {
		if d := c.p.degenerateCand(c.model); d != nil {
			cands = append(cands, *d)
		}
	}
	for _, cand := range c.p.guardCands() {
		switch {
		case cand.pow2 >= 0 && c.Witness != Exact:
			// x & (n-1) is outside the model without the guard: the
			// example's n says nothing.
		case c.model == nil || !cand.holds(c.model):
			continue
		}
		cands = append(cands, cand)
	}
	return cands
}

// guardSearch is the state of one Guard search.
type guardSearch struct {
	k        *Kernel
	c        Collision
	reported Pair
	// The models the reported pair's question had under the candidates
	// tried so far: most candidates that fail, fail in one of them too
	// (a model with nx ≤ len(a) often has ny ≤ len(a) as well), which
	// proves it without the solver.
	models [][]int64
}

// removes reports whether no pair of order has an answer under the
// negation of cand; spent is true when the search's budget ran out first
// (the search began when the kernel's work was start).
func (s *guardSearch) removes(cand *guardCand, order []Pair, start int) (removed, spent bool) {
	k := s.k
	for _, pr := range order {
		if k.work-start > maxGuardWork || k.guardWork+k.work-start > maxGuardWork {
			return false, true
		}
		if !s.unsat(pr, cand) {
			return false, false
		}
	}
	return true, false
}

// unsat reports whether pair pr's question has no answer under the
// negation of cand.
func (s *guardSearch) unsat(pr Pair, cand *guardCand) bool {
	if pr == s.reported && cand.pow2 < 0 && cand.fact != nil && !cand.reach {
		// The reported pair's own question with the fact added (and
		// taken off again): no need to build it anew.
		u, m := s.c.p.unsatWith(cand, s.models)
		if m != nil {
			s.models = append(s.models, m)
		}
		return u
	}
	q, _, _, trivial := s.k.pairProblem(pr, cand, false)
	if trivial {
		return true
	}
	v, _ := s.k.solve(q.linearize())
	return v == lincon.Infeasible
}

// pow2Assumed reports whether the candidate guard the problem is asked
// under states that m, a kernel parameter (possibly passed down to device
// functions), is a power of two.
func (p *problem) pow2Assumed(fr *frame, m ssa.Value) bool {
	if p.hyp == nil || p.hyp.pow2 < 0 {
		return false
	}
	for {
		prm, ok := m.(*ssa.Parameter)
		if !ok {
			return false
		}
		if a, pfr, ok := argOf(fr, prm); ok {
			fr, m = pfr, a
			continue
		}
		return fr.parent == nil && p.hyp.pow2 < len(fr.fn.Params) && fr.fn.Params[p.hyp.pow2] == prm
	}
}

// unsatWith reports whether problem p, with the negation of candidate c
// added, has no answer, and leaves p as it was. Models are assignments to
// try first: one that satisfies the problem is an answer. When it has one,
// unsatWith returns it unless it was one of models.
func (p *problem) unsatWith(c *guardCand, models [][]int64) (bool, []int64) {
	nv, nb, nc := len(p.vars), len(p.base), len(p.clauses)
	divs := make(map[string]bool, len(p.divs))
	for key := range p.divs {
		divs[key] = true
	}
	defer func() {
		p.vars, p.base, p.clauses = p.vars[:nv], p.base[:nb], p.clauses[:nc]
		for key := range p.divs {
			if !divs[key] {
				delete(p.divs, key)
			}
		}
	}()
	c.fact(p)
	lp := p.linearize()
	for _, m := range models {
		if lincon.Satisfies(lp, m) {
			return false, nil
		}
	}
	v, m := p.k.solve(lp)
	return v == lincon.Infeasible, m
}
