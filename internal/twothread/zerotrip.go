package twothread

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A loop whose every iteration reaches a barrier, entered with a counter
// that makes its condition true (for j := k >> 1; j > 0; j >>= 1 with
// k ≥ 2), runs its first iteration up to a barrier. So the edge into its
// header from outside the loop leads to no barrier-free cycle: a path
// around an outer loop that skips the inner one is not a run. Without this
// the inner counter of a nested barrier loop (bitonic sort in shared
// memory) counted as different per thread.

type edge struct{ from, to *node }

// entrySkips returns the entry edges of such loops (computed once).
func (k *Kernel) entrySkips() map[edge]bool {
	if k.skips != nil {
		return k.skips
	}
	k.skips = map[edge]bool{}
	frames := map[*frame]bool{}
	for _, n := range k.g.nodes {
		frames[n.fr] = true
	}
	for fr := range frames {
		for _, h := range fr.fn.Blocks {
			k.addEntrySkips(fr, h)
		}
	}
	return k.skips
}

func (k *Kernel) addEntrySkips(fr *frame, h *ssa.BasicBlock) {
	if len(h.Instrs) == 0 || len(h.Succs) != 2 {
		return
	}
	iff, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If)
	if !ok {
		return
	}
	var back, entry []int
	for i, p := range h.Preds {
		if h.Dominates(p) {
			back = append(back, i)
		} else {
			entry = append(entry, i)
		}
	}
	body := h.Succs[0]
	if len(back) == 0 || len(entry) == 0 || !h.Dominates(body) || body == h {
		return
	}
	// Every path from the body back to the header, or out of the loop
	// (a break, a return), passes a barrier.
	start := fr.first[body]
	if start == nil || escapesNoBarrier(start, fr, h) {
		return
	}
	for _, i := range back {
		if fr.last[h.Preds[i]] == nil {
			return
		}
	}
	for _, i := range entry {
		if condTrueAt(iff.Cond, h, i) {
			from, to := fr.last[h.Preds[i]], fr.first[h]
			if from != nil && to != nil {
				k.skips[edge{from, to}] = true
			}
		}
	}
}

// escapesNoBarrier reports whether, from node from in the loop headed by
// h (of frame fr), a path through no barrier reaches h again or leaves the
// loop: a node of fr whose block h does not dominate, or the end of fr.
func escapesNoBarrier(from *node, fr *frame, h *ssa.BasicBlock) bool {
	seen := map[*node]bool{}
	work := []*node{from}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[n] || n.barrier != nil {
			continue
		}
		seen[n] = true
		b := blockIn(n, fr)
		if b == nil || b == h || !h.Dominates(b) {
			return true
		}
		work = append(work, n.succs...)
	}
	return false
}

// blockIn returns the block of frame fr that holds node n: its own block,
// or the block of the call it is inlined under; nil when n is not under fr.
func blockIn(n *node, fr *frame) *ssa.BasicBlock {
	b, f := n.block, n.fr
	for f != fr {
		if f == nil || f.node == nil {
			return nil
		}
		b, f = f.node.block, f.parent
	}
	return b
}

// condTrueAt reports whether cond, a comparison of a phi of h with a
// constant, holds for the phi's incoming value on edge i.
func condTrueAt(cond ssa.Value, h *ssa.BasicBlock, i int) bool {
	b, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	x, y, op := b.X, b.Y, b.Op
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
		op = map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS,
			token.LEQ: token.GEQ, token.GEQ: token.LEQ}[op]
	}
	phi, ok := x.(*ssa.Phi)
	c, ok2 := y.(*ssa.Const)
	if !ok || !ok2 || phi.Block() != h || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	cv, exact := constant.Int64Val(c.Value)
	if !exact {
		return false
	}
	v := phi.Edges[i]
	switch op {
	case token.GTR:
		lo, ok := lowerBound(v, 0)
		return ok && lo > cv
	case token.GEQ:
		lo, ok := lowerBound(v, 0)
		return ok && lo >= cv
	case token.LSS:
		hi, ok := upperBound(v, 0)
		return ok && hi < cv
	case token.LEQ:
		hi, ok := upperBound(v, 0)
		return ok && hi <= cv
	}
	return false
}

