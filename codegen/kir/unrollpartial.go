package kir

// partialFactors are the factors UnrollPartial tries, largest first.
var partialFactors = []int{8, 4, 2}

// UnrollPartial unrolls by a factor the innermost loops with a constant
// trip count that Unroll left because their copies would not fit its
// budget when it ran: a loop whose body was a fully unrolled inner loop
// over a local array, its element loads and stores and the checks of
// their constant indices, which ScalarReplace and EliminateBoundsChecks
// have since reduced to a few instructions per step (sgemm's
// `for j := 0; j < 8; j++ { av := a[..]; for kk := range 16 { cr[kk] += av*bs[j][kk] } }`).
// Such a loop issues one global load per step and waits for it before
// its arithmetic; with the body copied the copies' loads issue together,
// as nvcc's partial unrolling of the same loop (by 2 there) does.
//
// The factor is the largest of partialFactors that divides the trip
// count, is below it, and keeps the copies within the budget the runtime
// unroller gives its copies (UnrollFactor*UnrollBodyValues instructions).
// The loop's test runs once per group of copies: the trip count is a
// multiple of the factor, so the tests skipped inside a group, of
// iterations below the trip count, were true, and every copy runs exactly
// when the original loop would run that iteration, in the same order.
// Loops the full unroller could not count are left. It returns how many
// loops it unrolled.
func UnrollPartial(f *Func) int {
	n := 0
	for _, l := range innermostLoops(NaturalLoops(f, Dominators(f))) {
		if unrollPartially(f, l) {
			n++
		}
	}
	return n
}

// innermostLoops keeps the loops of loops that hold no other loop's
// header.
func innermostLoops(loops []*Loop) []*Loop {
	headers := map[*Block]bool{}
	for _, l := range loops {
		headers[l.Header] = true
	}
	var inner []*Loop
	for _, l := range loops {
		nested := false
		for b := range l.Blocks {
			nested = nested || b != l.Header && headers[b]
		}
		if !nested {
			inner = append(inner, l)
		}
	}
	return inner
}

// partialFactor returns the factor to unroll a loop of trips iterations
// and size instructions per iteration by, or 0 for none.
func partialFactor(trips, size int) int {
	for _, k := range partialFactors {
		if k < trips && trips%k == 0 && k*size <= UnrollFactor*UnrollBodyValues {
			return k
		}
	}
	return 0
}

// unrollPartially unrolls loop l by partialFactor, keeping its blocks as
// the first copy and chaining the others after its latch; the last copy's
// latch closes the loop.
func unrollPartially(f *Func, l *Loop) bool {
	trips, _, latch, body, exit, ok := tripCount(l)
	if !ok {
		return false
	}
	h := l.Header
	_, order, size := loopRegion(f, l, exit)
	k := partialFactor(trips, size)
	if k == 0 {
		return false
	}
	li := 0
	if h.Preds[1] == latch {
		li = 1
	}
	// The latch's edge back to h becomes the next copy's entry.
	for i, s := range latch.Succs {
		if s == h {
			latch.Succs[i] = nil
		}
	}
	var copies []*Block
	var prev map[*Value]*Value
	prevLatch := latch
	for it := 1; it < k; it++ {
		m := map[*Value]*Value{}
		for _, phi := range h.Phis() {
			m[phi] = mapped(prev, phi.Args[li])
		}
		bm := copyIteration(f, order, h, body, nil, prevLatch, m, &copies)
		prev, prevLatch = m, bm[latch]
	}
	for i, s := range prevLatch.Succs {
		if s == nil {
			prevLatch.Succs[i] = h
		}
	}
	h.Preds[li] = prevLatch
	for _, phi := range h.Phis() {
		if next := groupStep(f, phi, phi.Args[li], k, prevLatch, phi); next != nil {
			phi.Args[li] = next
		} else {
			phi.Args[li] = mapped(prev, phi.Args[li])
		}
	}
	var blocks []*Block
	for _, b := range f.Blocks {
		blocks = append(blocks, b)
		if b == latch {
			blocks = append(blocks, copies...)
		}
	}
	for i, b := range blocks {
		b.Index = i
	}
	f.Blocks = blocks
	return true
}

// groupStep returns, for a header phi stepped by a constant (next = phi
// op c, with op +, -, *, << or >>, the counters of the loops Unroll
// counts), the step of a group of k copies as one operation at the end
// of latch on x, the value the group starts from (phi itself, or its copy
// heading a loop of the copies): x + k*c, x * c^k, x >> k*c, ..., so that the passes
// that recognize counted loops (LoopChecks, VersionChecks, PollLoops)
// still see one. Each is exact against the chain of k steps it replaces:
// additions and products wrap around alike, and shifts by a count of the
// width or more give what shifting further does. It returns nil for any
// other phi.
func groupStep(f *Func, phi, next *Value, k int, latch *Block, x *Value) *Value {
	if !phi.Type.Kind.IsInt() || len(next.Args) != 2 {
		return nil
	}
	c := next.Args[1]
	if next.Args[0] != phi {
		c = next.Args[0]
		if next.Args[1] != phi || (next.Op != OpAdd && next.Op != OpMul) {
			return nil
		}
	}
	step, ok := constBits(c)
	if !ok {
		return nil
	}
	var group uint64
	switch next.Op {
	case OpAdd, OpSub:
		group = norm(phi.Type.Kind, step*uint64(k))
	case OpMul:
		group = 1
		for range k {
			group = norm(phi.Type.Kind, group*step)
		}
	case OpShl, OpShr:
		bits := uint64(phi.Type.Kind.Bits())
		group = min(min(step, bits)*uint64(k), bits)
	default:
		return nil
	}
	gc := f.NewConst(latch, c.Type, norm(c.Type.Kind, group))
	return f.NewValue(latch, next.Op, phi.Type, x, gc)
}
