package twothread

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// Bool values held in variables. A flag set in a loop (computed := false;
// for … { if c { computed = true } }), a condition computed before a
// barrier and tested after it, an && or || chain kept in a local
// (inRegion := i > 0 && i < n-1) and a bool a device function returns
// reach a branch as a phi of bool values, a call or a comparison with a
// constant, not as the comparison that decides them. Such a value is pol
// when, for one edge of the phi (one return of the device function), the
// edge's value is pol and the branch decisions known at the edge's
// predecessor held: the edge's own If decision and its guards (guardsOf).
//
// Instances. A phi J that heads no loop dominates the branch that reads
// it, so no loop header runs between J's last execution and that branch
// (else a path would reach the branch around J): the decisions met at J's
// edges read the same executions of values as the rest of the problem. A
// phi that heads a loop may carry a value set in an earlier iteration: its
// back edges are followed in an instance of the loop (loopinst.go), where
// the values of the loop's body are those of that iteration. A phi met
// again on the walk with the polarity it was met with is the value carried
// around the loop: for a loop header's phi walked in a linked instance it
// stands for the phi's edges in an unlinked one (set in some earlier
// iteration), and otherwise it adds no alternative (a value that goes
// around a cycle entered it by another edge). Met with the other polarity
// (flag = !flag) it is left out. Whatever the walk cannot follow, or past
// its bounds, is left out, which only widens what the solver may find.

// condWalk is the state of one walk from a branch condition through the
// bool values it reads.
type condWalk struct {
	depth int
	seen  []seenPhi // the phis on the walk
}

// A seenPhi is a phi on a walk, with the polarity asked of it and the
// instance it was read in; for a loop header's phi, whether its back
// edges are followed in a linked instance, and the first instance made
// after it (mark): an instance of its loop from mark on is an earlier
// iteration than the one it was read in.
type seenPhi struct {
	ref    valRef
	pol    bool
	header bool
	linked bool
	inst   int
	mark   int
}

const (
	maxCondDepth = 10 // phis and calls followed on one walk
	maxCondAlts  = 16 // alternatives of one value's condition
)

// A boolEdge is one way a bool value is defined: value v, when control
// leaves block from; back for a loop's back edge, the pred at index latch
// of the loop header.
type boolEdge struct {
	from  *ssa.BasicBlock
	v     ssa.Value
	back  bool
	latch int
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// phiCond is the condition under which bool phi is pol.
func (p *problem) phiCond(fr *frame, phi *ssa.Phi, t int, pol bool, w condWalk) clause {
	if !isBool(phi.Type()) || w.depth >= maxCondDepth {
		return nil
	}
	ref := valRef{fr, phi}
	inst := p.curInst
	if inst != 0 {
		inst = p.instOf(fr, phi)
	}
	for i := len(w.seen) - 1; i >= 0; i-- {
		s := w.seen[i]
		if s.ref != ref {
			continue
		}
		switch {
		case s.inst == inst && s.pol != pol:
			return nil
		case s.inst == inst:
			return clause{}
		case s.header && inst >= s.mark && p.insts[inst].header == phi.Block() && p.insts[inst].fr == fr:
			return p.carriedCond(fr, phi, t, pol, w, i)
		}
		break // an earlier iteration's value, walked afresh
	}
	blk := phi.Block()
	edges, header := phiEdges(phi)
	w.seen = append(slices.Clip(w.seen), seenPhi{ref: ref, pol: pol, header: header, linked: true, inst: inst, mark: len(p.insts)})
	w.depth++
	return p.edgesCond(fr, blk, edges, true, t, pol, w)
}

// phiEdges returns phi's edges, and whether one of them is a loop's back
// edge.
func phiEdges(phi *ssa.Phi) ([]boolEdge, bool) {
	blk := phi.Block()
	var edges []boolEdge
	header := false
	for i, pred := range blk.Preds {
		back := blk.Dominates(pred)
		header = header || back
		edges = append(edges, boolEdge{pred, phi.Edges[i], back, i})
	}
	return edges, header
}

// carriedCond is phiCond for loop header phi met again, first as
// w.seen[i], in an earlier iteration of its loop: the value carried
// through that iteration. Walked linked, it was set so in some iteration
// before: its edges again, the back edges in an unlinked instance.
// Walked unlinked, it adds no alternative (the first iteration that set it
// so is among those the unlinked instance stands for); with the other
// polarity (flag = !flag) it is left out.
func (p *problem) carriedCond(fr *frame, phi *ssa.Phi, t int, pol bool, w condWalk, i int) clause {
	s := w.seen[i]
	switch {
	case s.pol != pol:
		return nil
	case !s.linked:
		return clause{}
	}
	// The phis walked since were read in the linked instance; in the
	// unlinked one they are met afresh.
	w.seen = slices.Clone(w.seen[:i+1])
	w.seen[i].linked = false
	w.seen[i].mark = len(p.insts)
	w.depth++
	edges, _ := phiEdges(phi)
	return p.edgesCond(fr, phi.Block(), edges, false, t, pol, w)
}

// callCond is the condition under which the bool result of an inlined
// device function is pol.
func (p *problem) callCond(fr *frame, c *ssa.Call, t int, pol bool, w condWalk) clause {
	callee := fr.calls[c]
	if callee == nil || !isBool(c.Type()) || w.depth >= maxCondDepth {
		return nil
	}
	w.depth++
	var edges []boolEdge
	for _, b := range callee.fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(r.Results) == 1 {
			edges = append(edges, boolEdge{from: b, v: r.Results[0]})
		}
	}
	return p.edgesCond(callee, nil, edges, false, t, pol, w)
}

