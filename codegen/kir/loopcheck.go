package kir

import (
	"math"
	"sort"
)

// LoopChecks hoists bounds checks out of counted loops by versioning. In
//
//	for i := init; i < limit; i += s { ... x[a*i+c] ... }
//
// with s a positive constant, a a constant, c a sum of loop-invariant
// values scaled by constants and len(x) loop-invariant, i takes the
// values init, init+s, ... below limit and no others (the tests below
// rule out the wrap-around of i+s), so the index lies between its values
// at init and at limit-1. The pass tests those two extremes once, in the
// preheader, and enters a copy of the loop without the checks when they
// pass; otherwise the original loop runs, which traps at the first
// failing check with the same trap record, every effect before it done.
//
// Exactness: the index is computed modulo 2^64, the test over the true
// integers. The preheader also tests that init and limit lie in
// [-2^40, 2^40] (and that limit-1+s fits i's kind) and that every
// invariant atom of c does; with |a| and the coefficients of c at most
// 2^16 and at most 8 atoms, every index value is below 2^60 in magnitude,
// so its 64-bit value is the true one and affine in i, hence between the
// two extremes. The test may be stronger than what the checks need (a
// huge invariant that the index subtracts again); then the original loop
// runs, which is always right.
//
// An index whose coefficient of i is not a constant, a[m+(i+j)*lda] in
// a loop over j, is of degree one in i all the same and is versioned on
// its values at the two extremes (looplinear.go).
//
// Only checks that run in every iteration (their block dominates the
// latch) are versioned: a check under a condition may be guarded by a
// test that the extremes do not see (`if i < len(x) { x[i] }`), and
// versioning on a test stronger than the program needs would send such
// loops to the slow copy; EliminateBoundsChecks and VersionChecks handle
// them. The loop must leave through its header alone (a loop with an
// early exit or return is left alone: i need not reach limit-1, but also
// nothing is gained from the shape) apart from traps.
//
// A loop holding a barrier runs in both copies only if every thread of
// the block takes the same one: there the test must read uniform values
// alone (parameters, constants, block and grid dimensions), or the loop
// is left alone. Where the affine extremes would read thread values or
// cannot be formed (a tiled matmul's row*n+k0+tx, (k0+ty)*n+col), the
// test is instead made of uniform tests through the bounds the guards,
// the block and the grid put on each thread (guardloop.go), and where
// the guards prove those tests, the checks go without a copy. It returns
// how many loops it versioned.
func LoopChecks(f *Func) int {
	n := 0
	versioned := map[*Block]bool{} // the headers of both copies of a versioned loop
	for {
		dom := Dominators(f)
		done := false
		loops := NaturalLoops(f, dom)
		for _, l := range loops {
			if !versioned[l.Header] && versionLoop(f, l, dom, loops, versioned) {
				n++
				done = true
				break // the CFG changed: recompute loops
			}
		}
		if !done || n >= 64 {
			break
		}
	}
	if n > 0 {
		RemoveUnreachable(f)
		RemoveDead(f)
	}
	return n
}

// countedLoop is the shape LoopChecks and StrengthReduce need: a header
// h with one preheader and one latch, a basic induction variable iv
// starting at init and stepping by next = iv + step each iteration.
type countedLoop struct {
	l               *Loop
	h, pre, latch   *Block
	pi, li          int // indices of pre and latch in h.Preds
	iv, init, next  *Value
	step            *Value // loop-invariant
	limit           *Value // iv < limit continues (nil: unknown test)
	body, exit      *Block
	onlyHeaderExits bool
	stepConst       int64
}

// loopShape recognizes basic induction variables of l's header: phis
// stepped by an add of a loop-invariant value on the latch edge. pre is
// the header's one predecessor outside l; code is added at its end only
// where it ends in a jump (preheader).
func loopShape(l *Loop) (pre, latch *Block, pi, li int, ok bool) {
	h := l.Header
	if len(l.Latches) != 1 || len(h.Preds) != 2 {
		return
	}
	latch = l.Latches[0]
	pi, li = 0, 1
	if h.Preds[0] == latch {
		pi, li = 1, 0
	}
	pre = h.Preds[pi]
	if l.Blocks[pre] || h.Preds[li] != latch {
		return
	}
	return pre, latch, pi, li, true
}

