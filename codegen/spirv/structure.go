package spirv

import (
	"fmt"
	"go/token"
	"slices"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// A plan is the structured form of one kernel: a copy of its kir function
// with the blocks SPIR-V's structured control flow needs added (one
// continue block per loop, merge blocks of their own where two constructs
// would share one), each header's merge and continue target, and the
// emission order.
//
// SPIR-V asks for more than a reducible graph's shape: every selection and
// loop names a merge block that no other construct names, a loop has one
// continue target that holds the only back edge, and a branch may leave a
// construct only to its merge, to the innermost loop's merge (break) or
// continue target (continue), or by returning. structurize first reshapes
// the graph (exits.go: one exit per loop, with an exit-code dispatch after
// its merge; a return block per branch), then finds merges on a view of the
// graph that ignores the paths that leave a construct that way (a break, a
// continue, a return, a trap), so that `if c { return }` merges where the
// other arm goes on, and reroutes (joinEdge) or copies (duplicateFor) what
// still crosses a construct's boundary. A shape it still cannot express is
// an error naming the kernel and the Go position, never an invalid module.
type plan struct {
	strategy
	f     *kir.Func
	order []*kir.Block
	dom   *kir.DomTree
	// loops maps a loop header to its loop.
	loops map[*kir.Block]*loopPlan
	// inLoop maps each block to its innermost loop (nil outside loops).
	inLoop map[*kir.Block]*loopPlan
	// merge maps a conditional branch that opens a selection to its merge;
	// branches that break or continue have none.
	merge map[*kir.Block]*kir.Block
	// unreachable are merge blocks no path reaches (both arms leave).
	unreachable map[*kir.Block]bool
	// claimed are blocks that are some construct's merge or continue target.
	claimed map[*kir.Block]bool
	// pdoms caches the post-dominators of each loop body's local graph.
	pdoms map[*loopPlan]*postDom
	// resume are the trap blocks after which a barrier may follow: the
	// trapping invocation goes on to the block's one successor (the path
	// the failed check guarded) with its side effects turned off.
	resume map[*kir.Block]bool
}

// resumeTraps gives each trap block from which a barrier may still be
// reached an edge to the other successor of the check that led to it, and
// returns those blocks. On Vulkan an invocation may not leave while the
// others of its workgroup wait at a barrier (the contract's item 6), so
// such a trap records itself, sets the invocation's trapped flag and runs
// on, its stores, atomics, loads from memory and further traps turned off
// by the flag (see funcEmitter.guard), reaching the barriers the others
// reach. A trap with no barrier after it returns, as on PTX.
func resumeTraps(f *kir.Func) map[*kir.Block]bool {
	hasBarrier := func(b *kir.Block) bool {
		return slices.ContainsFunc(b.Values, func(v *kir.Value) bool { return v.Op == kir.OpBarrier })
	}
	out := map[*kir.Block]bool{}
	if !slices.ContainsFunc(f.Blocks, hasBarrier) {
		return out
	}
	succs := func(b *kir.Block) []*kir.Block { return b.Succs }
	reaches := func(from *kir.Block) bool {
		return !kir.Reach(from, succs, func(x *kir.Block) bool { return !hasBarrier(x) })
	}
	for _, t := range f.Blocks {
		if t.Term != kir.TermTrap || len(t.Preds) != 1 {
			continue
		}
		p := t.Preds[0]
		if p.Term != kir.TermBranch || p.Succs[0] == p.Succs[1] {
			continue
		}
		r := p.Succs[0]
		if r == t {
			r = p.Succs[1]
		}
		if r.Term == kir.TermTrap || !reaches(p) {
			continue
		}
		pi := -1
		for i, q := range r.Preds {
			if q == p {
				pi = i
			}
		}
		t.Succs = []*kir.Block{r}
		r.Preds = append(r.Preds, t)
		for _, phi := range r.Phis() {
			phi.Args = append(phi.Args, phi.Args[pi])
		}
		out[t] = true
	}
	return out
}

type loopPlan struct {
	header, merge, cont *kir.Block
	parent              *loopPlan
	blocks              map[*kir.Block]bool
}

// posOf returns a Go position of block b, for errors.
func posOf(b *kir.Block) token.Pos {
	if b.Cond != nil && b.Cond.Pos.IsValid() {
		return b.Cond.Pos
	}
	for _, v := range b.Values {
		if v.Pos.IsValid() {
			return v.Pos
		}
	}
	for _, s := range b.Succs {
		for _, v := range s.Values {
			if v.Pos.IsValid() {
				return v.Pos
			}
		}
	}
	return token.NoPos
}

type structError struct {
	pos token.Pos
	msg string
}

func (e *structError) Error() string { return e.msg }

// dupError is a block where code from two places joins and that the
// structure needs split: the caller gives pred x a copy of block t.
type dupError struct {
	structError
	t, x *kir.Block
}

// edgeError is a branch that leaves a selection construct into the middle
// of the enclosing one (from, to): what `a && b` and `a || b` give, where
// the second test's branch reaches the target the first one shares.
type edgeError struct {
	structError
	from, to *kir.Block
}

// structurize plans f's emission. A branch out of a selection into the
// middle of an enclosing one is rerouted through a block that joins it
// with the target's other entries and branches again on a flag
// (joinEdge), and the plan is made again.
func structurize(src *kir.Func) (*plan, error) {
	// The less the graph is changed the better: first with merges where
	// the arms meet or where the one arm that goes on starts; where that
	// fails, also copying a block that a branch enters or leaves into where
	// rerouting cannot (the code of short-circuit chains over inlined
	// loops), or with merges at the first block both arms reach (loops'
	// exit dispatches), or both; then with merges split off a join that
	// the branch shares with other code; last, the general means, which
	// structures every reducible graph: each branch's continuations joined
	// into one, with a dispatch after it (dispatchMerge).
	var first error
	for _, s := range []strategy{{}, {copyEdges: true}, {firstJoin: true}, {firstJoin: true, copyEdges: true}, {joinArms: true}, {joinArms: true, copyEdges: true}, {firstJoin: true, splitJoin: true}, {dispatch: true}} {
		p, err := structurizeWith(src, s)
		if err == nil {
			return p, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// A strategy says which of structurize's later means a try may use.
// joinArms: a join made for a branch out of a selection also takes the
// edges of the branch's sibling tests to its other target (armSiblings).
// It comes last, so that kernels the earlier tries structure keep their
// code. splitJoin: where the arms of a branch join code that other paths
// reach too (a break in one arm keeps the join from post-dominating the
// branch), they get a merge of their own (splitJoin); it comes last for
// the same reason. dispatch: every branch's merge is where its code goes
// on, joined into one block where it goes on to several places
// (dispatchMerge); it changes the graph most, so it comes after all.
type strategy struct{ firstJoin, copyEdges, joinArms, splitJoin, dispatch bool }

// dispatchError is a branch whose code goes on to several places, and
// asks the caller to join those edges into one block (routeEdges) and plan
// again.
type dispatchError struct {
	region  map[*kir.Block]bool
	targets []*kir.Block
}

func (e *dispatchError) Error() string { return "a branch goes on to several places" }

// structurizeWith is one try of structurize.
func structurizeWith(src *kir.Func, s strategy) (*plan, error) {
	f := kir.CloneFunc(src)
	removeUnreachable(f)
	var resume []int // by index: f may be replaced by a copy below
	for b := range resumeTraps(f) {
		resume = append(resume, b.Index)
	}
	splitReturns(f)
	singleExitLoops(f)
	repairSSA(f)
	size := f.NumValues() + 64
	// Each try of the general strategy joins one branch's continuations;
	// a kernel has at most one per block.
	for range 64 + len(f.Blocks) {
		p, err := planOn(f, s)
		if debugPlanErr != nil && err != nil {
			debugPlanErr(f, err)
		}
		if de, ok := err.(*dispatchError); ok {
			routeEdges(f, de.region, de.targets, kir.BlockIfDone, "if.continuations")
			repairSSA(f)
			continue
		}
		if ee, ok := err.(*edgeError); ok {
			// Rerouting may close a cycle through the join that is no
			// loop (other's code reaching t again): then the copy of
			// the graph from before is kept and t is duplicated instead.
			keep := kir.CloneFunc(f)
			if joinEdge(f, ee.from, ee.to, s.joinArms) {
				if _, _, _, reducible := analyze(f); reducible {
					singleExitLoops(f)
					repairSSA(f)
					continue
				}
				f = keep
				ee.from, ee.to = f.Blocks[ee.from.Index], f.Blocks[ee.to.Index]
			}
		}
		if ee, ok := err.(*edgeError); ok && s.copyEdges && duplicable(f, ee.to) {
			err = &dupError{ee.structError, ee.to, ee.from}
		}
		// Copies are bounded: a graph that would need more than the
		// kernel's size again in copied code is refused as too tangled.
		if de, ok := err.(*dupError); ok && duplicable(f, de.t) && f.NumValues()+len(de.t.Values) <= 2*size {
			duplicateFor(f, de.t, de.x)
			singleExitLoops(f)
			repairSSA(f)
			continue
		}
		if ee, ok := err.(*edgeError); ok {
			return nil, &ee.structError
		}
		if de, ok := err.(*dupError); ok {
			return nil, &de.structError
		}
		if p != nil {
			p.resume = map[*kir.Block]bool{}
			for _, i := range resume {
				p.resume[f.Blocks[i]] = true
			}
		}
		return p, err
	}
	return nil, &structError{posOf(f.Blocks[0]), "control flow too tangled to structure for SPIR-V"}
}

// describe lists the plan's constructs, for debugging.
func (p *plan) describe() string {
	s := ""
	for _, h := range p.f.Blocks {
		if m := p.merge[h]; m != nil {
			s += fmt.Sprintf("merge b%d -> b%d\n", h.Index, m.Index)
		}
		if l := p.loops[h]; l != nil {
			s += fmt.Sprintf("loop b%d merge b%d cont b%d\n", h.Index, l.merge.Index, l.cont.Index)
		}
	}
	return s
}

// duplicable reports whether block t may be copied for one of its
// predecessors: not a loop header (a copy would be a second entry), not a
// trap (a trap that resumes is one place), and joined from two places.
func duplicable(f *kir.Func, t *kir.Block) bool {
	if len(t.Preds) < 2 || t.Term == kir.TermTrap || t.Term == kir.TermNone {
		return false
	}
	dom := kir.Dominators(f)
	for _, pr := range t.Preds {
		if dom.Dominates(t, pr) {
			return false
		}
	}
	return true
}

// debugPlanErr, set by tests, sees each failed planning attempt.
var debugPlanErr func(f *kir.Func, err error)

// joinEdge reroutes the branch x → t: a new block j takes every edge into
// t and x's other edge, and branches on a flag (x's condition on x's
// edge, false on the others) to x's other target or to t, with phis for
// what the edges carried. With joinArms, j also takes the edges of x's
// sibling tests into other (armSiblings). It reports whether it could.
func joinEdge(f *kir.Func, x, t *kir.Block, joinArms bool) bool {
	if x.Term != kir.TermBranch || x.Succs[0] == x.Succs[1] {
		return false
	}
	other := x.Succs[0]
	if other == t {
		other = x.Succs[1]
	}
	dom := kir.Dominators(f)
	for _, q := range t.Preds {
		if dom.Dominates(t, q) {
			return false // t is a loop header
		}
	}
	if dom.Dominates(other, x) {
		return false
	}
	// Every edge joined must lie in the same loops, or j would enter a
	// loop other than through its header.
	loops, _, _, _ := analyze(f)
	for _, l := range loops {
		for _, q := range append([]*kir.Block{x}, t.Preds...) {
			if l.Blocks[q] != l.Blocks[t] {
				return false
			}
		}
	}
	var siblings []*kir.Block
	if joinArms {
		siblings = armSiblings(f, x, t, other)
	}
	entry := f.Blocks[0]
	zero := func(ty kir.Type) *kir.Value {
		return f.NewValue(entry, kir.OpConst, ty)
	}
	// The flag: on x's edge, "x went to other".
	cond := x.Cond
	if x.Succs[0] != other {
		cond = f.NewValue(x, kir.OpNot, kir.TBool, x.Cond)
	}
	// j takes every edge into t (with phis for t's phis).
	preds := append([]*kir.Block(nil), t.Preds...)
	j := splitEdges(f, t, preds, "join")
	flag := f.NewPhi(j, kir.TBool)
	for _, pr := range j.Preds {
		if pr == x {
			flag.Args = append(flag.Args, cond)
		} else {
			c := zero(kir.TBool)
			flag.Args = append(flag.Args, c)
		}
	}
	// x's edge to other moves onto j.
	xi := -1
	for i, pr := range other.Preds {
		if pr == x {
			xi = i
		}
	}
	var nps []*kir.Value // j's phis for other's
	for _, phi := range other.Phis() {
		np := f.NewPhi(j, phi.Type)
		nps = append(nps, np)
		for _, pr := range j.Preds {
			if pr == x {
				np.Args = append(np.Args, phi.Args[xi])
			} else {
				np.Args = append(np.Args, zero(phi.Type))
			}
		}
		phi.Args[xi] = np
	}
	other.Preds[xi] = j
	x.Term = kir.TermJump
	x.Cond = nil
	x.Succs = []*kir.Block{j}
	j.Term = kir.TermBranch
	j.Cond = flag
	j.Succs = []*kir.Block{other, t}
	if joinArms {
		joinSiblings(f, j, flag, nps, other, siblings)
	}
	return true
}

// armSiblings returns the blocks other than x whose branch goes to other
// and that joinEdge(x, t) may also route through its join: in a
// short-circuit chain (`!a || !b && c`) the tests' edges to the
// condition's false target come from several blocks, and a join that
// takes only x's leaves the others crossing the construct of the first
// test (its merge is the false target too). A sibling lies below t's
// immediate dominator, in the same loops as t, is not reached from t or
// other but by a back edge (its edge would close a cycle through the
// join that is no loop) and is no predecessor of t (then both its edges
// would enter the join).
func armSiblings(f *kir.Func, x, t, other *kir.Block) []*kir.Block {
	dom := kir.Dominators(f)
	head := dom.Idom(t)
	if head == nil {
		return nil
	}
	loops, _, _, _ := analyze(f)
	reached := map[*kir.Block]bool{}
	succs := func(b *kir.Block) []*kir.Block { // without back edges
		return slices.DeleteFunc(slices.Clone(b.Succs), func(s *kir.Block) bool { return dom.Dominates(s, b) })
	}
	for _, from := range []*kir.Block{t, other} {
		kir.Reach(from, succs, func(b *kir.Block) bool { reached[b] = true; return true })
	}
	var out []*kir.Block
	for _, q := range other.Preds {
		if q == x || q.Term != kir.TermBranch || q.Succs[0] == q.Succs[1] || reached[q] ||
			!dom.Dominates(head, q) || slices.Contains(t.Preds, q) || slices.Contains(out, q) {
			continue
		}
		if slices.ContainsFunc(loops, func(l *kir.Loop) bool { return l.Blocks[q] != l.Blocks[t] }) {
			continue
		}
		out = append(out, q)
	}
	return out
}

// joinSiblings moves the edges from siblings to other onto j (built by
// joinEdge), with flag true (j goes on to other), j's phis nps taking the
// values the edges carried into other's phis, and j's phis for t's a zero
// (never used: the flag sends these edges to other).
func joinSiblings(f *kir.Func, j *kir.Block, flag *kir.Value, nps []*kir.Value, other *kir.Block, siblings []*kir.Block) {
	yes := f.NewValue(f.Blocks[0], kir.OpConst, kir.TBool)
	yes.Imm = 1
	phis := other.Phis()
	for _, q := range siblings {
		qi := slices.Index(other.Preds, q)
		j.Preds = append(j.Preds, q)
		for _, phi := range j.Phis() {
			if phi != flag && !slices.Contains(nps, phi) {
				phi.Args = append(phi.Args, f.NewValue(f.Blocks[0], kir.OpConst, phi.Type))
			}
		}
		flag.Args = append(flag.Args, yes)
		for k, phi := range phis {
			nps[k].Args = append(nps[k].Args, phi.Args[qi])
			phi.Args = slices.Delete(phi.Args, qi, qi+1)
		}
		other.Preds = slices.Delete(other.Preds, qi, qi+1)
		for k, s := range q.Succs {
			if s == other {
				q.Succs[k] = j
			}
		}
	}
}

func planOn(f *kir.Func, s strategy) (*plan, error) {
	p := &plan{f: f, strategy: s, loops: map[*kir.Block]*loopPlan{}, inLoop: map[*kir.Block]*loopPlan{},
		merge: map[*kir.Block]*kir.Block{}, unreachable: map[*kir.Block]bool{}, claimed: map[*kir.Block]bool{}, pdoms: map[*loopPlan]*postDom{}}
	loops, _, _, reducible := analyze(f)
	if !reducible {
		return nil, &structError{posOf(f.Blocks[0]), "control flow is irreducible (a cycle entered other than through its loop header)"}
	}
	// Loops: one continue block holding the only back edge; the merge is
	// the exit the loop's exit test goes to (Go's for statement), or for a
	// loop without one (for { ... break ... }) its one exit that goes on.
	for _, l := range loops {
		lp := &loopPlan{header: l.Header}
		// A latch that also branches elsewhere (a do-while's test, a
		// return after the last statement) gets a continue block of its
		// own, as does a loop of one block: the emitter splits a header
		// after its OpLoopMerge, so the header cannot hold the back edge.
		if len(l.Latches) == 1 && l.Latches[0] != l.Header && l.Latches[0].Term == kir.TermJump {
			lp.cont = l.Latches[0]
		} else {
			lp.cont = splitEdges(f, l.Header, l.Latches, "loop.continue")
		}
		p.loops[l.Header] = lp
	}
	// Recompute: continue blocks changed the graph. Every continue block
	// is claimed before any merge is chosen, so that an inner loop whose
	// exit is an outer loop's continue block gets a merge of its own.
	loops, _, _, _ = analyze(f)
	for _, lp := range p.loops {
		p.claimed[lp.cont] = true
	}
	for _, l := range loops {
		lp := p.loops[l.Header]
		lp.blocks = l.Blocks
		var live []*kir.Block
		for _, e := range l.Exits {
			if !diesAlone(l, e) {
				live = append(live, e)
			}
		}
		switch {
		case len(live) == 1:
			lp.merge = live[0]
		case len(live) == 0:
			lp.merge = f.NewBlock(kir.BlockLoopDone, "loop.unreachable")
			p.unreachable[lp.merge] = true
		default:
			// Prefer the exit of the header's test.
			for _, e := range live {
				for _, hs := range l.Header.Succs {
					if hs == e {
						lp.merge = e
					}
				}
			}
			if lp.merge == nil {
				return nil, &structError{posOf(l.Header), "a loop leaves to more than one place (a labeled break out of an enclosing loop?), which SPIR-V's structured control flow does not allow here"}
			}
		}
		outside := slices.ContainsFunc(lp.merge.Preds, func(pr *kir.Block) bool { return !l.Blocks[pr] })
		if p.claimed[lp.merge] || p.loops[lp.merge] != nil || outside {
			// Two loops ending at one block, or a loop ending where other
			// code joins (an if's merge that would have to be the loop's
			// too): give this one its own merge.
			var preds []*kir.Block
			for _, pr := range lp.merge.Preds {
				if l.Blocks[pr] {
					preds = append(preds, pr)
				}
			}
			lp.merge = splitEdges(f, lp.merge, preds, "loop.merge")
		}
		p.claimed[lp.merge] = true
		p.claimed[lp.cont] = true
	}
	// Nesting of loops.
	_, loopOf, dom, _ := analyze(f)
	p.dom = dom
	for _, lp := range p.loops {
		lp.blocks = loopOf[lp.header].Blocks
	}
	p.assignLoops()

	// Selections, outermost first.
	for _, b := range kir.ReversePostorder(f) {
		if b.Term != kir.TermBranch {
			continue
		}
		l := p.inLoop[b]
		exits := func(t *kir.Block) bool {
			return l != nil && (t == l.merge || t == l.cont)
		}
		if exits(b.Succs[0]) || exits(b.Succs[1]) || b.Succs[0] == b.Succs[1] {
			continue // a break or continue: no construct of its own
		}
		if lp := p.loops[b]; lp != nil && (b.Succs[0] == lp.merge || b.Succs[1] == lp.merge) {
			continue // the loop's exit test
		}
		m, err := p.localMerge(b)
		if err != nil {
			return nil, err
		}
		switch {
		case m == nil:
			m = f.NewBlock(kir.BlockIfDone, "if.unreachable")
			p.unreachable[m] = true
			p.pdoms = map[*loopPlan]*postDom{}
		case p.claimed[m] || p.loops[m] != nil:
			var preds []*kir.Block
			for _, pr := range m.Preds {
				// (Not a back edge, where m is a loop's header.)
				if p.dom.Dominates(b, pr) && !p.dom.Dominates(m, pr) {
					preds = append(preds, pr)
				}
			}
			if len(preds) == 0 {
				// b's arms reach m only through code shared with other
				// branches (a short-circuit chain's common target): an
				// arm b does not dominate is rerouted by the caller.
				for _, s := range b.Succs {
					if !p.dom.Dominates(b, s) {
						return nil, &edgeError{structError{posOf(b), fmt.Sprintf("a branch leaves an if/switch construct into shared code (block %d to %d), which SPIR-V's structured control flow cannot express here", b.Index, s.Index)}, b, s}
					}
				}
			}
			m = splitEdges(f, m, preds, "if.merge")
			p.inLoop[m] = l
			p.dom = kir.Dominators(f)
			p.pdoms = map[*loopPlan]*postDom{}
		}
		p.merge[b] = m
		p.claimed[m] = true
	}
	p.order = kir.ReversePostorder(f)
	for _, b := range f.Blocks {
		if p.unreachable[b] {
			p.order = append(p.order, b)
		}
	}
	p.dom = kir.Dominators(f)
	if err := p.validate(); err != nil {
		if debugPlanErr != nil {
			debugPlanErr(f, fmt.Errorf("%v\n%s", err, p.describe()))
		}
		return nil, err
	}
	if err := p.checkSSA(); err != nil {
		return nil, err
	}
	return p, nil
}

// assignLoops records each block's innermost loop and each loop's parent.
func (p *plan) assignLoops() {
	for _, lp := range p.loops {
		for b := range lp.blocks {
			if cur := p.inLoop[b]; cur == nil || len(cur.blocks) > len(lp.blocks) {
				p.inLoop[b] = lp
			}
		}
	}
	for _, lp := range p.loops {
		for _, q := range p.loops {
			if q != lp && q.blocks[lp.header] && (lp.parent == nil || len(q.blocks) < len(lp.parent.blocks)) {
				lp.parent = q
			}
		}
	}
	// Blocks dominated by a loop's header that are not in the natural loop
	// (a return inside the loop) belong to the loop construct too, as
	// SPIR-V defines constructs by dominance.
	dom := kir.Dominators(p.f)
	for _, b := range p.f.Blocks {
		if p.inLoop[b] != nil {
			continue
		}
		var best *loopPlan
		for _, lp := range p.loops {
			if dom.Dominates(lp.header, b) && !dom.Dominates(lp.merge, b) && (best == nil || len(lp.blocks) < len(best.blocks)) {
				best = lp
			}
		}
		if best != nil {
			p.inLoop[b] = best
		}
	}
}

// diesAlone reports whether every path from b, an exit of loop l, ends
// in a return or a trap without joining other code: b is entered from the
// loop by one edge and starts a chain of blocks each with one
// predecessor. Such an exit lies inside the construct of the branch that
// leads to it. (An exit entered by two edges is a place where code joins:
// the loop's merge, or a target of its exit dispatch.)
func diesAlone(l *kir.Loop, b *kir.Block) bool {
	if len(b.Preds) != 1 || !l.Blocks[b.Preds[0]] {
		return false
	}
	// A worklist, not recursion: such a chain is as long as the code.
	seen := map[*kir.Block]bool{}
	work := []*kir.Block{b}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			return false
		}
		seen[x] = true
		if len(x.Preds) != 1 {
			return false
		}
		work = append(work, x.Succs...)
	}
	return true
}

// localSuccs are x's successors on the graph the merge analysis of b's
// constructs sees: without the edges that leave b's innermost loop body
// (break, continue) and without back edges.
func (p *plan) localSuccs(l *loopPlan, x *kir.Block) []*kir.Block {
	var out []*kir.Block
	for _, s := range x.Succs {
		if l != nil && (s == l.merge || s == l.cont || s == l.header) {
			continue
		}
		if p.loops[s] != nil && p.dom.Dominates(s, x) {
			continue // a back edge
		}
		out = append(out, s)
	}
	return out
}

// localMerge returns where the arms of the branch at b meet: b's immediate
// post-dominator on the local graph, where returns, traps, breaks and
// continues all lead to one virtual exit. When the arms meet only there,
// an arm whose code is closed (it dominates every block it reaches) can
// lie inside the construct, and the merge is the one arm that is not
// closed; with both closed, nil (no path goes on: an unreachable merge).
func (p *plan) localMerge(b *kir.Block) (*kir.Block, error) {
	l := p.inLoop[b]
	if p.strategy.dispatch {
		return p.dispatchMerge(l, b)
	}
	key := l
	pd := p.pdoms[key]
	if pd == nil {
		pd = p.postDominators(l)
		p.pdoms[key] = pd
	}
	if m := pd.ipdom[b.Index]; m >= 0 && m < len(p.f.Blocks) {
		return p.f.Blocks[m], nil
	}
	// The arms meet only at the exit: where they join before they leave
	// (`if c { goto j } else if d { continue } else { goto j }`, what
	// routing a loop's exits gives), the first block both reach is the
	// merge; else the arm that goes on.
	m, join := p.firstJoin(l, b)
	if m != nil && p.strategy.firstJoin {
		return m, nil
	}
	var open []*kir.Block
	for _, s := range b.Succs {
		if !p.closed(l, s) {
			open = append(open, s)
		}
	}
	switch len(open) {
	case 0:
		return nil, nil
	case 1:
		return open[0], nil
	}
	if p.strategy.splitJoin {
		if m := p.splitJoin(l, b, join); m != nil {
			return m, nil
		}
	}
	err := structError{posOf(b), fmt.Sprintf("the two arms of a branch (block %d) go on to different places and never meet, which SPIR-V's structured control flow cannot express here", b.Index)}
	if join != nil {
		// They meet at a block b does not dominate: the caller gives the
		// arm inside b's region a copy of it.
		x := join.Preds[len(join.Preds)-1]
		for _, pr := range join.Preds {
			if p.dom.Dominates(b, pr) {
				x = pr
			}
		}
		return nil, &dupError{err, join, x}
	}
	return nil, &err
}

// firstJoin returns the first block, in reverse postorder, that b
// dominates and that both arms of its branch reach on the local graph of
// loop l (nil if none), and the first that both reach, dominated or not.
func (p *plan) firstJoin(l *loopPlan, b *kir.Block) (merge, join *kir.Block) {
	a, c := p.localReach(l, b.Succs[0]), p.localReach(l, b.Succs[1])
	for _, x := range kir.ReversePostorder(p.f) {
		if a[x] && c[x] && x != b {
			if join == nil {
				join = x
			}
			if p.dom.Dominates(b, x) {
				return x, join
			}
		}
	}
	return nil, join
}

// localReach returns the blocks reached from s on the local graph of loop
// l (s included, unless it leaves l).
func (p *plan) localReach(l *loopPlan, s *kir.Block) map[*kir.Block]bool {
	seen := map[*kir.Block]bool{}
	if l != nil && (s == l.merge || s == l.cont || s == l.header) {
		return seen
	}
	work := []*kir.Block{s}
	seen[s] = true
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, y := range p.localSuccs(l, x) {
			if !seen[y] {
				seen[y] = true
				work = append(work, y)
			}
		}
	}
	return seen
}

// splitJoin gives the branch at b a merge of its own where its arms join
// code that other paths reach too, and returns it (nil where it cannot):
// in `if a { if c { if d { break }; x++ } else { y++ } }` the arms of the
// if on c meet at the end of the if on a, which b does not dominate (a
// skips there directly), and the break (an edge to
// the loop's exit, like a return, a continue or a trap) keeps that end
// from post-dominating b. Where every edge into join from code b reaches
// comes from a block b dominates, those edges move onto a new block that
// jumps to join: b dominates it, and both arms reach it.
func (p *plan) splitJoin(l *loopPlan, b, join *kir.Block) *kir.Block {
	if join == nil || p.dom.Dominates(b, join) || p.loops[join] != nil {
		return nil
	}
	reached := p.localReach(l, b)
	var preds []*kir.Block
	for _, pr := range join.Preds {
		if !reached[pr] {
			continue
		}
		if !p.dom.Dominates(b, pr) {
			return nil
		}
		preds = append(preds, pr)
	}
	if len(preds) == 0 {
		return nil
	}
	m := splitEdges(p.f, join, preds, "if.merge")
	p.inLoop[m] = l
	p.dom = kir.Dominators(p.f)
	p.pdoms = map[*loopPlan]*postDom{}
	return m
}

// dispatchMerge is the merge of the branch at b in loop l's body under the
// general strategy, which structures any reducible graph (Bahmann et al.,
// "Perfect reconstructability of control flow from demand dependence
// graphs", 2015, section 4's branch regions): b's region is b and the code
// each arm alone reaches (the blocks the arm's first block dominates, when
// b is its only entry), and b's continuations are the blocks outside the
// region that its edges reach, on the local graph (breaks, continues and
// returns leave by themselves). No continuation: nil (no path goes on);
// one, dominated by b: the merge; one that other code reaches too: a new
// block for the region's edges into it. Several: a dispatchError, for the
// caller to join them into one block that then dispatches on which
// continuation each edge went to, which is the merge when planned again.
// The region of a branch inside b's region lies inside b's, so the
// constructs nest.
func (p *plan) dispatchMerge(l *loopPlan, b *kir.Block) (*kir.Block, error) {
	region, targets := p.branchRegion(l, b)
	if len(targets) == 0 {
		return nil, nil
	}
	if len(targets) > 1 {
		return nil, &dispatchError{region, targets}
	}
	c := targets[0]
	if p.dom.Dominates(b, c) || p.claimed[c] || p.loops[c] != nil {
		return c, nil // planOn splits a claimed merge or a loop header
	}
	var preds []*kir.Block
	for _, pr := range c.Preds {
		if region[pr] {
			preds = append(preds, pr)
		}
	}
	m := splitEdges(p.f, c, preds, "if.merge")
	p.inLoop[m] = l
	p.dom = kir.Dominators(p.f)
	p.pdoms = map[*loopPlan]*postDom{}
	return m, nil
}

// branchRegion returns the region of the branch at b in loop l's body and
// its continuations, in reverse postorder (see dispatchMerge).
func (p *plan) branchRegion(l *loopPlan, b *kir.Block) (region map[*kir.Block]bool, targets []*kir.Block) {
	var roots []*kir.Block
	for _, s := range p.localSuccs(l, b) {
		if slices.ContainsFunc(s.Preds, func(q *kir.Block) bool { return q != b && !p.dom.Dominates(s, q) }) {
			continue // entered from elsewhere too: a continuation
		}
		roots = append(roots, s)
	}
	// The merges chosen so far are those of the constructs around b
	// (a merge lies below b only if its header dominates b): b's region
	// ends where they begin, or its construct would reach out of theirs.
	merges := map[*kir.Block]bool{}
	for _, m := range p.merge {
		merges[m] = true
	}
	inArm := func(y *kir.Block) bool {
		return !merges[y] && slices.ContainsFunc(roots, func(s *kir.Block) bool { return p.dom.Dominates(s, y) })
	}
	region = map[*kir.Block]bool{b: true}
	cont := map[*kir.Block]bool{}
	work := []*kir.Block{b}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, y := range p.localSuccs(l, x) {
			switch {
			case region[y]:
			case inArm(y):
				region[y] = true
				work = append(work, y)
			default:
				cont[y] = true
			}
		}
	}
	for _, x := range kir.ReversePostorder(p.f) {
		if cont[x] {
			targets = append(targets, x)
		}
	}
	return region, targets
}

