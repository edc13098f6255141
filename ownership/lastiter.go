package ownership

import (
	"github.com/gpukvet/gpukvet/internal/cmpop"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Loop-counter correlation. A loop `for i := a; i < n; i++` (or `for i :=
// range xs`) that frees a buffer under `if i == n-1` (or `i == last` with
// last := n-1, `i == len(xs)-1`, `i+1 == n`, constants) frees it on its last
// iteration only: the dataflow, which merges iterations, would otherwise see
// the freed buffer come round to the next iteration's uses (a false use
// after free or double free) and leave the loop still live (a false leak).
//
// The Free must sit in the block the test's true edge enters (no other
// condition before it), and the test must run on every iteration that goes
// round (its block dominates every back edge of the loop). Then:
//
//   - a Free there marks the buffer freedInLast; leaving that region for
//     the rest of the loop body turns it into freedLast: freed if this is
//     the last iteration. A use or Free after it in the same iteration is
//     reported (on the last iteration the buffer is freed);
//   - on the loop test's edge into the body, the previous iteration was not
//     the last: freedLast is dropped;
//   - on the loop test's exit edge, the iteration that came round was the
//     last: freedLast is freed. When the loop certainly runs once (constant
//     bounds, or a guard before it such as `if n < 1 { return }` or `if
//     len(xs) == 0 { return }`), the buffer is not live there any more
//     either; otherwise the path that skips the loop keeps it live.

// lastLoop is a counted loop with a last-iteration test.
type lastLoop struct {
	header     *ssa.BasicBlock // the block of the loop's test
	body, exit *ssa.BasicBlock // the test's successors
	entry      *ssa.BasicBlock // a rotated loop's first test, or nil
	region     *ssa.BasicBlock // the block the last-iteration test enters
	blocks     map[*ssa.BasicBlock]bool
	runsOnce   bool // the loop certainly runs at least once
}

// findLastLoops finds the counted loops with a last-iteration test. The
// loop's test `x < n` sits either in its header (for i := 0; i < n; i++,
// and range loops over slices, whose header increments first), or, in a
// rotated loop (range over an int), at the bottom of the body, with a copy
// of the test for the first iteration before the loop.
func (fa *funcAnalysis) findLastLoops() {
	fa.lastByRegion = nil
	fa.lastByHeader = nil
	if len(fa.res) == 0 {
		return
	}
	for _, l := range fa.fn.Blocks {
		ifi, ok := l.Instrs[len(l.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		x, n, ok := loopTest(ifi.Cond)
		if !ok {
			continue
		}
		h := l // the loop's header: the target of its back edges
		if !isHeader(l) {
			h = l.Succs[0]
			if !isHeader(h) || !h.Dominates(l) {
				continue
			}
		}
		var latches []*ssa.BasicBlock
		for _, p := range h.Preds {
			if h.Dominates(p) {
				latches = append(latches, p)
			}
		}
		if !l.Succs[0].Dominates(latches[0]) && l.Succs[0] != h {
			continue // the true edge does not stay in the loop
		}
		var cur, init ssa.Value // the counter in the body, and its first value
		var entry *ssa.BasicBlock
		if h == l {
			init, ok = counter(h, x)
			cur = x
		} else {
			cur, init, ok = rotatedCounter(h, l, x)
			if ok {
				entry = entryTest(h, l, init, n)
			}
		}
		if !ok {
			continue
		}
		blocks := loopBody(h, latches)
		for _, t := range fa.fn.Blocks {
			tif, ok := t.Instrs[len(t.Instrs)-1].(*ssa.If)
			if !ok || !blocks[t] || t == l {
				continue
			}
			k, ok := lastTest(tif.Cond, cur, n)
			if !ok {
				continue
			}
			s := t.Succs[k]
			if len(s.Preds) != 1 {
				continue
			}
			every := true
			for _, b := range latches {
				every = every && t.Dominates(b)
			}
			if !every {
				continue
			}
			ll := &lastLoop{header: l, body: l.Succs[0], exit: l.Succs[1], entry: entry, region: s, blocks: blocks,
				runsOnce: fa.runsOnce(h, init, n, l, entry)}
			if entry == nil && h != l {
				ll.runsOnce = false // the first test is not known: the loop may not run
			}
			if fa.lastByRegion == nil {
				fa.lastByRegion = map[*ssa.BasicBlock]*lastLoop{}
				fa.lastByHeader = map[*ssa.BasicBlock]*lastLoop{}
			}
			fa.lastByRegion[s] = ll
			fa.lastByHeader[l] = ll
		}
	}
}

// isHeader reports whether some predecessor of h is reached from h (a back
// edge).
func isHeader(h *ssa.BasicBlock) bool {
	for _, p := range h.Preds {
		if h.Dominates(p) {
			return true
		}
	}
	return false
}

// rotatedCounter matches the test x < n at the bottom of a rotated loop:
// x is p+1 for a φ p of the header h whose value from the test block l is x;
// p is the counter in the body, its value from outside the loop the first.
func rotatedCounter(h, l *ssa.BasicBlock, x ssa.Value) (cur, init ssa.Value, ok bool) {
	b, isBin := x.(*ssa.BinOp)
	if !isBin || b.Op != token.ADD || !isConstInt(b.Y, 1) {
		return nil, nil, false
	}
	p, isPhi := b.X.(*ssa.Phi)
	if !isPhi || p.Block() != h {
		return nil, nil, false
	}
	for i, e := range p.Edges {
		pred := h.Preds[i]
		switch {
		case pred == l:
			if e != x {
				return nil, nil, false
			}
		case h.Dominates(pred):
			return nil, nil, false // another back edge
		case init != nil && init != e:
			return nil, nil, false
		default:
			init = e
		}
	}
	return p, init, init != nil
}

// entryTest finds the copy of a rotated loop's test before it: a block
// testing init < n whose true edge enters the header h and whose false edge
// goes where the loop's own test exits.
func entryTest(h, l *ssa.BasicBlock, init, n ssa.Value) *ssa.BasicBlock {
	for _, e := range h.Preds {
		if h.Dominates(e) {
			continue
		}
		ifi, ok := e.Instrs[len(e.Instrs)-1].(*ssa.If)
		if !ok || e.Succs[0] != h || e.Succs[1] != l.Succs[1] {
			continue
		}
		if x, m, ok := loopTest(ifi.Cond); ok && sameVal(x, init, 0) && sameVal(m, n, 0) {
			return e
		}
	}
	return nil
}

// loopTest matches `x < n` (or `n > x`).
func loopTest(cond ssa.Value) (x, n ssa.Value, ok bool) {
	bin, isBin := cond.(*ssa.BinOp)
	if !isBin {
		return nil, nil, false
	}
	switch bin.Op {
	case token.LSS:
		return bin.X, bin.Y, true
	case token.GTR:
		return bin.Y, bin.X, true
	}
	return nil, nil, false
}

// counter reports whether x, tested in header h, goes up by one each time
// round the loop, and returns its first value: x is a φ of h whose values
// from inside the loop are x+1, or x is p+1 for such a φ p whose values
// from inside the loop are x itself (the form of a range loop).
func counter(h *ssa.BasicBlock, x ssa.Value) (init ssa.Value, ok bool) {
	plusOne := func(v, of ssa.Value) bool {
		b, ok := v.(*ssa.BinOp)
		return ok && b.Op == token.ADD && (b.X == of && isConstInt(b.Y, 1) || b.Y == of && isConstInt(b.X, 1))
	}
	phiInit := func(p *ssa.Phi, back func(ssa.Value) bool) ssa.Value {
		var in ssa.Value
		for i, e := range p.Edges {
			if h.Dominates(h.Preds[i]) {
				if !back(e) {
					return nil
				}
			} else if in != nil && in != e {
				return nil
			} else {
				in = e
			}
		}
		return in
	}
	if p, isPhi := x.(*ssa.Phi); isPhi && p.Block() == h {
		in := phiInit(p, func(e ssa.Value) bool { return plusOne(e, p) })
		return in, in != nil
	}
	if b, isBin := x.(*ssa.BinOp); isBin && b.Block() == h && b.Op == token.ADD && isConstInt(b.Y, 1) {
		if p, isPhi := b.X.(*ssa.Phi); isPhi && p.Block() == h {
			in := phiInit(p, func(e ssa.Value) bool { return e == x })
			if c, isConst := in.(*ssa.Const); isConst && c.Value != nil {
				return ssa.NewConst(constant.BinaryOp(c.Value, token.ADD, constant.MakeInt64(1)), c.Type()), true
			}
			return nil, in != nil // the first value is not a constant: unknown
		}
	}
	return nil, false
}

// lastTest matches a test that x is n-1 (x == n-1, n-1 == x, x+1 == n,
// constants; != with the branches swapped) and returns the successor index
// taken on the last iteration.
func lastTest(cond, x, n ssa.Value) (int, bool) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return 0, false
	}
	k := 0
	if bin.Op == token.NEQ {
		k = 1
	}
	for _, pair := range [][2]ssa.Value{{bin.X, bin.Y}, {bin.Y, bin.X}} {
		a, e := pair[0], pair[1]
		if a == x && isMinusOne(e, n) {
			return k, true
		}
		if s, ok := a.(*ssa.BinOp); ok && s.Op == token.ADD && s.X == x && isConstInt(s.Y, 1) && sameVal(e, n, 0) {
			return k, true
		}
	}
	return 0, false
}

// isMinusOne reports whether e is n-1.
func isMinusOne(e, n ssa.Value) bool {
	if b, ok := e.(*ssa.BinOp); ok && b.Op == token.SUB && isConstInt(b.Y, 1) && sameVal(b.X, n, 0) {
		return true
	}
	ce, ok1 := e.(*ssa.Const)
	cn, ok2 := n.(*ssa.Const)
	return ok1 && ok2 && ce.Value != nil && cn.Value != nil &&
		constant.Compare(constant.BinaryOp(cn.Value, token.SUB, constant.MakeInt64(1)), token.EQL, ce.Value)
}

func isConstInt(v ssa.Value, k int64) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Compare(c.Value, token.EQL, constant.MakeInt64(k))
}

// sameVal reports whether a and b have the same value wherever the loop
// evaluates them: the same SSA value, the same constant, the same operator
// on such values, or len of the same value.
func sameVal(a, b ssa.Value, depth int) bool {
	if a == b {
		return true
	}
	if depth > 4 {
		return false
	}
	switch a := a.(type) {
	case *ssa.Const:
		b, ok := b.(*ssa.Const)
		return ok && a.Value != nil && b.Value != nil && constant.Compare(a.Value, token.EQL, b.Value) && types.Identical(a.Type(), b.Type())
	case *ssa.BinOp:
		b, ok := b.(*ssa.BinOp)
		return ok && a.Op == b.Op && sameVal(a.X, b.X, depth+1) && sameVal(a.Y, b.Y, depth+1)
	case *ssa.Convert:
		b, ok := b.(*ssa.Convert)
		return ok && types.Identical(a.Type(), b.Type()) && sameVal(a.X, b.X, depth+1)
	case *ssa.Call:
		b, ok := b.(*ssa.Call)
		if !ok {
			return false
		}
		ba, ok1 := a.Call.Value.(*ssa.Builtin)
		bb, ok2 := b.Call.Value.(*ssa.Builtin)
		return ok1 && ok2 && ba.Name() == "len" && bb.Name() == "len" && len(a.Call.Args) == 1 && len(b.Call.Args) == 1 &&
			isStableSlice(a.Call.Args[0]) && a.Call.Args[0] == b.Call.Args[0]
	}
	return false
}

// isStableSlice: a parameter or free variable that the function cannot
// reassign (SSA values are assigned once), so its len is the same
// everywhere.
func isStableSlice(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	}
	return false
}