// preheader is loopShape for the passes that add code before l: its
// predecessor outside l must end in a jump to the header.
func preheader(l *Loop) (pre, latch *Block, pi, li int, ok bool) {
	pre, latch, pi, li, ok = loopShape(l)
	return pre, latch, pi, li, ok && pre.Term == TermJump
}

// basicIV reports whether phi of l's header is iv = phi(init, iv+step)
// with step invariant in l; it returns step.
func basicIV(l *Loop, phi *Value, li int) (step *Value, ok bool) {
	steps, ok := ivSteps(l, phi, li)
	if !ok || len(steps) != 1 {
		return nil, false
	}
	return steps[0], true
}

// loopInvariant reports whether v has one value in every iteration of l:
// defined outside it, or a constant.
func loopInvariant(l *Loop, v *Value) bool {
	return v != nil && (!l.Blocks[v.Block] || v.Op == OpConst)
}

func countLoop(l *Loop) (c countedLoop, ok bool) {
	h := l.Header
	pre, latch, pi, li, ok := loopShape(l)
	if !ok || h.Term != TermBranch || len(h.Succs) != 2 {
		return c, false
	}
	c = countedLoop{l: l, h: h, pre: pre, latch: latch, pi: pi, li: li}
	if !l.Blocks[h.Succs[0]] || l.Blocks[h.Succs[1]] {
		return c, false
	}
	c.body, c.exit = h.Succs[0], h.Succs[1]
	cond := h.Cond
	if cond == nil || cond.Op != OpLt || cond.Block != h {
		return c, false
	}
	iv, limit := cond.Args[0], cond.Args[1]
	if iv.Op != OpPhi || iv.Block != h || l.Blocks[limit.Block] {
		return c, false
	}
	if k := iv.Type.Kind; k != I64 && k != I32 {
		return c, false
	}
	step, ok := basicIV(l, iv, li)
	if !ok || step.Op != OpConst || step.Int() <= 0 || step.Int() > 1<<16 {
		return c, false
	}
	c.iv, c.init, c.next, c.step, c.limit = iv, iv.Args[pi], iv.Args[li], step, limit
	c.stepConst = step.Int()
	// The loop leaves through h alone, apart from traps only it reaches.
	c.onlyHeaderExits = true
	for b := range l.Blocks {
		for _, s := range b.Succs {
			if l.Blocks[s] || (b == h && s == c.exit) {
				continue
			}
			if s.Term != TermTrap {
				c.onlyHeaderExits = false
			}
			for _, p := range s.Preds {
				if !l.Blocks[p] {
					c.onlyHeaderExits = false
				}
			}
		}
	}
	return c, true
}

// affine is a*iv + k + Σ coef·atom with atoms invariant in the loop.
type affine struct {
	a, k  int64
	atoms map[*Value]int64
}

const (
	lcBound = 1 << 40 // bound tested on init, limit and atoms
	lcCoef  = 1 << 16 // bound on |a| and the coefficients
	lcAtoms = 8
)