// closed reports whether s dominates every block it reaches on the local
// graph of loop l's body (its code never joins code from elsewhere).
func (p *plan) closed(l *loopPlan, s *kir.Block) bool {
	if l != nil && (s == l.merge || s == l.cont || s == l.header) {
		return true // a break or continue arm leaves by itself
	}
	next := func(x *kir.Block) []*kir.Block { return p.localSuccs(l, x) }
	return kir.Reach(s, next, func(x *kir.Block) bool { return p.dom.Dominates(s, x) })
}

// validate checks every construct's exits against SPIR-V's rules.
func (p *plan) validate() error {
	inConstruct := func(h, m, x *kir.Block) bool {
		return p.dom.Dominates(h, x) && (p.unreachable[m] || !p.dom.Dominates(m, x))
	}
	if p.strategy.dispatch {
		if err := p.validateNesting(inConstruct); err != nil {
			return err
		}
	}
	// In block order, so that the first error, and so the rerouting the
	// caller does, is the same on every run.
	for _, h := range p.f.Blocks {
		m := p.merge[h]
		if m == nil {
			continue
		}
		l := p.inLoop[h]
		for _, x := range p.f.Blocks {
			if !inConstruct(h, m, x) {
				// A construct is entered only through its header. (A
				// loop's continue block that only the selection's code
				// and its merge reach is the loop's, not the selection's:
				// a `continue` inside the selection and the code after
				// it both go there.)
				for _, y := range x.Succs {
					if l != nil && (y == l.cont || y == l.merge) {
						continue // a continue or break, not an entry
					}
					if y != h && inConstruct(h, m, y) && !(p.loops[y] != nil && p.dom.Dominates(y, x)) {
						return &edgeError{structError{posOf(x), fmt.Sprintf("a branch enters an if/switch construct other than through its condition (block %d to %d), which SPIR-V's structured control flow cannot express here", x.Index, y.Index)}, x, y}
					}
				}
				continue
			}
			for _, y := range x.Succs {
				if y == m || inConstruct(h, m, y) {
					continue
				}
				if l != nil && (y == l.merge || y == l.cont || y == l.header) {
					continue
				}
				return &edgeError{structError{posOf(x), fmt.Sprintf("a branch leaves an if/switch construct into the middle of other code (a fallthrough or goto-like shape) that SPIR-V's structured control flow cannot express here (block %d to %d)", x.Index, y.Index)}, x, y}
			}
		}
	}
	for _, hb := range p.f.Blocks {
		lp := p.loops[hb]
		if lp == nil {
			continue
		}
		for _, y := range lp.cont.Succs {
			if y != lp.header && y != lp.merge {
				return &structError{posOf(lp.cont), "a loop's latch branches elsewhere than back or out of the loop, which SPIR-V's structured control flow cannot express here"}
			}
		}
		for _, x := range p.f.Blocks {
			if !inConstruct(lp.header, lp.merge, x) {
				for _, y := range x.Succs {
					if y != lp.header && inConstruct(lp.header, lp.merge, y) {
						return &structError{posOf(x), fmt.Sprintf("a branch enters a loop other than through its header (block %d to %d), which SPIR-V's structured control flow cannot express here", x.Index, y.Index)}
					}
				}
				continue
			}
			inner := p.inLoop[x]
			for _, y := range x.Succs {
				if y == lp.merge || y == lp.header || inConstruct(lp.header, lp.merge, y) {
					if y == lp.merge && inner != lp && inner != nil && x != inner.merge {
						// fine only from this loop's own blocks
						if p.dom.Dominates(inner.header, x) && !p.dom.Dominates(inner.merge, x) {
							return &structError{posOf(x), "a labeled break leaves an inner loop for an outer loop's end, which SPIR-V's structured control flow does not allow here"}
						}
					}
					if y == lp.cont && inner != lp && inner != nil && p.dom.Dominates(inner.header, x) && !p.dom.Dominates(inner.merge, x) {
						return &structError{posOf(x), "a labeled continue of an outer loop from an inner loop, which SPIR-V's structured control flow does not allow here"}
					}
					continue
				}
				return &structError{posOf(x), fmt.Sprintf("a branch leaves a loop other than to its end (block %d to %d)", x.Index, y.Index)}
			}
		}
	}
	return nil
}

