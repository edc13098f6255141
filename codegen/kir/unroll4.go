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
// wrap: value ranges must show that n and step are far below 2^62 (a
// slice length, a grid-wide stride). Loops containing a barrier are left
// alone (the unrolled test could split a block's threads between the two
// loops), as are loops with other exits than the test and traps.
// It returns how many loops it unrolled.
func UnrollRuntime(f *Func) int {
	n := 0
	dom := Dominators(f)
	loops := NaturalLoops(f, dom)
	headers := map[*Block]bool{}
	for _, l := range loops {
		headers[l.Header] = true
	}
	p := newProver(f, dom)
	var todo []*Loop
	for _, l := range loops {
		inner := true
		for b := range l.Blocks {
			if b != l.Header && headers[b] {
				inner = false
			}
		}
		if inner && runtimeUnrollable(p, l) {
			todo = append(todo, l)
		}
	}
	for _, l := range todo {
		unrollRuntime(f, l)
		n++
	}
	if n > 0 {
		RemoveUnreachable(f)
		DeadCode(f)
	}
	return n
}

// runtimeUnrollable checks the shape UnrollRuntime needs.
func runtimeUnrollable(p *prover, l *Loop) bool {
	h := l.Header
	if len(l.Latches) != 1 || len(h.Preds) != 2 || h.Term != TermBranch || l.Latches[0] == h {
		return false
	}
	latch := l.Latches[0]
	pi := 0
	if h.Preds[0] == latch {
		pi = 1
	}
	pre := h.Preds[pi]
	if l.Blocks[pre] || h.Preds[1-pi] != latch || !l.Blocks[h.Succs[0]] || l.Blocks[h.Succs[1]] {
		return false
	}
	c := h.Cond
	if c.Op != OpLt || c.Block != h || c.Args[0].Op != OpPhi || c.Args[0].Block != h || c.Args[0].Type != TI64 {
		return false
	}
	iv, bound := c.Args[0], c.Args[1]
	next := iv.Args[1-pi]
	if l.Blocks[bound.Block] || next.Op != OpAdd || next.Args[0] != iv || l.Blocks[next.Args[1].Block] {
		return false
	}
	step := next.Args[1]
	const far = int64(1) << 58
	if r := p.rng(step, pre); r.lo < 0 || r.hi > far {
		return false
	}
	if r := p.rng(bound, pre); r.hi > far {
		return false
	}
	size := 0
	for b := range l.Blocks {
		for _, v := range b.Values {
			if v.Op == OpBarrier {
				return false
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
				return false
			}
			for _, q := range s.Preds {
				if !l.Blocks[q] {
					return false
				}
			}
		}
	}
	return size <= UnrollBodyValues
}

func unrollRuntime(f *Func, l *Loop) {
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

	newValue := func(b *Block, op Op, t Type, args ...*Value) *Value {
		v := &Value{ID: f.nextID, Op: op, Type: t, Args: args, Block: b}
		f.nextID++
		b.Values = append(b.Values, v)
		return v
	}
	// In the preheader: (UnrollFactor-1)*step.
	k := newValue(pre, OpConst, TI64)
	k.Imm = UnrollFactor - 1
	span := newValue(pre, OpMul, TI64, step, k)

	// The new header: phis for h's phis, the test i + span < n.
	h4 := &Block{Kind: BlockLoopHeader, Comment: h.Comment + " (unrolled)"}
	phi4 := map[*Value]*Value{}
	for _, phi := range h.Phis() {
		q := &Value{ID: f.nextID, Op: OpPhi, Type: phi.Type, Block: h4}
		f.nextID++
		h4.Values = append(h4.Values, q)
		phi4[phi] = q
	}
	last := newValue(h4, OpAdd, TI64, phi4[iv], span)
	cond := newValue(h4, OpLt, TBool, last, bound)

	region := map[*Block]bool{}
	for b := range l.Blocks {
		region[b] = true
		for _, s := range b.Succs {
			if s.Term == TermTrap {
				region[s] = true
			}
		}
	}
	var order []*Block
	for _, b := range f.Blocks {
		if region[b] {
			order = append(order, b)
		}
	}
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
		q.Args = []*Value{phi.Args[pi], mapped(prev, phi.Args[li])}
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
	var blocks []*Block
	for _, b := range f.Blocks {
		if b == h {
			blocks = append(blocks, h4)
			blocks = append(blocks, copies...)
		}
		blocks = append(blocks, b)
	}
	for i, b := range blocks {
		b.Index = i
	}
	f.Blocks = blocks
}