// affineOf returns v as an affine form of c.iv (I64 values only; an I32
// iv enters through its sign extension, which is exact).
func (c *countedLoop) affineOf(v *Value, depth int) (affine, bool) {
	if depth > 16 || v.Type.Kind != I64 {
		return affine{}, false
	}
	switch {
	case v == c.iv:
		return affine{a: 1, atoms: map[*Value]int64{}}, true
	case v.Op == OpConvert && v.Args[0] == c.iv && c.iv.Type.Kind == I32:
		return affine{a: 1, atoms: map[*Value]int64{}}, true
	case v.Op == OpConst:
		if x := v.Int(); x >= -lcBound && x <= lcBound {
			return affine{k: x, atoms: map[*Value]int64{}}, true
		}
		return affine{}, false
	case !c.l.Blocks[v.Block]:
		return affine{atoms: map[*Value]int64{v: 1}}, true
	}
	switch v.Op {
	case OpAdd, OpSub:
		x, ok1 := c.affineOf(v.Args[0], depth+1)
		y, ok2 := c.affineOf(v.Args[1], depth+1)
		if !ok1 || !ok2 {
			return affine{}, false
		}
		s := int64(1)
		if v.Op == OpSub {
			s = -1
		}
		out := affine{a: x.a + s*y.a, k: x.k + s*y.k, atoms: map[*Value]int64{}}
		for a, k := range x.atoms {
			out.atoms[a] += k
		}
		for a, k := range y.atoms {
			out.atoms[a] += s * k
		}
		return out, out.fits()
	case OpMul, OpShl:
		x, y := v.Args[0], v.Args[1]
		if v.Op == OpMul && x.Op == OpConst {
			x, y = y, x
		}
		if y.Op != OpConst {
			return affine{}, false
		}
		m := y.Int()
		if v.Op == OpShl {
			if uint64(m) > 16 {
				return affine{}, false
			}
			m = 1 << m
		}
		if m < -lcCoef || m > lcCoef {
			return affine{}, false
		}
		r, ok := c.affineOf(x, depth+1)
		if !ok {
			return affine{}, false
		}
		out := affine{a: r.a * m, k: r.k * m, atoms: map[*Value]int64{}}
		for a, k := range r.atoms {
			out.atoms[a] = k * m
		}
		return out, out.fits()
	}
	return affine{}, false
}

// fits keeps every index value of a form below 2^60 in magnitude when
// iv and the atoms lie in [-2^40, 2^40].
func (x affine) fits() bool {
	if x.a < -lcCoef || x.a > lcCoef || x.k < -lcBound || x.k > lcBound || len(x.atoms) > lcAtoms {
		return false
	}
	for _, k := range x.atoms {
		if k < -lcCoef || k > lcCoef {
			return false
		}
	}
	return true
}

// loopCheck is a check of the loop that the versioned copy drops.
type loopCheck struct {
	b      *Block
	idx    affine
	length *Value
	// expr, when set, is an index of degree one in the counter that idx
	// cannot hold (a non-constant coefficient; looplinear.go).
	expr   *Value
	linear linearIndex
}

// loopVersion is what versionLoop decided for one loop: its counted
// shape and the checks its copy drops, in block order.
type loopVersion struct {
	c      countedLoop
	checks []loopCheck
	// guard, when set, is the test of the checks: uniform tests through
	// the guards (guardloop.go) instead of the affine extremes.
	guard *guardedLoop
}

// versionLoop versions l on its bounds checks in three steps:
// planLoopVersion finds the checks the copy may drop and decides whether
// l can be versioned on them; extremesTest builds the test of their
// extremes in the preheader; copyWithoutChecks copies the loop without
// them, and enterCopies and joinCopies branch to the two copies and join
// them after the loop.
func versionLoop(f *Func, l *Loop, dom *DomTree, loops []*Loop, versioned map[*Block]bool) bool {
	v, ok := planLoopVersion(f, l, dom, loops)
	if !ok {
		return false
	}
	var test *Value
	switch {
	case v.guard != nil && v.guard.proved():
		v.guard.dropChecks() // no copy needed
		return true
	case v.guard != nil:
		test = v.guard.test(f, &v.c)
	default:
		test = v.extremesTest(f)
	}
	if len(v.c.exit.Preds) > 1 {
		// A join (the end of an if around the loop): the copies join
		// in an exit of the loop's own.
		v.c.exit = splitEdge(f, v.c.h, v.c.exit)
	}
	cp := v.copyWithoutChecks(f)
	v.enterCopies(f, cp, test)
	versioned[l.Header], versioned[cp.bm[l.Header]] = true, true
	// The loop, its copy and the traps only they reach keep their uses.
	joinCopies(f, v.c.exit, cp.set, cp.vm,
		func(q *Block) bool { return q == cp.fastExit },
		func(b *Block) bool { return cp.set[b] || cp.rev[b] != nil })
	return true
}