// validateNesting checks, for the general strategy, that the merge of
// every construct inside a selection lies inside it too: SPIR-V's
// constructs are defined by structural dominance, where a header reaches
// its merge, so a nested merge placed after the enclosing merge puts code
// past that merge into the enclosing construct, and its branch on out of
// it leaves the construct other than through the merge (R025's plan,
// before branchRegion stopped at the merges around a branch). The earlier
// strategies' plans may place a nested merge so where the code after it
// only leaves the loop, which SPIR-V allows (constructs Math32/Math64),
// so the check is the general strategy's alone, whose constructs nest by
// construction.
func (p *plan) validateNesting(inConstruct func(h, m, x *kir.Block) bool) error {
	mergeOf := func(h2 *kir.Block) *kir.Block {
		if lp := p.loops[h2]; lp != nil {
			return lp.merge
		}
		return p.merge[h2]
	}
	for _, h := range p.f.Blocks {
		m := p.merge[h]
		if m == nil {
			continue
		}
		for _, h2 := range p.f.Blocks {
			m2 := mergeOf(h2)
			if h2 == h || m2 == nil || p.unreachable[m2] || !inConstruct(h, m, h2) || inConstruct(h, m, m2) {
				continue
			}
			return &structError{posOf(h2), fmt.Sprintf("a construct inside an if/switch (block %d) would end after the if/switch's end (block %d), which SPIR-V's structured control flow cannot express here", h2.Index, m.Index)}
		}
	}
	return nil
}