// loopBody returns the blocks of the natural loop of header h.
func loopBody(h *ssa.BasicBlock, latches []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	body := map[*ssa.BasicBlock]bool{h: true}
	work := append([]*ssa.BasicBlock(nil), latches...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if body[b] {
			continue
		}
		body[b] = true
		work = append(work, b.Preds...)
	}
	return body
}

// runsOnce reports whether the loop's first test init < n certainly holds:
// both constants, or init is 0 (or 1) and a test that n is at least 1 (as
// `n < 1`, `n <= 0`, `len(xs) == 0` on its false edge, or their opposites on
// the true edge) lies on every path to the loop.
func (fa *funcAnalysis) runsOnce(h *ssa.BasicBlock, init, n ssa.Value, tests ...*ssa.BasicBlock) bool {
	ci, ok := init.(*ssa.Const)
	if !ok || ci.Value == nil || ci.Value.Kind() != constant.Int {
		return false
	}
	if cn, ok := n.(*ssa.Const); ok && cn.Value != nil {
		return constant.Compare(ci.Value, token.LSS, cn.Value)
	}
	if !isConstInt(init, 0) {
		return false
	}
	_, isLen := n.(*ssa.Call)
	for _, g := range fa.fn.Blocks {
		gif, ok := g.Instrs[len(g.Instrs)-1].(*ssa.If)
		if !ok || g == h || slices.Contains(tests, g) {
			continue // the loop's own tests prove nothing
		}
		bin, ok := gif.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		// Normalise to n OP c.
		op, x, c := bin.Op, bin.X, bin.Y
		if !sameVal(x, n, 0) {
			op, x, c = cmpop.Swap(op), bin.Y, bin.X
		}
		cc, isConst := c.(*ssa.Const)
		if !sameVal(x, n, 0) || !isConst || cc.Value == nil || cc.Value.Kind() != constant.Int {
			continue
		}
		k, exact := constant.Int64Val(cc.Value)
		if !exact {
			continue
		}
		// atLeastOne[e] : on successor e, n >= 1.
		var onTrue, onFalse bool
		switch op {
		case token.LSS: // n < k: false edge n >= k
			onFalse = k >= 1
		case token.LEQ: // n <= k: false edge n > k
			onFalse = k >= 0
		case token.GTR:
			onTrue = k >= 0
		case token.GEQ:
			onTrue = k >= 1
		case token.EQL: // n == 0 for a length: false edge n >= 1
			onFalse = k == 0 && isLen
		case token.NEQ:
			onTrue = k == 0 && isLen
		}
		if onTrue && len(g.Succs[0].Preds) == 1 && g.Succs[0].Dominates(h) ||
			onFalse && len(g.Succs[1].Preds) == 1 && g.Succs[1].Dominates(h) {
			return true
		}
	}
	return false
}