// splitEdge puts a block between b and its successor s, in s's
// predecessors where b was (s's phis keep their arguments), and returns
// it.
func splitEdge(f *Func, b, s *Block) *Block {
	x := f.NewBlock(s.Kind, s.Comment)
	x.Term, x.Succs, x.Preds = TermJump, []*Block{s}, []*Block{b}
	for i, p := range s.Preds {
		if p == b {
			s.Preds[i] = x
		}
	}
	for i, t := range b.Succs {
		if t == s {
			b.Succs[i] = x
		}
	}
	return x
}

// planLoopVersion decides whether l is versioned, and on which checks: l
// must be a counted loop that leaves through its header alone into an
// exit of its own, with checks in every iteration of affine indices (or
// of degree one in the counter, looplinear.go), or that the guards
// dominating them bound (planGuardedLoop), whichever covers more; if it
// holds a barrier, the test must read uniform values alone.
func planLoopVersion(f *Func, l *Loop, dom *DomTree, loops []*Loop) (loopVersion, bool) {
	c, ok := countLoop(l)
	if !ok || !c.onlyHeaderExits || c.pre.Term != TermJump {
		return loopVersion{}, false
	}
	if e := c.exit; len(e.Preds) == 1 && len(e.Phis()) > 0 || e.Term == TermTrap {
		return loopVersion{}, false
	}
	checks, barrier := c.affineChecks(dom)
	if barrier && !c.uniformTest(checks) {
		checks = nil
	}
	// The guards' tests read uniform values alone, which a launch-facts
	// variant decides on the host: they win a tie with tests that read
	// thread values.
	if g, ok := planGuardedLoop(f, &c, dom, loops); ok && (len(g.checks) > len(checks) || len(g.checks) == len(checks) && !c.uniformTest(checks)) {
		return loopVersion{c: c, checks: g.checks, guard: &g}, true
	}
	if len(checks) == 0 {
		return loopVersion{}, false
	}
	// Keep the order of checks stable (affineChecks walks a map).
	order := map[*Block]int{}
	for i, b := range f.Blocks {
		order[b] = i
	}
	sort.Slice(checks, func(i, j int) bool { return order[checks[i].b] < order[checks[j].b] })
	return loopVersion{c: c, checks: checks}, true
}

// affineChecks finds the checks the copy may drop: those that run in
// every iteration (their block dominates the latch) and compare an index
// affine in iv with a loop-invariant length. It also reports whether the
// loop holds a barrier.
func (c *countedLoop) affineChecks(dom *DomTree) (checks []loopCheck, barrier bool) {
	for b := range c.l.Blocks {
		if firstBarrier(b) >= 0 {
			barrier = true
		}
		if !isCheck(b) || !dom.Dominates(b, c.latch) {
			continue
		}
		idx, length, ok := unsignedLess(b.Cond)
		if !ok || c.l.Blocks[length.Block] || length.Type.Kind != I64 {
			continue
		}
		form, ok := c.affineOf(idx, 0)
		if !ok {
			if li, ok := c.linearOf(idx); ok {
				checks = append(checks, loopCheck{b: b, length: length, expr: idx, linear: li})
			}
			continue
		}
		if form.a == 0 && len(form.atoms) == 0 {
			continue // a constant index: LICM and BCE's business
		}
		checks = append(checks, loopCheck{b: b, idx: form, length: length})
	}
	return checks, barrier
}

// uniformTest reports whether the test of checks reads uniform values
// alone, as a loop holding a barrier needs: every thread of the block
// must enter the same copy.
func (c *countedLoop) uniformTest(checks []loopCheck) bool {
	u := &forms{uniform: map[*Value]bool{}}
	reads := []*Value{c.init, c.limit}
	for _, ch := range checks {
		reads = append(reads, ch.length)
		for a := range ch.idx.atoms {
			reads = append(reads, a)
		}
		reads = append(reads, ch.linear.leaves...)
	}
	for _, v := range reads {
		if !u.isUniform(v) {
			return false
		}
	}
	return true
}

