package twothread

import (
	"golang.org/x/tools/go/ssa"
)

// Loop instances. A bool flag read after a loop, or later in it, may have
// been set in an earlier iteration (holdsLast := false; for k := 0; k < 4;
// k++ { if 4*i+k == n-1 { holdsLast = true } }; if holdsLast { … }), when
// the values the decision read were others: k then was not k now. The
// walk through the flag's phis (boolconds.go) follows a loop header phi's
// back edge in an instance of the loop: every value of the loop's body
// read there is a fresh variable per thread (the value in that earlier
// iteration), while values outside the body, and values computed by
// arithmetic from values fixed for the whole kernel (stable), are the
// ones of the enclosing instance. The main instance, 0, is the problem's
// own evaluation.
//
// A linked instance is the iteration just before the header's current
// visit: each integer phi of the header, read in the enclosing instance,
// is its update along that back edge read in the instance (i = i' + 1), so
// `computed` reset at the top of each iteration and set under `tx >= i+1`
// speaks of the last iteration the loop ran. When the walk in a linked
// instance meets the header's phi again (the flag carried unchanged
// through that iteration), the value came from some iteration before: the
// phi's edges are followed again in an unlinked instance, a fresh
// iteration with no tie to the current one, where meeting the phi once
// more adds no alternative (the first iteration that made the value so
// is among those the unlinked instance stands for).
//
// The facts an instance's evaluation adds (induction variables, the
// links, joins) hold only when that iteration ran, so they are part of
// the alternative that reads it, never of the problem's base. Values
// whose evaluation keeps facts across the problem (xor partners, atomic
// slots, the two threads' shared loop iterations) are opaque in an
// instance, and what only sharpens a model (sharpen, quotient bounds) is
// dropped: both only widen what the solver may find.

// A loopInst is one instance of a loop's iteration.
type loopInst struct {
	parent int    // the enclosing instance
	fr     *frame // the loop's frame
	header *ssa.BasicBlock
	// latch is the index in header.Preds of the back edge this instance's
	// iteration ended on, for a linked instance; −1 for an unlinked one.
	latch int
	body  map[*ssa.BasicBlock]bool

	// The facts added while evaluating in the instance (the problem's
	// lists are swapped in while it is current).
	base      []cons
	clauses   []clause
	sharpen   []clause
	quotients []clause
}

// inBody reports whether block b of the loop's frame is in the loop:
// the header dominates it and it reaches the header again.
func (in *loopInst) inBody(b *ssa.BasicBlock) bool {
	r, ok := in.body[b]
	if !ok {
		r = in.header.Dominates(b) && reachesAvoiding(b, in.header, nil)
		in.body[b] = r
	}
	return r
}

// holds reports whether v, of frame fr, is computed in the loop's body:
// in the loop's frame, or in a device function called from the body.
func (in *loopInst) holds(fr *frame, v ssa.Value) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Block() == nil {
		return false
	}
	b := instr.Block()
	for fr != in.fr {
		if fr == nil || fr.call == nil {
			return false
		}
		b, fr = fr.call.Block(), fr.parent
	}
	return in.inBody(b)
}

// instOf returns the instance whose value v is, seen from the current
// one: the innermost enclosing instance whose loop computes it, or the
// main instance for a stable value.
func (p *problem) instOf(fr *frame, v ssa.Value) int {
	i := p.curInst
	for i != 0 && !p.insts[i].holds(fr, v) {
		i = p.insts[i].parent
	}
	if i != 0 && p.k.stable(fr, v, 0) {
		return 0
	}
	return i
}

// switchInst makes instance i current, with its fact lists, and returns
// the instance that was.
func (p *problem) switchInst(i int) int {
	old := p.curInst
	if i == old {
		return old
	}
	cur, next := p.insts[old], p.insts[i]
	cur.base, cur.clauses, cur.sharpen, cur.quotients = p.base, p.clauses, p.sharpen, p.quotients
	p.base, p.clauses, p.sharpen, p.quotients = next.base, next.clauses, next.sharpen, next.quotients
	p.curInst = i
	return old
}

// newInst adds an instance of the loop headed by header in frame fr,
// enclosed by the current one, linked to the header's current visit
// through back edge latch (−1: unlinked).
func (p *problem) newInst(fr *frame, header *ssa.BasicBlock, latch int) int {
	if len(p.insts) == 0 {
		p.insts = []*loopInst{{}}
	}
	p.insts = append(p.insts, &loopInst{parent: p.curInst, fr: fr, header: header, latch: latch, body: map[*ssa.BasicBlock]bool{}})
	return len(p.insts) - 1
}

// backEdgeConds is edgeConds for back edge e of loop header join (the
// pred at index latch), read in a new instance of the loop, linked or
// not; the instance's facts join the alternative.
func (p *problem) backEdgeConds(fr *frame, join *ssa.BasicBlock, e boolEdge, linked bool, t int, pol bool, w condWalk, known []guard) ([]clause, bool) {
	latch := e.latch
	if !linked {
		latch = -1
	}
	id := p.newInst(fr, join, latch)
	old := p.switchInst(id)
	conj, ok := p.edgeConds(fr, join, e, t, pol, w, known)
	p.switchInst(old)
	if !ok {
		return nil, false
	}
	in := p.insts[id]
	if len(in.base) > 0 {
		conj = append(conj, clause{in.base})
	}
	return append(conj, in.clauses...), true
}

// linkPhi adds, for integer phi v of a linked instance's header read in
// it, that the phi's update along the instance's back edge is the
// phi's value in the enclosing instance.
func (p *problem) linkPhi(fr *frame, v ssa.Value, t int) {
	in := p.insts[p.curInst]
	phi, ok := v.(*ssa.Phi)
	if !ok || in.latch < 0 || fr != in.fr || phi.Block() != in.header || !isInteger(phi.Type()) {
		return
	}
	upd := p.eval(fr, phi.Edges[in.latch], t)
	old := p.switchInst(in.parent)
	cur := p.eval(fr, phi, t)
	p.switchInst(old)
	p.base = append(p.base, eq(sub(upd, cur)))
}
