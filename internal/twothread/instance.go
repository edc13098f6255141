package twothread

import (
	"golang.org/x/tools/go/ssa"
)

// Which values two threads share: uniform values at the same dynamic
// instance between the barriers that bound a problem.

// isShared reports whether v has one value for both threads: it is uniform
// and both accesses see the same dynamic instance of it.
func (p *problem) isShared(fr *frame, v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return p.isShared(pfr, a)
		}
		return true
	}
	if p.cross || p.k.divOf(fr, v) {
		return false
	}
	in, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	d := fr.nodeOf[in]
	if d == nil {
		return false
	}
	if p.inStep != nil {
		return p.agreeShared(fr, v, d)
	}
	return p.sameInstance(d)
}

// sameInstance reports whether both accesses see the same execution of
// node d: d lies outside the interval (it ran before the barrier both
// threads passed), or inside it on no barrier-free cycle and both
// accesses are before it or both after it.
func (p *problem) sameInstance(d *node) bool {
	if r, ok := p.instance[d]; ok {
		return r
	}
	res := true
	if p.r[d.id] {
		if p.onCycle(d) {
			res = false
		} else {
			ia, ib := p.inst(d, p.na), p.inst(d, p.nb)
			res = ia >= 0 && ia == ib
		}
	}
	p.instance[d] = res
	return res
}

// onCycle reports whether d lies on a barrier-free cycle of the interval.
func (p *problem) onCycle(d *node) bool { return p.k.reachesWithinSkip(p.r, d, d) }

// inst tells which execution of node d (in the interval) access node x
// sees: 0 the one before the interval's barrier, 1 the one after it, −1
// either.
func (p *problem) inst(d, x *node) int {
	if x == d {
		return 1
	}
	pre := !p.k.reachesWithin(p.r, d.succs, x, nil)
	post := !p.k.reachesWithin(p.r, p.starts, x, d)
	switch {
	case pre:
		return 0
	case post:
		return 1
	}
	return -1
}

// linkedPhi handles a uniform phi that one thread sees before the
// interval's barrier and the other after it (one iteration later, or on
// a fresh entry to its loop). The first sees an unknown shared value x;
// the second sees the loop's update of x when only the back edge leads
// from the barrier to the phi, or the phi's initial value when only the
// entry edge does. It returns false when neither holds.
func (p *problem) linkedPhi(fr *frame, phi *ssa.Phi, t int) (poly, bool) {
	if p.cross || p.k.divOf(fr, phi) {
		return nil, false
	}
	d := fr.nodeOf[phi]
	if d == nil || !p.r[d.id] || p.onCycle(d) {
		return nil, false
	}
	ia, ib := p.inst(d, p.na), p.inst(d, p.nb)
	if ia < 0 || ib < 0 || ia == ib {
		return nil, false
	}
	mine := ia
	if t == 2 {
		mine = ib
	}
	if mine == 0 {
		return p.eval(fr, phi, 0), true
	}
	blk := phi.Block()
	var back, init []int
	for i, pred := range blk.Preds {
		ln := fr.last[pred]
		if ln == nil || !p.k.reachesWithin(p.r, p.starts, ln, d) {
			continue
		}
		if blk.Dominates(pred) {
			back = append(back, i)
		} else {
			init = append(init, i)
		}
	}
	switch {
	case len(back) == 1 && len(init) == 0:
		return p.eval(fr, phi.Edges[back[0]], 0), true
	case len(init) == 1 && len(back) == 0:
		return p.eval(fr, phi.Edges[init[0]], t), true
	}
	return nil, false
}

// ---- conditions ----
