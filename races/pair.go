package races

import (
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/races/internal/lincon"
)

// This file holds the central decision of the analysis: checkPair asks
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
	k      *kernelAn
	cross  bool   // the threads are in different blocks
	r      []bool // the barrier interval (same-block problems)
	starts []*node
	na, nb *node

	vars     []varInfo
	varIdx   map[varKey]lincon.Var
	base     []cons
	clauses  []clause
	memo     map[memoKey]poly
	instance map[*node]bool
	xors     map[valRef]*xorPair // x ^ j per thread (xor.go)
	slots    []slotVal           // atomic counter values (slots.go)
	divs     map[string][2]poly  // quotient and remainder of x/m, x%m by x and m
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
}

// outcome of one pair question.
type outcome struct {
	race    bool
	witness string // a concrete collision, when one was found
	threads [2]string
	elems   [2]string
	params  string   // scalar parameter values of the witness (witness.go)
	guard   []string // conditions a precondition excludes it with (guards.go)
	require []string // what each guard requires, for its panic message
	// The question and the model its witness came from (nil without
	// one), for the guard search.
	p     *problem
	model []int64
}

// checkPair decides whether accesses a and b (at least one a write) can
// touch the same element from two distinct threads, and is the one place
// where the analysis says "race". With cross false the threads are in one
// block and the question is asked for the barrier interval that begins
// after node start (nil: at the kernel's entry); with cross true they are
// in different blocks and barriers separate nothing. It builds a problem
// (two copies of every per-thread value, one of every shared one), adds
// that the threads differ, the path conditions under which each access
// runs, and that every index component is equal; the solver then says
// infeasible (no race: the zero outcome), feasible with a model that
// survives the nonlinear check in genuine (a race with a witness naming
// threads, elements and parameters), or unknown (a race without one: the
// analysis is sound, so what it cannot exclude it reports).
func (k *kernelAn) checkPair(a, b *access, start *node, cross bool) outcome {
	p, ia, ib, trivial := k.pairProblem(a, b, start, cross, nil)
	if trivial {
		return outcome{}
	}
	lp := p.linearize()
	verdict, model := p.k.solve(lp)
	if verdict == lincon.Infeasible {
		return outcome{}
	}
	out := outcome{race: true, p: p}
	if verdict == lincon.Feasible && p.genuine(model) {
		out.model = model
		out.witness = "exact"
		if p.approx {
			out.witness = "example"
		}
		out.threads[0] = p.threadName(model, 1)
		out.threads[1] = p.threadName(model, 2)
		out.elems[0] = k.elemText(a, ia, model)
		out.elems[1] = k.elemText(b, ib, model)
		out.params = p.paramText(model)
	}
	return out
}

// pairProblem builds the pair question of checkPair, under the negation of
// candidate guard hyp when it is not nil (guards.go). It returns the
// problem, the index components of both accesses, and trivial when the
// question has no answer without asking the solver.
func (k *kernelAn) pairProblem(a, b *access, start *node, cross bool, hyp *guardCand) (p *problem, ia, ib []poly, trivial bool) {
	p = &problem{k: k, cross: cross, na: a.node, nb: b.node, varIdx: map[varKey]lincon.Var{},
		memo: map[memoKey]poly{}, instance: map[*node]bool{}, divs: map[string][2]poly{}, hyp: hyp}
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
	p.addPathConds(a.node, 1)
	p.addPathConds(b.node, 2)
	p.addBranchConds(a.node, 1)
	p.addBranchConds(b.node, 2)
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