// preheaderTest builds the versioning test at the end of the preheader.
type preheaderTest struct {
	conjunction
	tested map[*Value]bool // the atoms already bounded
}

// k64 is the I64 constant x.
func (t *preheaderTest) k64(x int64) *Value { return t.f.NewConst(t.b, TI64, uint64(x)) }

// wide is v as an I64.
func (t *preheaderTest) wide(v *Value) *Value {
	if v.Type.Kind == I64 {
		return v
	}
	return t.f.NewValue(t.b, OpConvert, TI64, v)
}

// inRange tests v in [lo, hi], unless v is a constant that is.
func (t *preheaderTest) inRange(v *Value, lo, hi int64) {
	if v.Op == OpConst && v.Int() >= lo && v.Int() <= hi {
		return // known to hold
	}
	t.and(t.f.NewValue(t.b, OpGe, TBool, v, t.k64(lo)))
	t.and(t.f.NewValue(t.b, OpLe, TBool, v, t.k64(hi)))
}

// extremesTest builds, at the end of the preheader, the test that every
// check holds at both extremes of iv (init and limit-1), with init, limit
// and every atom bounded so that the indices are exact (see LoopChecks).
func (v *loopVersion) extremesTest(f *Func) *Value {
	c := &v.c
	pre := c.pre
	t := &preheaderTest{conjunction: conjunction{f: f, b: pre}, tested: map[*Value]bool{}}
	init, limit := t.wide(c.init), t.wide(c.limit)
	hiLimit := int64(lcBound)
	if c.iv.Type.Kind == I32 {
		hiLimit = min(hiLimit, math.MaxInt32-c.stepConst+1)
	}
	t.inRange(init, -lcBound, lcBound)
	t.inRange(limit, -lcBound, hiLimit)
	last := f.NewValue(pre, OpSub, TI64, limit, t.k64(1))
	for _, ch := range v.checks {
		if ch.expr != nil {
			t.linearExtremes(c, ch, init, limit, last)
			continue
		}
		inv := t.invariantPart(ch.idx)
		at := func(i *Value) *Value {
			return f.NewValue(pre, OpAdd, TI64, f.NewValue(pre, OpMul, TI64, i, t.k64(ch.idx.a)), inv)
		}
		lo, hi := at(init), at(last)
		if ch.idx.a < 0 {
			lo, hi = hi, lo
		}
		t.and(launchFact(f.NewValue(pre, OpGe, TBool, lo, t.k64(0))))
		t.and(launchFact(f.NewValue(pre, OpLt, TBool, f.NewValue(pre, OpBitcast, TU64, hi), f.NewValue(pre, OpBitcast, TU64, ch.length))))
	}
	return t.all
}

// invariantPart computes k + Σ coef·atom of idx, testing each atom's
// bound the first time it is read.
func (t *preheaderTest) invariantPart(idx affine) *Value {
	inv := t.k64(idx.k)
	atoms := make([]*Value, 0, len(idx.atoms))
	for a := range idx.atoms {
		atoms = append(atoms, a)
	}
	sort.Slice(atoms, func(i, j int) bool { return atoms[i].ID < atoms[j].ID })
	for _, a := range atoms {
		k := idx.atoms[a]
		if k == 0 {
			continue
		}
		if !t.tested[a] {
			t.tested[a] = true
			t.inRange(a, -lcBound, lcBound)
		}
		term := a
		if k != 1 {
			term = t.f.NewValue(t.b, OpMul, TI64, a, t.k64(k))
		}
		inv = t.f.NewValue(t.b, OpAdd, TI64, inv, term)
	}
	return inv
}

// loopCopy is the copy of a loop without its checks.
type loopCopy struct {
	blocks []*Block          // the loop's blocks and the trap blocks they alone reach
	set    map[*Block]bool   // blocks, as a set
	bm     map[*Block]*Block // each block to its copy
	vm     map[*Value]*Value // each value to its copy
	rev    map[*Block]*Block // each copy to its block
	// Each copy leaves through a block of its own, so that each loop has
	// its own merge block and the versioning branch merges at the exit.
	slowExit, fastExit *Block
}