// lastEdges applies the loop-counter facts to the states leaving block b.
func (fa *funcAnalysis) lastEdges(b *ssa.BasicBlock, edges []edge) {
	if fa.lastByRegion == nil {
		return
	}
	for _, l := range fa.lastByRegion {
		if !l.region.Dominates(b) {
			continue
		}
		for _, e := range edges {
			if l.blocks[e.to] && !l.region.Dominates(e.to) {
				for id := range e.st {
					if s := &e.st[id]; s.bits&freedInLast != 0 {
						s.bits = s.bits&^(freed|freedInLast) | freedLast
					}
				}
			}
		}
	}
	if l := fa.lastByHeader[b]; l != nil {
		for _, e := range edges {
			for id := range e.st {
				s := &e.st[id]
				if s.bits&freedLast == 0 {
					continue
				}
				switch e.to {
				case l.body:
					s.bits &^= freedLast
				case l.exit:
					s.bits = s.bits&^freedLast | freed
					if l.runsOnce {
						s.bits &^= live
					}
					if s.bits&deferFreed != 0 && !fa.res[id].coll && s.bits&freedTwice == 0 {
						// Freed on the last iteration, and again by the
						// deferred Free at the return.
						s.bits |= freedTwice
						s.twicePos, s.twiceBy = s.freePos, s.freeBy
					}
				}
			}
		}
	}
}

