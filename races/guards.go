package races

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/races/internal/lincon"
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

// A guardCand is a precondition `if cond { panic(require) }`.
type guardCand struct {
	cond, require string
	pow2          int                // parameter index a power-of-two guard speaks of, else −1
	fact          func(p *problem)   // adds the negation of cond to p
	holds         func([]int64) bool // cond holds in a model of the problem the candidate came from
	// reach asks, instead of the pair question, whether both accesses
	// still run under the negation of cond.
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
			out = append(out, guardCand{cond: x.text + " > " + y.text, require: x.text + " must be at most " + y.text, pow2: -1,
				fact:  func(q *problem) { q.base = append(q.base, le(x.poly(q), y.poly(q))) },
				holds: func(m []int64) bool { return x.val(m) > y.val(m) }})
		}
	}
	for _, x := range sizes {
		for _, b := range blocks {
			x, b := x, b
			out = append(out, guardCand{cond: x.text + " < " + b.text, require: x.text + " must be at least " + b.text, pow2: -1,
				fact:  func(q *problem) { q.base = append(q.base, le(b.poly(q), x.poly(q))) },
				holds: func(m []int64) bool { return x.val(m) < b.val(m) }})
		}
	}
	for _, x := range sizes {
		for _, b := range blocks {
			x, b := x, b
			out = append(out, guardCand{cond: x.text + "%" + b.text + " != 0", require: x.text + " must be a multiple of " + b.text, pow2: -1,
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
		out = append(out, guardCand{cond: x.text + "&(" + x.text + "-1) != 0", require: x.text + " must be a power of two", pow2: x.param,
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

// A racePair is a pair question: accesses a and b, in the barrier
// interval after start (nil: from the kernel's entry) or across blocks.
type racePair struct {
	a, b  *access
	start *node
	cross bool
}

// chooseGuard returns the guard for a race whose witness came from
// question out.p (with model out.model, nil without a witness): the first
// candidate that holds in the witness and under whose negation none of
// the pairs of the race's line (every pair the diagnostic stands for, not
// only the one that found it) has an answer, while both accesses of the
// reported pair can still run. Without an exact witness,
// power-of-two guards are tried whatever the model says: they change how
// x & (n-1) is modelled, which is what such a question most often lacks.
func (k *kernelAn) chooseGuard(out outcome, reported racePair, pairs []racePair) *guardCand {
	var cands []guardCand
	if out.model != nil && out.witness == "exact" {
		if c := out.p.degenerateCand(out.model); c != nil {
			cands = append(cands, *c)
		}
	}
	for _, c := range out.p.guardCands() {
		switch {
		case c.pow2 >= 0 && out.witness != "exact":
			// x & (n-1) is outside the model without the guard: the
			// example's n says nothing.
		case out.model == nil || !c.holds(out.model):
			continue
		}
		cands = append(cands, c)
	}
	// The reported pair first: a candidate that does not remove the race
	// almost always fails there, at one question.
	order := []racePair{reported}
	for _, pr := range pairs {
		if pr != reported {
			order = append(order, pr)
		}
	}
	// The models the reported pair's question had under the candidates
	// tried so far: most candidates that fail, fail in one of them too
	// (a model with nx ≤ len(a) often has ny ≤ len(a) as well), which
	// proves it without the solver.
	var models [][]int64
	if out.model != nil {
		models = append(models, out.model)
	}
	unsat := func(pr racePair, c *guardCand) bool {
		if pr == reported && c.pow2 < 0 && c.fact != nil && !c.reach {
			// The reported pair's own question with the fact added
			// (and taken off again): no need to build it anew.
			u, m := out.p.unsatWith(c, models)
			if m != nil {
				models = append(models, m)
			}
			return u
		}
		q, _, _, trivial := k.pairProblem(pr.a, pr.b, pr.start, pr.cross, c)
		if trivial {
			return true
		}
		v, _ := k.solve(q.linearize())
		return v == lincon.Infeasible
	}
	start := k.work
	for i := range cands {
		c := &cands[i]
		removed := true
		for _, pr := range order {
			if k.work-start > maxGuardWork || k.guardWork+k.work-start > maxGuardWork {
				k.guardWork += k.work - start
				return nil
			}
			if !unsat(pr, c) {
				removed = false
				break
			}
		}
		if !removed {
			continue
		}
		// A guard under which the accesses no longer run (the kernel's
		// own early return contradicts it) removes the race by removing
		// the kernel's work: not a precondition worth stating. (Asked as
		// threads of two blocks: the accesses run somewhere in the
		// kernel, not necessarily in one barrier interval.)
		r := *c
		r.reach = true
		if !unsat(racePair{reported.a, reported.b, nil, true}, &r) {
			k.guardWork += k.work - start
			return c
		}
	}
	k.guardWork += k.work - start
	return nil
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