// copyWithoutChecks copies the loop and the trap blocks only it reaches,
// with each dropped check a jump to its continuation.
func (v *loopVersion) copyWithoutChecks(f *Func) *loopCopy {
	c, e := &v.c, v.c.exit
	cp := &loopCopy{set: map[*Block]bool{}}
	for _, b := range f.Blocks {
		if c.l.Blocks[b] {
			cp.set[b] = true
			cp.blocks = append(cp.blocks, b)
		}
	}
	for _, b := range append([]*Block(nil), cp.blocks...) {
		for _, s := range b.Succs {
			if !cp.set[s] && s.Term == TermTrap && s != e {
				cp.set[s] = true
				cp.blocks = append(cp.blocks, s)
			}
		}
	}
	drop := map[*Block]bool{}
	for _, ch := range v.checks {
		drop[ch.b] = true
	}
	cp.bm, cp.vm = cloneBlocks(f, cp.blocks)
	cp.slowExit = f.NewBlock(e.Kind, e.Comment)
	cp.fastExit = f.NewBlock(e.Kind, e.Comment)
	mapB := func(b *Block) *Block {
		if b == e {
			return cp.fastExit
		}
		return mapped(cp.bm, b)
	}
	for _, b := range cp.blocks {
		nb := cp.bm[b]
		for _, p := range b.Preds {
			if p == c.pre {
				nb.Preds = append(nb.Preds, c.pre)
			} else {
				nb.Preds = append(nb.Preds, mapB(p))
			}
		}
		if drop[b] {
			nb.Term, nb.Succs = TermJump, []*Block{mapB(b.Succs[0])}
			continue
		}
		nb.Term, nb.Trap = b.Term, b.Trap
		remapControl(b, nb, cp.vm)
		for _, s := range b.Succs {
			nb.Succs = append(nb.Succs, mapB(s))
		}
	}
	cp.pruneTrapPreds(drop)
	return cp
}

// pruneTrapPreds keeps, of the edges into a copied trap block, those of
// kept checks: a trap block shared by a dropped check and a kept one
// keeps only the kept one's edge in the copy.
func (cp *loopCopy) pruneTrapPreds(drop map[*Block]bool) {
	cp.rev = map[*Block]*Block{}
	for o, nb := range cp.bm {
		cp.rev[nb] = o
	}
	for _, b := range cp.blocks {
		nb := cp.bm[b]
		if b.Term != TermTrap {
			continue
		}
		var ps []*Block
		for _, p := range nb.Preds {
			if !drop[cp.rev[p]] {
				ps = append(ps, p)
			}
		}
		nb.Preds = ps
	}
}

// enterCopies ends the preheader in a branch on test to the copy or the
// original loop, each leaving through its own exit block into the exit.
// Each is entered through a preheader of its own, ending in a jump, where
// the later passes put code before it (StrengthReduce's start values).
func (v *loopVersion) enterCopies(f *Func, cp *loopCopy, test *Value) {
	h, e, pre := v.c.h, v.c.exit, v.c.pre
	fastPre, slowPre := f.NewBlock(pre.Kind, pre.Comment), f.NewBlock(pre.Kind, pre.Comment)
	for _, x := range []struct{ pre, h *Block }{{fastPre, cp.bm[h]}, {slowPre, h}} {
		x.pre.Term, x.pre.Succs, x.pre.Preds = TermJump, []*Block{x.h}, []*Block{pre}
		for i, p := range x.h.Preds {
			if p == pre {
				x.h.Preds[i] = x.pre
			}
		}
	}
	cp.slowExit.Jump(e)
	cp.fastExit.Jump(e)
	e.Preds = []*Block{cp.slowExit, cp.fastExit}
	for i, s := range h.Succs {
		if s == e {
			h.Succs[i] = cp.slowExit
		}
	}
	cp.slowExit.Preds = []*Block{h}
	cp.fastExit.Preds = []*Block{cp.bm[h]}
	pre.Term, pre.Cond, pre.Succs = TermBranch, test, []*Block{fastPre, slowPre}
}
