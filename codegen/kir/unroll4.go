package kir

// The partial-unrolling heuristic: an innermost loop without barriers whose
// trip count is only known at run time is unrolled by UnrollFactor when its
// body has at most UnrollBodyValues instructions.
const (
	UnrollFactor     = 4
	UnrollBodyValues = 48
)

// UnrollRuntime partially unrolls counted loops whose bound is only known
// at run time, `for i := start; i < n; i += step` with n and step
// invariant and step non-negative (the grid-stride loops of reductions and
// histograms): a new loop runs UnrollFactor iterations at a time while
// i + (UnrollFactor-1)*step < n, then the original loop runs the rest.
// The copies of the body sit in one straight line, so their loads issue
// together instead of one memory latency per iteration, which is what
// nvcc's unrolling of such loops buys.
//
// Each copy runs exactly when the original loop would run that iteration
// (i + k*step <= i + 3*step < n for k <= 3, with step >= 0), in the same
// order, so nothing a kernel computes changes. The sum i + 3*step must not
// wrap: value ranges must show that step is below 2^58 (a grid-wide
// stride), and where they do not show n within ±2^58 and the start below
// 2^58 (a plain parameter, PolyBench's `for j := 0; j < ny; j++`), the
// unrolled loop runs only where a test before it finds them so, leaving
// every iteration to the original loop otherwise. Loops containing a barrier are left
// alone (the unrolled test could split a block's threads between the two
// loops), as are loops with other exits than the test and traps.
// It returns how many loops it unrolled.
func UnrollRuntime(f *Func) int {
	n := 0
	dom := Dominators(f)
	p := newProver(f, dom)
	type job struct {
		l    *Loop
		test bool
	}
	var todo []job
	for _, l := range innermostLoops(NaturalLoops(f, dom)) {
		if ok, test := runtimeUnrollable(p, l); ok {
			todo = append(todo, job{l, test})
		}
	}
	for _, j := range todo {
		unrollRuntime(f, j.l, j.test)
		n++
	}
	if n > 0 {
		RemoveUnreachable(f)
		DeadCode(f)
	}
	return n
}

// runtimeUnrollable checks the shape UnrollRuntime needs, and says
// whether the unrolled loop must test at run time that the bound is
// within ±2^58 and the counter starts below it (ranges do not show it).
func runtimeUnrollable(p *prover, l *Loop) (ok, test bool) {
	h := l.Header
	if len(l.Latches) != 1 || len(h.Preds) != 2 || h.Term != TermBranch || l.Latches[0] == h {
		return false, false
	}
	latch := l.Latches[0]
	pi := 0
	if h.Preds[0] == latch {
		pi = 1
	}
	pre := h.Preds[pi]
	if l.Blocks[pre] || h.Preds[1-pi] != latch || !l.Blocks[h.Succs[0]] || l.Blocks[h.Succs[1]] {
		return false, false
	}
	c := h.Cond
	if c.Op != OpLt || c.Block != h || c.Args[0].Op != OpPhi || c.Args[0].Block != h || c.Args[0].Type != TI64 {
		return false, false
	}
	iv, bound := c.Args[0], c.Args[1]
	next := iv.Args[1-pi]
	if l.Blocks[bound.Block] || next.Op != OpAdd || next.Args[0] != iv || (l.Blocks[next.Args[1].Block] && next.Args[1].Op != OpConst) {
		return false, false
	}
	step := next.Args[1]
	if r := p.rng(step, pre); r.lo < 0 || r.hi > unrollFar {
		return false, false
	}
	// A bound (a plain parameter) or a start not known below 2^58 is
	// tested where the unrolled loop runs instead.
	rb := p.rng(bound, pre)
	test = rb.hi > unrollFar || rb.lo < -unrollFar || p.rng(iv.Args[pi], pre).hi > unrollFar
	if (test || l.Blocks[step.Block]) && !checksAffine(l, iv) {
		return false, false
	}
	size := 0
	for b := range l.Blocks {
		for _, v := range b.Values {
			if v.Op == OpBarrier {
				return false, false
			}
			if v.Op != OpConst && v.Op != OpPhi {
				size++
			}
		}
		for _, s := range b.Succs {
			if l.Blocks[s] || (b == h && s == h.Succs[1]) {
				continue
			}
			if s.Term != TermTrap {
				return false, false
			}
			for _, q := range s.Preds {
				if !l.Blocks[q] {
					return false, false
				}
			}
		}
	}
	return size <= UnrollBodyValues, test
}