// checkSSA reports a value used where its definition does not dominate
// the use (what rerouting edges could cause): a clear error, never an
// invalid module.
func (p *plan) checkSSA() error {
	dominates := func(def *kir.Value, use *kir.Block) bool {
		return def == nil || p.dom.Dominates(def.Block, use)
	}
	for _, b := range p.f.Blocks {
		if p.unreachable[b] {
			continue
		}
		for _, v := range b.Values {
			for i, a := range v.Args {
				use := b
				if v.Op == kir.OpPhi {
					use = b.Preds[i]
				} else if a.Block == b {
					continue // defined earlier in the block
				}
				if !dominates(a, use) {
					return &structError{v.Pos, fmt.Sprintf("restructuring the control flow for SPIR-V left a value (v%d) used where it is not always computed", a.ID)}
				}
			}
		}
		for _, a := range []*kir.Value{b.Cond, b.Trap.Args[0], b.Trap.Args[1]} {
			if a != nil && a.Block != b && !dominates(a, b) {
				return &structError{posOf(b), fmt.Sprintf("restructuring the control flow for SPIR-V left a value (v%d) used where it is not always computed", a.ID)}
			}
		}
	}
	return nil
}

// splitEdges moves the edges from preds into target onto a new block that
// jumps to target, with phis of its own merging what they carried.
func splitEdges(f *kir.Func, target *kir.Block, preds []*kir.Block, comment string) *kir.Block {
	n := f.NewBlock(kir.BlockPlain, comment)
	moved := map[int]bool{}
	isPred := map[*kir.Block]bool{}
	for _, pr := range preds {
		isPred[pr] = true
	}
	for i, pr := range target.Preds {
		if isPred[pr] {
			moved[i] = true
		}
	}
	phis := target.Phis()
	newPhis := make([]*kir.Value, len(phis))
	for k, phi := range phis {
		np := f.NewPhi(n, phi.Type)
		newPhis[k] = np
		for i := range target.Preds {
			if moved[i] {
				np.Args = append(np.Args, phi.Args[i])
			}
		}
	}
	var keepPreds []*kir.Block
	keepArgs := make([][]*kir.Value, len(phis))
	for i, pr := range target.Preds {
		if moved[i] {
			n.Preds = append(n.Preds, pr)
			for j, s := range pr.Succs {
				if s == target {
					pr.Succs[j] = n
				}
			}
			continue
		}
		keepPreds = append(keepPreds, pr)
		for k, phi := range phis {
			keepArgs[k] = append(keepArgs[k], phi.Args[i])
		}
	}
	target.Preds = keepPreds
	for k, phi := range phis {
		phi.Args = keepArgs[k]
	}
	n.Term = kir.TermJump
	n.Succs = []*kir.Block{target}
	target.Preds = append(target.Preds, n)
	for k, phi := range phis {
		phi.Args = append(phi.Args, newPhis[k])
	}
	return n
}

// removeUnreachable drops blocks the entry does not reach and their phi
// arguments.
func removeUnreachable(f *kir.Func) {
	live := map[*kir.Block]bool{}
	for _, b := range kir.ReversePostorder(f) {
		live[b] = true
	}
	var keep []*kir.Block
	for _, b := range f.Blocks {
		if !live[b] {
			continue
		}
		var preds []*kir.Block
		var keepIdx []int
		for i, pr := range b.Preds {
			if live[pr] {
				preds = append(preds, pr)
				keepIdx = append(keepIdx, i)
			}
		}
		if len(preds) != len(b.Preds) {
			for _, phi := range b.Phis() {
				var args []*kir.Value
				for _, i := range keepIdx {
					args = append(args, phi.Args[i])
				}
				phi.Args = args
			}
			b.Preds = preds
		}
		b.Index = len(keep)
		keep = append(keep, b)
	}
	f.Blocks = keep
}