// boolCompare is the condition under which a comparison of a bool value
// with a bool constant (ok == true, done != false) is pol.
func (p *problem) boolCompare(fr *frame, v *ssa.BinOp, t int, pol bool, w condWalk) clause {
	x, y := v.X, v.Y
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
	}
	c, ok := y.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool || (v.Op != token.EQL && v.Op != token.NEQ) {
		return nil
	}
	// x == c is pol when x is c == pol; x != c when x is c != pol.
	want := constant.BoolVal(c.Value) == pol
	if v.Op == token.NEQ {
		want = !want
	}
	return p.condIn(fr, x, t, want, w)
}

// edgesCond is the disjunction over edges of "the edge's value is pol and
// the decisions known where it leaves its block hold". Decisions that also
// hold at join (the phi's block) are left to the path conditions there.
// Back edges are read in a new instance of the loop, linked to the
// header's current visit when linked.
func (p *problem) edgesCond(fr *frame, join *ssa.BasicBlock, edges []boolEdge, linked bool, t int, pol bool, w condWalk) clause {
	var known []guard
	if join != nil {
		known = fr.dom.guardsOf(join)
	}
	var out clause
	for _, e := range edges {
		var conj []clause
		var possible bool
		if e.back {
			conj, possible = p.backEdgeConds(fr, join, e, linked, t, pol, w, known)
		} else {
			conj, possible = p.edgeConds(fr, join, e, t, pol, w, known)
		}
		if !possible {
			continue
		}
		alt := product(conj)
		if alt == nil {
			return nil // this edge gives pol under conditions outside the model
		}
		out = append(out, alt...)
		if len(out) > maxCondAlts {
			return nil
		}
	}
	return out
}

// edgeConds returns the clauses that hold when edge e defines the value
// as pol, and false when it cannot.
func (p *problem) edgeConds(fr *frame, join *ssa.BasicBlock, e boolEdge, t int, pol bool, w condWalk, known []guard) ([]clause, bool) {
	vc := p.condIn(fr, e.v, t, pol, w)
	if vc != nil && len(vc) == 0 {
		return nil, false
	}
	conj, ok := p.edgeGuards(fr, join, e.from, t, w, known)
	if !ok {
		return nil, false
	}
	if vc != nil {
		// First, so that product keeps it over the guards when the
		// alternatives are too many.
		conj = append([]clause{vc}, conj...)
	}
	return conj, true
}