// unrollFar bounds the counter, the step and the bound of a loop that
// UnrollRuntime unrolls, so that i + (UnrollFactor-1)*step cannot wrap.
const unrollFar = int64(1) << 58

func unrollRuntime(f *Func, l *Loop, test bool) {
	h := l.Header
	latch := l.Latches[0]
	pi := 0
	if h.Preds[0] == latch {
		pi = 1
	}
	li := 1 - pi
	pre := h.Preds[pi]
	body := h.Succs[0]
	iv, bound := h.Cond.Args[0], h.Cond.Args[1]
	step := iv.Args[li].Args[1]

	// In the preheader: (UnrollFactor-1)*step, of a copy of the step where
	// it is a constant the loop holds.
	if l.Blocks[step.Block] {
		step = f.NewConst(pre, step.Type, step.Imm)
	}
	span := f.NewValue(pre, OpMul, TI64, step, f.NewConst(pre, TI64, UnrollFactor-1))

	// The new header: phis for h's phis, the test i + span < n.
	h4 := &Block{Kind: BlockLoopHeader, Comment: h.Comment + " (unrolled)", Unrolled: true}
	h.Unrolled = true // the rest: fewer than UnrollFactor iterations, unless the test fails
	phi4 := map[*Value]*Value{}
	for _, phi := range h.Phis() {
		phi4[phi] = f.NewPhi(h4, phi.Type)
	}
	// i + span < n as i < n - span (no wrap: |n|, span <= 2^58), the form
	// of a counted loop that LoopChecks versions.
	limit := f.NewValue(pre, OpSub, TI64, bound, span)
	cond := f.NewValue(h4, OpLt, TBool, phi4[iv], limit)

	_, order, _ := loopRegion(f, l, h.Succs[1])
	var copies []*Block
	prev := map[*Value]*Value{}
	for phi, q := range phi4 {
		prev[phi] = q // the first copy reads the new header's phis
	}
	var prevLatch *Block
	var firstHead *Block
	for it := 0; it < UnrollFactor; it++ {
		m := map[*Value]*Value{}
		for _, phi := range h.Phis() {
			if it == 0 {
				m[phi] = prev[phi]
			} else {
				m[phi] = mapped(prev, phi.Args[li])
			}
		}
		bm := copyIteration(f, order, h, body, h4, prevLatch, m, &copies)
		if prevLatch == nil {
			firstHead = bm[h]
		}
		prev, prevLatch = m, bm[latch]
	}
	// The last copy's latch closes the new loop.
	for i, s := range prevLatch.Succs {
		if s == nil {
			prevLatch.Succs[i] = h4
		}
	}
	h4.Preds = []*Block{pre, prevLatch}
	for _, phi := range h.Phis() {
		q := phi4[phi]
		// A counter stepped by a constant steps once per group, as
		// LoopChecks needs.
		next := groupStep(f, phi, phi.Args[li], UnrollFactor, prevLatch, q)
		if next == nil {
			next = mapped(prev, phi.Args[li])
		}
		q.Args = []*Value{phi.Args[pi], next}
	}
	h4.Term, h4.Cond, h4.Succs = TermBranch, cond, []*Block{firstHead, h}
	// The preheader enters the new loop; the original loop runs the rest.
	for i, s := range pre.Succs {
		if s == h {
			pre.Succs[i] = h4
		}
	}
	h.Preds[pi] = h4
	for _, phi := range h.Phis() {
		phi.Args[pi] = phi4[phi]
	}
	before, after := []*Block{h4}, []*Block(nil)
	if test {
		g, j := guardUnrolled(f, pre, h4, h, pi, iv, bound)
		before, after = []*Block{g, h4}, []*Block{j}
	}
	var blocks []*Block
	for _, b := range f.Blocks {
		if b == h {
			blocks = append(blocks, before...)
			blocks = append(blocks, copies...)
			blocks = append(blocks, after...)
		}
		blocks = append(blocks, b)
	}
	for i, b := range blocks {
		b.Index = i
	}
	f.Blocks = blocks
}

