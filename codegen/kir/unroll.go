package kir

import "sort"

// The full-unrolling heuristic. A loop is unrolled completely when its trip
// count is a compile-time constant of at most UnrollMaxTrips and the copies
// hold at most UnrollMaxValues instructions (constants and phis not
// counted). The budget is sized so that the loops of GPU kernels that
// nvcc unrolls by itself (a 16- or 32-step tile product, a 64-term Horner
// polynomial, a stencil's radius loop, the taps of a small filter) are
// unrolled, while a kernel never grows past a few thousand instructions:
// unrolled code costs instruction-cache misses and compile time, and gains
// nothing once the loop overhead and the index arithmetic are folded.
const (
	UnrollMaxTrips  = 128
	UnrollMaxValues = 1600
)

// Unroll fully unrolls loops whose trip count is a small constant (see
// UnrollMaxTrips): constant expressions of the induction variable then fold
// (a coefficient 1/float32(k+1) becomes an immediate), local arrays indexed
// by it become scalars (ScalarReplace), and bounds checks of constant
// indices fold away. Inner loops are unrolled before outer ones.
//
// A loop qualifies when it has one latch and one entry edge, its header
// ends in the loop's only exit test (other exits may only go to trap
// blocks), and the test compares an induction variable — a header phi
// starting at a constant and stepped by a constant addition, subtraction,
// multiplication or shift — with a
// constant. The trip count is found by running the test and the step on
// constants with the IR's exact integer semantics (wrap-around included).
// It returns how many loops it unrolled.
func Unroll(f *Func) int {
	n := 0
	failed := map[*Block]bool{}
	for {
		RemoveUnreachable(f)
		dom := Dominators(f)
		loops := NaturalLoops(f, dom)
		sort.SliceStable(loops, func(i, j int) bool { return len(loops[i].Blocks) < len(loops[j].Blocks) })
		done := false
		for _, l := range loops {
			if failed[l.Header] {
				continue
			}
			if unrollLoop(f, l) {
				n++
				done = true
				break
			}
			failed[l.Header] = true
		}
		if !done {
			return n
		}
	}
}

// NaturalLoops finds the natural loops of f, one per header (its back
// edges merged), in the order of f's blocks, with their exits; it is the
// part of Analyze that the optimizer and the structured emitters need.
func NaturalLoops(f *Func, dom *DomTree) []*Loop {
	byHeader := map[*Block]*Loop{}
	var loops []*Loop
	for _, b := range f.Blocks {
		for _, h := range b.Succs {
			if !dom.Dominates(h, b) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &Loop{Header: h, Blocks: map[*Block]bool{h: true}}
				byHeader[h] = l
				loops = append(loops, l)
			}
			l.Latches = append(l.Latches, b)
			// Blocks that reach the latch without passing the header.
			work := []*Block{b}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				if l.Blocks[x] {
					continue
				}
				l.Blocks[x] = true
				work = append(work, x.Preds...)
			}
		}
	}
	for _, l := range loops {
		seen := map[*Block]bool{}
		for _, x := range f.Blocks {
			if !l.Blocks[x] {
				continue
			}
			for _, y := range x.Succs {
				if !l.Blocks[y] && !seen[y] {
					seen[y] = true
					l.Exits = append(l.Exits, y)
				}
			}
		}
	}
	return loops
}