// edgeGuards returns the clauses of the branch decisions known when
// control leaves block from for join (from's own If decision among them),
// leaving out those in known; false when they cannot hold.
func (p *problem) edgeGuards(fr *frame, join, from *ssa.BasicBlock, t int, w condWalk, known []guard) ([]clause, bool) {
	gs := fr.dom.guardsOf(from)
	if ifi, ok := from.Instrs[len(from.Instrs)-1].(*ssa.If); ok && join != nil && from.Succs[0] != from.Succs[1] {
		gs = append(slices.Clip(gs), guard{ifi.Cond, from.Succs[0] == join})
	}
	var conj []clause
	for _, g := range gs {
		if slices.Contains(known, g) {
			continue
		}
		cl := p.condIn(fr, g.cond, t, g.taken, w)
		if cl != nil && len(cl) == 0 {
			return nil, false
		}
		if cl != nil {
			conj = append(conj, cl)
		}
	}
	return conj, true
}

// joinValue adds, for integer phi x of thread t (0 when both threads
// share it) at a join that heads no loop (v := a; if c { v = b }), that x
// is one of its edges' values under the decisions known on that edge.
func (p *problem) joinValue(fr *frame, phi *ssa.Phi, x poly, t int) {
	blk := phi.Block()
	if len(phi.Edges) > 4 {
		return
	}
	for _, pred := range blk.Preds {
		if blk.Dominates(pred) {
			return
		}
	}
	known := fr.dom.guardsOf(blk)
	var cl clause
	for i, pred := range blk.Preds {
		conj, ok := p.edgeGuards(fr, blk, pred, t, condWalk{depth: maxCondDepth - 2}, known)
		if !ok {
			continue
		}
		alts := product(conj)
		if alts == nil {
			alts = clause{{}}
		}
		v := eq(sub(x, p.eval(fr, phi.Edges[i], t)))
		for _, a := range alts {
			cl = append(cl, append(slices.Clip(a), v))
		}
	}
	p.clauses = append(p.clauses, cl)
}

// product is the conjunction of clauses as one clause, or nil when none
// constrains anything. Clauses that would make it longer than
// maxCondAlts are left out.
func product(conj []clause) clause {
	acc := clause{{}}
	for _, cl := range conj {
		if len(acc)*len(cl) > maxCondAlts {
			continue
		}
		var next clause
		for _, a := range acc {
			for _, b := range cl {
				next = append(next, append(slices.Clip(a), b...))
			}
		}
		acc = next
	}
	if len(acc) == 1 && len(acc[0]) == 0 {
		return nil
	}
	return acc
}

// stable reports whether v has one value for a thread in the whole
// activation of the kernel: it is computed, by arithmetic, from constants,
// kernel parameters, thread and block indices, and values of blocks that
// run at most once (on no cycle of their function, in a frame whose calls
// run at most once).
func (k *Kernel) stable(fr *frame, v ssa.Value, depth int) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return k.stable(pfr, a, depth)
		}
		return fr.parent == nil
	case *ssa.Call:
		if gpuapi.Call(&v.Call).IsThreadIndex() {
			return true
		}
	}
	if in, ok := v.(ssa.Instruction); ok && k.once(fr, in.Block()) {
		return true
	}
	if depth > 8 {
		return false
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		return k.stable(fr, v.X, depth+1) && k.stable(fr, v.Y, depth+1)
	case *ssa.UnOp:
		return v.Op != token.MUL && v.Op != token.ARROW && k.stable(fr, v.X, depth+1)
	case *ssa.Convert:
		return k.stable(fr, v.X, depth+1)
	case *ssa.ChangeType:
		return k.stable(fr, v.X, depth+1)
	case *ssa.Field:
		return k.stable(fr, v.X, depth+1)
	}
	return false
}

// once reports whether block b of frame fr runs at most once per
// activation of the kernel.
func (k *Kernel) once(fr *frame, b *ssa.BasicBlock) bool {
	for ; fr != nil; fr = fr.parent {
		if b == nil || k.blockOnCycle(b) {
			return false
		}
		if fr.call != nil {
			b = fr.call.Block()
		}
	}
	return true
}

// blockOnCycle reports whether block b lies on a cycle of its function.
func (k *Kernel) blockOnCycle(b *ssa.BasicBlock) bool {
	if r, ok := k.cyclic[b]; ok {
		return r
	}
	if k.cyclic == nil {
		k.cyclic = map[*ssa.BasicBlock]bool{}
	}
	r := false
	for _, s := range b.Succs {
		r = r || reachesAvoiding(s, b, nil)
	}
	k.cyclic[b] = r
	return r
}