// guardUnrolled puts a test before the unrolled loop h4, entered from
// pre, that the loop's bound is within ±2^58 and its counter starts below
// it (with the step's range, neither i + span nor n - span then wraps),
// and a join before the original loop h, whose pi-th predecessor h4 is,
// which it enters from h4 or, where the test fails, straight from the
// test: the original loop then runs every iteration. iv is h's counter.
// It returns the two blocks.
func guardUnrolled(f *Func, pre, h4, h *Block, pi int, iv, bound *Value) (test, join *Block) {
	start := iv.Args[pi].Args[0] // h4's phi of the counter, from pre
	test = &Block{Kind: BlockPlain, Comment: h.Comment + " (unroll test)"}
	join = &Block{Kind: BlockPlain, Comment: h.Comment + " (rest)"}
	far := f.NewConst(test, TI64, uint64(unrollFar))
	small := f.NewValue(test, OpLe, TBool, bound, far)
	low := -unrollFar
	big := f.NewValue(test, OpGe, TBool, bound, f.NewConst(test, TI64, uint64(low)))
	in := f.NewValue(test, OpLt, TBool, start, bound)
	ok := f.NewValue(test, OpAnd, TBool, f.NewValue(test, OpAnd, TBool, small, big), in)
	for i, s := range pre.Succs {
		if s == h4 {
			pre.Succs[i] = test
		}
	}
	test.Preds = []*Block{pre}
	test.Term, test.Cond, test.Succs = TermBranch, ok, []*Block{h4, join}
	h4.Preds[0] = test
	h4.Succs[1] = join
	join.Preds = []*Block{h4, test}
	join.Term, join.Succs = TermJump, []*Block{h}
	h.Preds[pi] = join
	for _, phi := range h.Phis() {
		q := phi.Args[pi] // h4's phi: from test, the value the loop starts with
		jp := f.NewPhi(join, phi.Type)
		jp.Args = []*Value{q, q.Args[0]}
		phi.Args[pi] = jp
	}
	return test, join
}

// checksAffine says whether every bounds check in loop l tests an index
// of the form c*i + (invariant), c a constant and i the counter iv: in the
// unrolled loop each copy's index is then the first's plus a constant,
// and LoopChecks versions them all on the loop's extremes. A check it
// could not version would stay in every copy, keeping the copies' loads
// apart (the assembler does not hoist a load over a branch), which is the
// cost of unrolling without its gain.
func checksAffine(l *Loop, iv *Value) bool {
	for b := range l.Blocks {
		if b.Term != TermBranch || (b.Succs[0].Term != TermTrap && b.Succs[1].Term != TermTrap) {
			continue
		}
		c := b.Cond
		if c.Op != OpLt || c.Args[0].Op != OpBitcast || c.Args[1].Op != OpBitcast ||
			!affineIn(l, iv, c.Args[0].Args[0]) || !invariantIn(l, c.Args[1].Args[0], 0) {
			return false
		}
	}
	return true
}

// affineIn says whether v is c*iv + (invariant in l) with c a constant.
func affineIn(l *Loop, iv, v *Value) bool {
	switch {
	case v == iv || invariantIn(l, v, 0):
		return true
	case v.Op == OpAdd || v.Op == OpSub:
		return affineIn(l, iv, v.Args[0]) && affineIn(l, iv, v.Args[1])
	case v.Op == OpMul || v.Op == OpShl:
		return affineIn(l, iv, v.Args[0]) && v.Args[1].Op == OpConst
	}
	return false
}