// tripCount returns the constant trip count of loop l, with the loop's
// preheader, latch, in-loop successor of the header and exit, or false.
func tripCount(l *Loop) (trips int, pre, latch, body, exit *Block, ok bool) {
	h := l.Header
	if len(l.Latches) != 1 || len(h.Preds) != 2 || h.Term != TermBranch {
		return
	}
	latch = l.Latches[0]
	if latch == h {
		return
	}
	pi, li := 0, 1
	if h.Preds[0] == latch {
		pi, li = 1, 0
	}
	pre = h.Preds[pi]
	if l.Blocks[pre] || h.Preds[li] != latch {
		return
	}
	contIfTrue := true
	switch {
	case l.Blocks[h.Succs[0]] && !l.Blocks[h.Succs[1]]:
		body, exit = h.Succs[0], h.Succs[1]
	case !l.Blocks[h.Succs[0]] && l.Blocks[h.Succs[1]]:
		body, exit = h.Succs[1], h.Succs[0]
		contIfTrue = false
	default:
		return
	}
	c := h.Cond
	if !c.Op.IsCompare() || c.Block != h {
		return
	}
	// iv op bound, or bound op iv.
	var iv, bound *Value
	ivFirst := true
	switch {
	case c.Args[0].Op == OpPhi && c.Args[0].Block == h && c.Args[1].Op == OpConst:
		iv, bound = c.Args[0], c.Args[1]
	case c.Args[1].Op == OpPhi && c.Args[1].Block == h && c.Args[0].Op == OpConst:
		iv, bound = c.Args[1], c.Args[0]
		ivFirst = false
	default:
		return
	}
	init, next := iv.Args[pi], iv.Args[li]
	if init.Op != OpConst || !iv.Type.Kind.IsInt() {
		return
	}
	// The step: iv+c, iv-c, iv*c, iv<<c or iv>>c (the doubling and halving
	// loops of scans and tree reductions), evaluated as the IR does.
	switch next.Op {
	case OpAdd, OpSub, OpMul, OpShl, OpShr:
	default:
		return
	}
	ivArg := 0
	switch {
	case next.Args[0] == iv && next.Args[1].Op == OpConst:
	case (next.Op == OpAdd || next.Op == OpMul) && next.Args[1] == iv && next.Args[0].Op == OpConst:
		ivArg = 1
	default:
		return
	}
	cur := &Value{Op: OpConst, Type: iv.Type}
	stepArgs := append([]*Value(nil), next.Args...)
	stepArgs[ivArg] = cur
	stepper := &Value{Op: next.Op, Type: next.Type, Args: stepArgs}
	k := iv.Type.Kind
	x := norm(k, init.Imm)
	for trips = 0; ; trips++ {
		var t bool
		if ivFirst {
			t = compareConst(c.Op, k, x, norm(k, bound.Imm))
		} else {
			t = compareConst(c.Op, k, norm(k, bound.Imm), x)
		}
		if t != contIfTrue {
			break
		}
		if trips >= UnrollMaxTrips {
			return
		}
		cur.Imm = x
		nx, ok := EvalConst(stepper)
		if !ok {
			return trips, nil, nil, nil, nil, false
		}
		x = nx
	}
	// Other exits may only be traps that nothing outside the loop reaches.
	for b := range l.Blocks {
		for _, s := range b.Succs {
			if l.Blocks[s] || (b == h && s == exit) {
				continue
			}
			if s.Term != TermTrap {
				return
			}
			for _, p := range s.Preds {
				if !l.Blocks[p] {
					return
				}
			}
		}
	}
	if exit.Term == TermTrap {
		for _, p := range exit.Preds {
			if p != h {
				return
			}
		}
	}
	for _, p := range exit.Preds {
		if l.Blocks[p] && p != h {
			return
		}
	}
	return trips, pre, latch, body, exit, true
}

func unrollLoop(f *Func, l *Loop) bool {
	trips, pre, latch, body, exit, ok := tripCount(l)
	if !ok {
		return false
	}
	h := l.Header
	region, order, size := loopRegion(f, l, exit)
	if trips*size > UnrollMaxValues {
		return false
	}
	pi := 0
	if h.Preds[0] == latch {
		pi = 1
	}
	li := 1 - pi

	var copies []*Block
	var prev map[*Value]*Value
	var prevLatch *Block
	// headerMap maps h's phis for the copy about to be made.
	headerMap := func() map[*Value]*Value {
		m := map[*Value]*Value{}
		for _, phi := range h.Phis() {
			if prev == nil {
				m[phi] = phi.Args[pi]
			} else {
				m[phi] = mapped(prev, phi.Args[li])
			}
		}
		return m
	}
	var heads []*Block // the header copy of each iteration, then the final one
	for k := 0; k < trips; k++ {
		m := headerMap()
		bm := copyIteration(f, order, h, body, pre, prevLatch, m, &copies)
		heads = append(heads, bm[h])
		prev, prevLatch = m, bm[latch]
	}
	// The final test: the header's non-phi values once more, then the exit.
	m := headerMap()
	final := &Block{Kind: BlockPlain, Comment: h.Comment, Term: TermJump}
	cloneNonPhis(f, h, final, m)
	final.Succs = []*Block{exit}
	if prevLatch != nil {
		final.Preds = []*Block{prevLatch}
		for i, s := range prevLatch.Succs {
			if s == nil {
				prevLatch.Succs[i] = final
			}
		}
	} else {
		final.Preds = []*Block{pre}
	}
	copies = append(copies, final)
	first := final
	if len(heads) > 0 {
		first = heads[0]
	}
	for i, s := range pre.Succs {
		if s == h {
			pre.Succs[i] = first
		}
	}
	for i, p := range exit.Preds {
		if p == h {
			exit.Preds[i] = final
		}
	}
	// Uses outside the loop see the values of the final test.
	var blocks []*Block
	for _, b := range f.Blocks {
		if b == h {
			blocks = append(blocks, copies...)
		}
		if region[b] {
			continue
		}
		blocks = append(blocks, b)
		for _, v := range b.Values {
			for j, a := range v.Args {
				v.Args[j] = mapped(m, a)
			}
		}
		remapControl(b, b, m)
	}
	for i, b := range blocks {
		b.Index = i
	}
	f.Blocks = blocks
	return true
}

