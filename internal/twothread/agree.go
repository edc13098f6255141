package twothread

import (
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
	"github.com/gpukvet/gpukvet/uniformity"
)

// Branch agreement: the question the divergence check asks of a branch
// that the uniformity analysis calls divergent (its condition reads a
// thread index) but that the facts holding there, a kernel's preconditions
// above all, may decide the same way for every thread. `if tid < n` under
// `if n != t.BlockDim().X { panic(…) }` is true for all of them; the
// block-stride loop `for i := tid; i < n; i += t.BlockDim().X` runs the
// same number of iterations in every thread when `n % t.BlockDim().X == 0`.
// It is the pair question of pair.go with the two threads at one
// execution of the branch instead of at two accesses.

// Agreement decides branch agreement for the barriers of one kernel.
type Agreement struct {
	k *Kernel
}

// NewAgreement prepares the agreement questions of kernel fn; fn and uni
// are as for New.
func NewAgreement(fn *ssa.Function, shape Shape, uni *uniformity.Result) *Agreement {
	k := New(fn, shape, uni)
	k.computeDivergence()
	return &Agreement{k: k}
}

// Agree reports whether the two-way branch that block br of the kernel
// ends in is taken the same way by every two threads of one block at the
// same execution of it, given the conditions known to hold there (the
// branches that dominate it, the kernel's preconditions among them), on
// the hypothesis that the branches deciding whether threads reach barrier
// block x agree wherever they ran before. By that hypothesis the threads
// run every loop of the kernel that holds x in step: a loop's induction
// variables (i := tid; i += stride) count one iteration number for both
// threads. So a barrier site whose every controlling branch agrees is
// reached by all threads of a block or by none, by induction over the
// executions of those branches.
//
// A branch whose condition is outside the model (a float, a load at a
// divergent address) does not agree.
func (a *Agreement) Agree(x, br *ssa.BasicBlock) bool {
	p, ok := a.problem(x, br, nil)
	if !ok {
		return false
	}
	if p == nil {
		return true
	}
	verdict, _ := a.k.solve(p.linearize())
	return verdict == lincon.Infeasible
}

// problem builds the agreement question of Agree, under the negation of
// candidate guard hyp when it is not nil (with hyp.reach: only whether a
// thread reaches br). It returns nil, true when the answer is yes without
// asking (one thread per block), and false when the question is outside
// the model.
func (a *Agreement) problem(x, br *ssa.BasicBlock, hyp *guardCand) (*problem, bool) {
	k := a.k
	fr := k.g.root
	if x.Parent() != k.fn || br.Parent() != k.fn {
		return nil, false
	}
	ifi, ok := br.Instrs[len(br.Instrs)-1].(*ssa.If)
	n := fr.last[br]
	if !ok || n == nil {
		return nil, false
	}
	p := &problem{k: k, na: n, nb: n, varIdx: map[varKey]lincon.Var{},
		memo: map[memoKey]poly{}, instance: map[*node]bool{}, divs: map[string][2]poly{},
		// Every uniform value is at the branch's execution, which both
		// threads share: no barrier interval divides them.
		r:        make([]bool, len(k.g.nodes)),
		inStep:   map[*ssa.BasicBlock]bool{},
		iters:    map[*ssa.BasicBlock]poly{},
		allConds: true,
		hyp:      hyp}
	for _, h := range k.fn.Blocks {
		if h.Dominates(x) && reachesAvoiding(x, h, nil) && hasBackEdge(h) && a.leftTogether(h, x) {
			p.inStep[h] = true
		}
	}
	var distinct clause
	for d := 0; d < k.shape.Dims; d++ {
		if k.shape.Block[d] == 1 {
			continue
		}
		x, y := p.tid(1, d), p.tid(2, d)
		distinct = append(distinct, []cons{lt(x, y)}, []cons{lt(y, x)})
	}
	if len(distinct) == 0 {
		return nil, true // one thread per block
	}
	p.addPathConds(n, 1)
	if hyp == nil || !hyp.reach {
		p.clauses = append(p.clauses, distinct)
		p.addPathConds(n, 2)
		c1 := p.cond(fr, ifi.Cond, 1, true)
		c2 := p.cond(fr, ifi.Cond, 2, false)
		if c1 == nil || c2 == nil {
			return nil, false
		}
		p.clauses = append(p.clauses, c1, c2)
	}
	if hyp != nil && hyp.fact != nil {
		hyp.fact(p)
	}
	return p, true
}