func constOf(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// lowerBound bounds integer v from below by its structure: constants,
// x >> c, x + c, and loop counters that start at a bound and never
// decrease (x <<= c, x *= c ≥ 1, x += c ≥ 0 from a non-negative start).
func lowerBound(v ssa.Value, depth int) (int64, bool) {
	if depth > 8 {
		return 0, false
	}
	if c, ok := constOf(v); ok {
		return c, true
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		c, ok := constOf(v.Y)
		if !ok {
			return 0, false
		}
		lo, ok := lowerBound(v.X, depth+1)
		if !ok {
			return 0, false
		}
		switch {
		case v.Op == token.SHR && lo >= 0 && c >= 0 && c < 63:
			return lo >> c, true
		case v.Op == token.ADD && c >= 0:
			return lo, true
		case v.Op == token.SHL && lo >= 0 && c >= 0 && c < 32:
			return lo, true
		case v.Op == token.MUL && lo >= 0 && c >= 1:
			return lo, true
		}
	case *ssa.Phi:
		return phiBound(v, depth, lowerBound, func(op token.Token, c int64) bool {
			return op == token.SHL && c >= 0 || op == token.MUL && c >= 1 || op == token.ADD && c >= 0
		}, false)
	}
	return 0, false
}

// upperBound bounds integer v from above: constants, and loop counters that
// start at a bound and never increase (x >>= c, x /= c ≥ 1, x -= c ≥ 0 from
// a non-negative start).
func upperBound(v ssa.Value, depth int) (int64, bool) {
	if depth > 8 {
		return 0, false
	}
	if c, ok := constOf(v); ok {
		return c, true
	}
	if phi, ok := v.(*ssa.Phi); ok {
		return phiBound(phi, depth, upperBound, func(op token.Token, c int64) bool {
			return op == token.SHR && c >= 0 || op == token.QUO && c >= 1 || op == token.SUB && c >= 0
		}, true)
	}
	return 0, false
}

// phiBound bounds a loop counter by its entry values when every update
// is monotone in the bound's direction.
func phiBound(phi *ssa.Phi, depth int, bound func(ssa.Value, int) (int64, bool), monotone func(token.Token, int64) bool, upper bool) (int64, bool) {
	h := phi.Block()
	var res int64
	have := false
	for i, e := range phi.Edges {
		if h.Dominates(h.Preds[i]) {
			b, ok := e.(*ssa.BinOp)
			if !ok || b.X != phi {
				return 0, false
			}
			c, ok := constOf(b.Y)
			if !ok || !monotone(b.Op, c) {
				return 0, false
			}
			continue
		}
		x, ok := bound(e, depth+1)
		if !ok {
			return 0, false
		}
		if upper {
			// x >>= c and x /= c only shrink non-negative values.
			lo, ok := lowerBound(e, depth+1)
			if !ok || lo < 0 {
				return 0, false
			}
		} else if x < 0 {
			// x <<= c and x *= c only grow non-negative values.
			return 0, false
		}
		if !have || (!upper && x < res) || (upper && x > res) {
			res, have = x, true
		}
	}
	return res, have
}

// reachesWithinSkip is reachesWithin from the successors of src that does
// not take the edges of entrySkips.
func (k *Kernel) reachesWithinSkip(r []bool, src, to *node) bool {
	skips := k.entrySkips()
	seen := make([]bool, len(k.g.nodes))
	type step struct{ prev, n *node }
	var work []step
	for _, n := range src.succs {
		work = append(work, step{src, n})
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		n := s.n
		if !r[n.id] || seen[n.id] || (s.prev != nil && skips[edge{s.prev, n}]) {
			continue
		}
		if n == to {
			return true
		}
		seen[n.id] = true
		for _, m := range n.succs {
			work = append(work, step{n, m})
		}
	}
	return false
}
