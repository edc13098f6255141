package twothread

import (
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// This file holds the central question of the model: Collide asks
// whether two accesses can touch the same element from two distinct
// threads, and answers with a verdict and, when it can, a witness. The
// question is built here from pieces in sibling files: vars.go (the
// symbolic variables and their range facts), eval.go (SSA values as
// polynomials over them), divmod.go (division and remainder), instance.go
// (which values both threads share), conds.go (path conditions) and
// model.go (handing the problem to the solver and reading its model).

// A problem is the question "can two distinct threads make accesses a and
// b to the same element?" as polynomial constraints over symbolic
// variables. Thread a's values are copy 1, thread b's copy 2; values that
// both threads share (uniform values at the same dynamic instance) are
// copy 0.
type problem struct {
	k      *Kernel
	cross  bool   // the threads are in different blocks
	r      []bool // the barrier interval (same-block problems)
	starts []*node
	na, nb *node

	vars    []varInfo
	varIdx  map[varKey]lincon.Var
	base    []cons
	clauses []clause
	// sharpen holds facts that only make a model exact (2^k for a shift
	// count k, shift.go): answer adds them once a problem without them is
	// not refuted, so that a refutation never pays for their case splits.
	sharpen []clause
	// wrapColumns makes the row-major facts read a column one past the
	// row as the next row's cell 0 (retryWrapped).
	wrapColumns bool
	// quotients holds the bounds on quotients by divisors that are not
	// constants (divmod.go), asked within a budget (retryQuotients).
	quotients []clause
	memo      map[memoKey]poly
	instance  map[*node]bool
	xors      map[valRef]*xorPair // x ^ j per thread (xor.go)
	slots     []slotVal           // atomic counter values (slots.go)
	counts    map[string]poly     // each thread's block count (counts.go)
	divs      map[string][2]poly  // quotient and remainder of x/m, x%m by x and m
	// approx is set when a per-thread value outside the model takes part,
	// so that a model is an example of the constraints, not of a run.
	approx bool
	// For a branch-agreement question (agree.go): the loops of the
	// kernel's frame that both threads run in step, their iteration
	// numbers, and whether path conditions that are products of shared
	// values are kept (a few small problems can afford them).
	inStep   map[*ssa.BasicBlock]bool
	iters    map[*ssa.BasicBlock]poly
	allConds bool
	// hyp is the candidate guard whose negation the question is asked
	// under (guards.go), or nil.
	hyp *guardCand
	// indexOnly leaves out every fact that names one access rather than
	// the pair's index difference (IndexApart).
	indexOnly bool
	// The loop instances a walk through bool values reads (loopinst.go),
	// and the current one; 0 is the problem's own evaluation.
	insts   []*loopInst
	curInst int
}

// A Pair is a pair question: accesses A and B, by two threads of one
// block in interval In, or, with Cross, by threads of different blocks,
// which barriers do not order (In is then the entry's, and unused).
type Pair struct {
	A, B  *Access
	In    Interval
	Cross bool
}

// A Witness says how concrete a Collision's threads, elements and
// parameters are.
type Witness int

const (
	// NoWitness: the solver could not exclude a collision and found no
	// model of it (the indices could not be proven distinct).
	NoWitness Witness = iota
	// Example: a model of the constraints, in which values outside the
	// model (a load, a float) took part: an example, not a run.
	Example
	// Exact: a concrete collision of two threads.
	Exact
)

// A Collision is Collide's answer that two distinct threads may make a
// pair's accesses to one element.
type Collision struct {
	Witness Witness
	// Threads and Elems name the two threads ("thread 3", "thread (1,2)
	// of block 0") and the elements each touches ("tile[4]"), A's first;
	// empty without a witness.
	Threads, Elems [2]string
	// Params names the values of the kernel's scalar parameters and free
	// extents in the witness ("n = 0"), or is empty.
	Params string
	// The question and the model its witness came from (nil without
	// one), for the guard search, and the index components of both
	// accesses, for replay (replay.go).
	p     *problem
	model []int64
	idx   [2][]poly
}

// Collide decides whether the accesses of pr (at least one a write) can
// touch the same element from two distinct threads; ok is false when they
// cannot. It builds a problem (two copies of every per-thread value, one
// of every shared one), adds that the threads differ, the path conditions
// under which each access runs, and that every index component is equal;
// the solver then says infeasible (no collision), feasible with a model
// that survives the nonlinear check in genuine (a collision with an Exact
// or Example witness naming threads, elements and parameters), or unknown
// (a collision without one: the model is sound, so what it cannot
// exclude it reports).
func (k *Kernel) Collide(pr Pair) (c Collision, ok bool) {
	k.computeDivergence()
	a, b := pr.A, pr.B
	p, ia, ib, trivial := k.pairProblem(pr, nil, false)
	if trivial {
		return Collision{}, false
	}
	return k.answer(p, a, b, ia, ib)
}

// answer solves pair problem p of accesses a and b, whose index
// components are ia and ib, into Collide's answer.
func (k *Kernel) answer(p *problem, a, b *Access, ia, ib []poly) (c Collision, ok bool) {
	lp := p.linearize()
	verdict, model := p.k.solve(lp)
	if verdict != lincon.Infeasible && len(p.sharpen) > 0 {
		p.clauses, p.sharpen = append(p.clauses, p.sharpen...), nil
		lp = p.linearize()
		verdict, model = p.k.solve(lp)
	}
	if verdict == lincon.Feasible && !p.genuine(model) {
		// A model of the linearization only: the equalities' own order
		// of elimination may give one of the polynomial constraints.
		lp.InOrder = true
		if v, m := p.k.solve(lp); v == lincon.Feasible && p.genuine(m) {
			verdict, model = v, m
		}
	}
	// A model of the polynomial constraints themselves satisfies the
	// quotient bounds and the row-major facts, which follow from them.
	if verdict != lincon.Infeasible && !(verdict == lincon.Feasible && p.genuine(model)) {
		if k.retryQuotients(p) {
			return Collision{}, false
		}
		verdict, model = k.retryRowMajor(p, a, b, ia, ib, verdict, model)
	}
	if verdict == lincon.Infeasible {
		return Collision{}, false
	}
	c = Collision{p: p}
	if verdict == lincon.Feasible && p.genuine(model) {
		c.model = model
		c.idx = [2][]poly{ia, ib}
		c.Witness = Exact
		if p.approx {
			c.Witness = Example
		}
		c.Threads[0] = p.threadName(model, 1)
		c.Threads[1] = p.threadName(model, 2)
		c.Elems[0] = k.elemText(a, ia, model)
		c.Elems[1] = k.elemText(b, ib, model)
		c.Params = p.paramText(model)
	}
	p.memo = nil // kept for the guard search: only its variables matter
	return c, true
}

// pairProblem builds the question of Collide, under the negation of
// candidate guard hyp when it is not nil (guards.go). It returns the
// problem, the index components of both accesses, and trivial when the
// question has no answer without asking the solver. With indexOnly it
// keeps only the facts IndexApart asks about.
func (k *Kernel) pairProblem(pr Pair, hyp *guardCand, indexOnly bool) (p *problem, ia, ib []poly, trivial bool) {
	a, b, start, cross := pr.A, pr.B, pr.In.start, pr.Cross
	p = &problem{k: k, cross: cross, na: a.node, nb: b.node, varIdx: map[varKey]lincon.Var{},
		memo: map[memoKey]poly{}, instance: map[*node]bool{}, divs: map[string][2]poly{}, hyp: hyp, indexOnly: indexOnly}
	if !cross {
		p.r = k.region(start)
		if start == nil {
			p.starts = []*node{k.g.entry}
		} else {
			p.starts = start.succs
		}
	}
	// Two phis of one pointer swap name different arrays at one execution
	// of their block (phigroup.go).
	reach := hyp != nil && hyp.reach
	if !reach && !cross && a.via != nil && b.via != nil && a.via != b.via && a.viaAt != nil &&
		a.via.Block() == b.via.Block() && a.viaAt == b.viaAt && p.sameInstance(a.viaAt) {
		return nil, nil, nil, true
	}
	// Distinct threads: in one block, different thread indices; across
	// blocks, different block indices. An access paired with itself
	// builds the same constraints for either thread (same node, same
	// index, same path), so the problem is symmetric in the two threads
	// and a collision with the second thread first is the mirror of one
	// with the first thread first: only thread 1 < thread 2
	// (lexicographically over the dimensions) needs deciding, which
	// halves the search for a self pair.
	var distinct clause
	var same []cons // the earlier dimensions, equal in a lexicographic order
	for d := 0; d < k.shape.Dims; d++ {
		var x, y poly
		if cross {
			if k.shape.Grid[d] == 1 {
				continue
			}
			x, y = p.bid(1, d), p.bid(2, d)
		} else {
			if k.shape.Block[d] == 1 {
				continue
			}
			x, y = p.tid(1, d), p.tid(2, d)
		}
		if a == b {
			distinct = append(distinct, append(slices.Clip(same), lt(x, y)))
			same = append(same, eq(sub(x, y)))
		} else {
			distinct = append(distinct, []cons{lt(x, y)}, []cons{lt(y, x)})
		}
	}
	if len(distinct) == 0 && !reach {
		return nil, nil, nil, true
	}
	if !reach {
		p.clauses = append(p.clauses, distinct)
	}
	if cross {
		for d := 0; d < k.shape.Dims; d++ {
			p.tid(1, d)
			p.tid(2, d)
		}
	}
	if !p.indexOnly {
		p.addPathConds(a.node, 1)
		p.addPathConds(b.node, 2)
		p.addBranchConds(a.node, 1)
		p.addBranchConds(b.node, 2)
	}
	n := min(len(a.comps), len(b.comps))
	ia = make([]poly, n)
	ib = make([]poly, n)
	for i := 0; i < n; i++ {
		ia[i] = p.compValue(a.comps[i], 1)
		ib[i] = p.compValue(b.comps[i], 2)
		if !reach {
			p.base = append(p.base, eq(sub(ia[i], ib[i])))
		}
	}
	if hyp != nil && hyp.fact != nil {
		hyp.fact(p)
	}
	return p, ia, ib, false
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }
