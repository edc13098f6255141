package kir

import "math"

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
// is left alone. It returns how many loops it versioned.
func LoopChecks(f *Func) int {
	n := 0
	for {
		dom := Dominators(f)
		done := false
		for _, l := range NaturalLoops(f, dom) {
			if versionLoop(f, l, dom) {
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
// stepped by an add of a loop-invariant value on the latch edge.
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
	if l.Blocks[pre] || h.Preds[li] != latch || pre.Term != TermJump {
		return
	}
	return pre, latch, pi, li, true
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
}

func versionLoop(f *Func, l *Loop, dom *DomTree) bool {
	c, ok := countLoop(l)
	if !ok || !c.onlyHeaderExits {
		return false
	}
	e := c.exit
	if len(e.Preds) != 1 || len(e.Phis()) > 0 || e.Term == TermTrap {
		return false
	}
	var checks []loopCheck
	barrier := false
	for b := range l.Blocks {
		if hasBarrier(b) {
			barrier = true
		}
		if !isCheck(b) || !dom.Dominates(b, c.latch) {
			continue
		}
		cond := b.Cond
		if cond.Op != OpLt || cond.Args[0].Op != OpBitcast || cond.Args[1].Op != OpBitcast ||
			cond.Args[0].Type.Kind != U64 {
			continue
		}
		idx, length := cond.Args[0].Args[0], cond.Args[1].Args[0]
		if l.Blocks[length.Block] || length.Type.Kind != I64 {
			continue
		}
		form, ok := c.affineOf(idx, 0)
		if !ok || form.a == 0 && len(form.atoms) == 0 {
			continue // a constant index: LICM and BCE's business
		}
		checks = append(checks, loopCheck{b: b, idx: form, length: length})
	}
	if len(checks) == 0 {
		return false
	}
	if barrier {
		u := &forms{uniform: map[*Value]bool{}}
		reads := []*Value{c.init, c.limit}
		for _, ch := range checks {
			reads = append(reads, ch.length)
			for a := range ch.idx.atoms {
				reads = append(reads, a)
			}
		}
		for _, v := range reads {
			if !u.isUniform(v) {
				return false
			}
		}
	}
	// Keep the order of checks stable (map iteration above).
	order := map[*Block]int{}
	for i, b := range f.Blocks {
		order[b] = i
	}
	for i := 1; i < len(checks); i++ {
		for j := i; j > 0 && order[checks[j].b] < order[checks[j-1].b]; j-- {
			checks[j], checks[j-1] = checks[j-1], checks[j]
		}
	}

	// The test, at the end of the preheader.
	pre := c.pre
	k64 := func(x int64) *Value { return f.NewConst(pre, TI64, uint64(x)) }
	wide := func(v *Value) *Value {
		if v.Type.Kind == I64 {
			return v
		}
		return f.NewValue(pre, OpConvert, TI64, v)
	}
	var all *Value
	and := func(t *Value) {
		if all == nil {
			all = t
		} else {
			all = f.NewValue(pre, OpAnd, TBool, all, t)
		}
	}
	inRange := func(v *Value, hi int64) {
		if v.Op == OpConst && v.Int() >= -lcBound && v.Int() <= hi {
			return // known to hold
		}
		and(f.NewValue(pre, OpGe, TBool, v, k64(-lcBound)))
		and(f.NewValue(pre, OpLe, TBool, v, k64(hi)))
	}
	init, limit := wide(c.init), wide(c.limit)
	hiLimit := int64(lcBound)
	if c.iv.Type.Kind == I32 {
		hiLimit = min(hiLimit, math.MaxInt32-c.stepConst+1)
	}
	inRange(init, lcBound)
	inRange(limit, hiLimit)
	last := f.NewValue(pre, OpSub, TI64, limit, k64(1))
	tested := map[*Value]bool{}
	for _, ch := range checks {
		// The invariant part, with its atoms bounded.
		var inv *Value = k64(ch.idx.k)
		atoms := make([]*Value, 0, len(ch.idx.atoms))
		for a := range ch.idx.atoms {
			atoms = append(atoms, a)
		}
		for i := 1; i < len(atoms); i++ {
			for j := i; j > 0 && atoms[j].ID < atoms[j-1].ID; j-- {
				atoms[j], atoms[j-1] = atoms[j-1], atoms[j]
			}
		}
		for _, a := range atoms {
			k := ch.idx.atoms[a]
			if k == 0 {
				continue
			}
			if !tested[a] {
				tested[a] = true
				inRange(a, lcBound)
			}
			t := a
			if k != 1 {
				t = f.NewValue(pre, OpMul, TI64, a, k64(k))
			}
			inv = f.NewValue(pre, OpAdd, TI64, inv, t)
		}
		at := func(i *Value) *Value {
			return f.NewValue(pre, OpAdd, TI64, f.NewValue(pre, OpMul, TI64, i, k64(ch.idx.a)), inv)
		}
		lo, hi := at(init), at(last)
		if ch.idx.a < 0 {
			lo, hi = hi, lo
		}
		and(launchFact(f.NewValue(pre, OpGe, TBool, lo, k64(0))))
		and(launchFact(f.NewValue(pre, OpLt, TBool, f.NewValue(pre, OpBitcast, TU64, hi), f.NewValue(pre, OpBitcast, TU64, ch.length))))
	}

	// The copy without the checks.
	set := map[*Block]bool{}
	var blocks []*Block
	for _, b := range f.Blocks {
		if l.Blocks[b] {
			set[b] = true
			blocks = append(blocks, b)
		}
	}
	for _, b := range append([]*Block(nil), blocks...) {
		for _, s := range b.Succs {
			if !set[s] && s.Term == TermTrap && s != e {
				set[s] = true
				blocks = append(blocks, s)
			}
		}
	}
	drop := map[*Block]bool{}
	for _, ch := range checks {
		drop[ch.b] = true
	}
	bm, vm := cloneBlocks(f, blocks)
	mapV := func(v *Value) *Value { return mapped(vm, v) }
	// Each copy leaves through a block of its own, so that each loop has
	// its own merge block and the versioning branch merges at e.
	slowExit := f.NewBlock(e.Kind, e.Comment)
	fastExit := f.NewBlock(e.Kind, e.Comment)
	mapB := func(b *Block) *Block {
		if b == e {
			return fastExit
		}
		return mapped(bm, b)
	}
	for _, b := range blocks {
		nb := bm[b]
		for _, v := range nb.Values {
			for i, a := range v.Args {
				v.Args[i] = mapV(a)
			}
		}
		for _, p := range b.Preds {
			if p == pre {
				nb.Preds = append(nb.Preds, pre)
			} else {
				nb.Preds = append(nb.Preds, mapB(p))
			}
		}
		if drop[b] {
			nb.Term, nb.Succs = TermJump, []*Block{mapB(b.Succs[0])}
		} else {
			nb.Term, nb.Cond, nb.Trap = b.Term, mapV(b.Cond), b.Trap
			for i, a := range nb.Trap.Args {
				nb.Trap.Args[i] = mapV(a)
			}
			for _, s := range b.Succs {
				nb.Succs = append(nb.Succs, mapB(s))
			}
		}
	}
	// A trap block shared by a dropped check and a kept one keeps only
	// the kept one's edge in the copy.
	rev := map[*Block]*Block{}
	for o, nb := range bm {
		rev[nb] = o
	}
	for _, b := range blocks {
		nb := bm[b]
		if b.Term != TermTrap {
			continue
		}
		var ps []*Block
		for _, p := range nb.Preds {
			if !drop[rev[p]] {
				ps = append(ps, p)
			}
		}
		nb.Preds = ps
	}
	h := c.h
	slowExit.Jump(e)
	fastExit.Jump(e)
	e.Preds = []*Block{slowExit, fastExit}
	for i, s := range h.Succs {
		if s == e {
			h.Succs[i] = slowExit
		}
	}
	slowExit.Preds = []*Block{h}
	fastExit.Preds = []*Block{bm[h]}
	pre.Term, pre.Cond, pre.Succs = TermBranch, all, []*Block{bm[h], h}

	// Values of the loop used after it: a phi at e joins the two copies.
	phis := map[*Value]*Value{}
	repl := func(v *Value) *Value {
		if v == nil || v.Block == nil || !set[v.Block] {
			return v
		}
		if p, ok := phis[v]; ok {
			return p
		}
		p := f.NewPhi(e, v.Type)
		p.Args = []*Value{v, vm[v]}
		phis[v] = p
		return p
	}
	for _, b := range f.Blocks {
		if set[b] || rev[b] != nil {
			continue
		}
		replaceBlockUses(b, b == e, repl)
	}
	return true
}