// overwrites reports whether the state on the edge from b to its
// successor to replaces the successor's entry state rather than joining
// it: the exit of a loop that certainly runs once, reached only from its
// header. The state there is what the last iteration leaves, which the
// dataflow learns only once the header's state is complete; the states
// seen before (the path that skips the loop) must not stay behind.
func (fa *funcAnalysis) overwrites(b, to *ssa.BasicBlock) bool {
	l := fa.lastByHeader[b]
	if l == nil || !l.runsOnce || to != l.exit {
		return false
	}
	for _, p := range to.Preds {
		if p != b && p != l.entry {
			return false
		}
	}
	return true
}

// infeasible reports whether the edge from b to to cannot be taken: the
// exit edge of a rotated loop's first test when the loop certainly runs.
func (fa *funcAnalysis) infeasible(b, to *ssa.BasicBlock) bool {
	for _, l := range fa.lastByHeader {
		if l.entry == b && l.runsOnce && to == l.exit {
			return true
		}
	}
	return false
}

// sameBits reports whether two states have the same bits.
func sameBits(a, b flowState) bool {
	for i := range a {
		if a[i].bits != b[i].bits {
			return false
		}
	}
	return true
}

// inLastRegion reports whether a Free at instr is in a block entered only
// on a loop's last iteration.
func (fa *funcAnalysis) inLastRegion(instr ssa.Instruction) bool {
	return instr != nil && fa.lastByRegion[instr.Block()] != nil
}