// Guard returns the precondition under which every branch of brs agrees
// for barrier block x (as Agree decides it) while a thread still reaches
// each of them, trying the candidates of guards.go that hold in the
// solver's example of two threads that disagree; ok is false when none
// does.
func (a *Agreement) Guard(x *ssa.BasicBlock, brs []*ssa.BasicBlock) (Guard, bool) {
	var cands []guardCand
	for _, br := range brs {
		p, ok := a.problem(x, br, nil)
		if !ok {
			return Guard{}, false
		}
		if p == nil {
			continue
		}
		lp := p.linearize()
		verdict, model := a.k.solve(lp)
		if verdict == lincon.Infeasible {
			continue
		}
		if verdict != lincon.Feasible || !p.genuine(model) {
			model = nil
		}
		for _, c := range p.guardCands() {
			if model == nil || c.holds(model) {
				cands = append(cands, c)
			}
		}
		break
	}
	unsat := func(p *problem) bool {
		v, _ := a.k.solve(p.linearize())
		return v == lincon.Infeasible
	}
	start := a.k.work
	for i := range cands {
		c := &cands[i]
		agree := true
		for _, br := range brs {
			if a.k.work-start > maxGuardWork {
				return Guard{}, false
			}
			r := *c
			r.reach = true
			if p, ok := a.problem(x, br, &r); !ok || p != nil && unsat(p) {
				agree = false // no thread reaches the branch under the guard
				break
			}
			if p, ok := a.problem(x, br, c); !ok || p != nil && !unsat(p) {
				agree = false
				break
			}
		}
		if agree {
			return c.Guard, true
		}
	}
	return Guard{}, false
}

// hasBackEdge reports whether h heads a loop: a predecessor it dominates.
func hasBackEdge(h *ssa.BasicBlock) bool {
	for _, p := range h.Preds {
		if h.Dominates(p) {
			return true
		}
	}
	return false
}

// iter returns the iteration number of the in-step loop headed by h (of
// the kernel's frame), one variable for both threads.
func (p *problem) iter(h *ssa.BasicBlock) poly {
	if x, ok := p.iters[h]; ok {
		return x
	}
	x := p.aux(true, 0)
	p.base = append(p.base, ge(x))
	p.iters[h] = x
	return x
}

// leftTogether reports whether every branch that leaves the loop headed by
// h is uniform or decides whether threads reach x (so that the hypothesis
// of Agree covers it): then threads that enter the loop together run its
// iterations in step.
func (a *Agreement) leftTogether(h, x *ssa.BasicBlock) bool {
	f := a.k.uni.Of(a.k.fn)
	if f == nil {
		return false
	}
	ctl := map[*ssa.BasicBlock]bool{}
	for _, br := range f.Controlling(x) {
		ctl[br.Block] = true
	}
	for _, b := range a.k.fn.Blocks {
		if !h.Dominates(b) || !reachesAvoiding(b, h, nil) {
			continue // not in the loop
		}
		leaves := false
		for _, s := range b.Succs {
			if !h.Dominates(s) || !reachesAvoiding(s, h, nil) {
				leaves = true
			}
		}
		if leaves && f.DivergentBranch(b) != nil && !ctl[b] {
			return false
		}
	}
	return true
}

// agreeShared reports whether a value v, uniform by this package's rules,
// defined at node d, has one value for both threads at the branch of an
// agreement question: the uniformity analysis too calls it uniform (it
// knows the results of device functions of other packages), and every
// loop around its definition is one the threads run in step (the last
// value of a loop that threads may leave at different iterations differs
// between them).
func (p *problem) agreeShared(fr *frame, v ssa.Value, d *node) bool {
	if p.k.uniDivergent(fr, v) {
		return false
	}
	b := d.block
	for ; fr.parent != nil; fr = fr.parent {
		for _, h := range fr.fn.Blocks {
			if hasBackEdge(h) && h.Dominates(b) && reachesAvoiding(b, h, nil) {
				return false
			}
		}
		b = fr.node.block
	}
	for _, h := range fr.fn.Blocks {
		if hasBackEdge(h) && h.Dominates(b) && reachesAvoiding(b, h, nil) && !p.inStep[h] {
			return false
		}
	}
	return true
}