// loopRegion returns the blocks an unroller copies per iteration of loop
// l, whose exit is exit: the loop and the trap blocks only it reaches,
// as a set and in f's order, with the count of their instructions
// (constants and phis not counted).
func loopRegion(f *Func, l *Loop, exit *Block) (region map[*Block]bool, order []*Block, size int) {
	region = map[*Block]bool{}
	for b := range l.Blocks {
		region[b] = true
		for _, s := range b.Succs {
			if s.Term == TermTrap && s != exit {
				region[s] = true
			}
		}
	}
	for _, b := range f.Blocks {
		if region[b] {
			order = append(order, b)
			for _, v := range b.Values {
				if v.Op != OpConst && v.Op != OpPhi {
					size++
				}
			}
		}
	}
	return region, order, size
}

// mapped is v's copy in m, or v itself when the copied region does not
// define it (a value from before the loop, a block outside the region).
func mapped[T comparable](m map[T]T, v T) T {
	if r, ok := m[v]; ok {
		return r
	}
	return v
}

// remapArgs gives cv, the copy of v, the copies of v's arguments.
func remapArgs(v, cv *Value, m map[*Value]*Value) {
	cv.Args = make([]*Value, len(v.Args))
	for j, a := range v.Args {
		cv.Args[j] = mapped(m, a)
	}
}

// remapControl points c, the copy of block b (or b itself), at the copies
// of b's branch condition and trap arguments.
func remapControl(b, c *Block, m map[*Value]*Value) {
	if b.Cond != nil {
		c.Cond = mapped(m, b.Cond)
	}
	for j, a := range b.Trap.Args {
		if a != nil {
			c.Trap.Args[j] = mapped(m, a)
		}
	}
}

// copyIteration appends to copies one copy of a loop's body, the blocks of
// order (in function order, header h first among them or not), for
// unrolling: h's phis are left out (m maps them already to the values this
// iteration reads), every other value is cloned and its operands remapped
// through m, the copy of h jumps straight to the copy of body, and edges
// back to h are left nil, to be set to the next iteration's header (or the
// loop's exit) by the caller. The copy of h is entered from prevLatch, the
// previous copy's latch, whose nil edges it takes, or from entry for the
// first copy. It returns the block map of the copy.
func copyIteration(f *Func, order []*Block, h, body, entry, prevLatch *Block, m map[*Value]*Value, copies *[]*Block) map[*Block]*Block {
	bm := map[*Block]*Block{}
	for _, b := range order {
		kind := b.Kind
		if b == h {
			kind = BlockPlain
		}
		c := &Block{Kind: kind, Comment: b.Comment, Term: b.Term, Trap: b.Trap}
		bm[b] = c
		*copies = append(*copies, c)
		for _, v := range b.Values {
			if b == h && v.Op == OpPhi {
				continue
			}
			c.Values = append(c.Values, cloneValue(f, c, v, m))
		}
	}
	for _, b := range order {
		c := bm[b]
		for _, v := range b.Values {
			if cv, ok := m[v]; ok && cv.Block == c {
				remapArgs(v, cv, m)
			}
		}
		remapControl(b, c, m)
		if b == h {
			c.Term, c.Cond = TermJump, nil
			c.Succs = []*Block{bm[body]}
			if prevLatch == nil {
				c.Preds = []*Block{entry}
			} else {
				c.Preds = []*Block{prevLatch}
			}
			continue
		}
		for _, p := range b.Preds {
			c.Preds = append(c.Preds, bm[p])
		}
		for _, s := range b.Succs {
			if s == h {
				c.Succs = append(c.Succs, nil) // the next header, set by the caller
			} else {
				c.Succs = append(c.Succs, bm[s])
			}
		}
	}
	if prevLatch != nil {
		for i, s := range prevLatch.Succs {
			if s == nil {
				prevLatch.Succs[i] = bm[h]
			}
		}
	}
	return bm
}

// cloneValue makes a copy of v in block b with the next ID of f, without
// operands (remapArgs sets them once every value of the copy exists), and
// maps v to it in m.
func cloneValue(f *Func, b *Block, v *Value, m map[*Value]*Value) *Value {
	c := &Value{ID: f.nextID, Op: v.Op, Type: v.Type, Imm: v.Imm, Index: v.Index, NoFuse: v.NoFuse, Block: b, Pos: v.Pos}
	f.nextID++
	m[v] = c
	return c
}

// cloneNonPhis copies the values of loop header h but its phis into block
// b, under m (which maps each phi to the value it stands for there): the
// header's test evaluated once more, on other values.
func cloneNonPhis(f *Func, h, b *Block, m map[*Value]*Value) {
	for _, v := range h.Values {
		if v.Op != OpPhi {
			b.Values = append(b.Values, cloneValue(f, b, v, m))
		}
	}
	for _, v := range h.Values {
		if v.Op != OpPhi {
			remapArgs(v, m[v], m)
		}
	}
}
