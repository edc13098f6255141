package kir

import "github.com/gpukvet/gpukvet/internal/gpuabi"

// CombineChecks turns a run of bounds checks (what ChecksFirst leaves:
// blocks each holding only what one check needs, ending in the check)
// into one branch on the conjunction of their conditions. The conditions
// and what they are computed from move into the first block of the run,
// which branches to the code after the last check when all hold, and
// otherwise to the original checks, in order, which then trap at the
// first one that fails with the index and length Go reports; that path
// can never pass them all, so its end is an unreachable trap. On the fast
// path a stencil's six checks cost six comparisons and one branch.
//
// Only pure operations that cannot fault move (no loads, no integer
// division): they are computed a little earlier than before, on the
// same path. It returns how many checks it folded into another.
func CombineChecks(f *Func) int {
	n := 0
	for _, b := range ReversePostorder(f) {
		if !isCheck(b) {
			continue
		}
		// Skip b if it continues a run that starts earlier.
		if len(b.Preds) == 1 && b.Preds[0] != b && isCheck(b.Preds[0]) && b.Preds[0].Succs[0] == b && movable(b) {
			continue
		}
		run := []*Block{b}
		for {
			last := run[len(run)-1]
			next := last.Succs[0]
			if len(next.Preds) != 1 || !isCheck(next) || !movable(next) || next == b {
				break
			}
			run = append(run, next)
		}
		if len(run) < 2 {
			continue
		}
		final := run[len(run)-1].Succs[0]
		if final == b || len(final.Preds) == 0 {
			continue
		}
		// Move the later checks' values into b and AND the conditions,
		// each a test a variant may assume where launch facts imply it.
		all := launchFact(b.Cond)
		for _, c := range run[1:] {
			launchFact(c.Cond)
			for _, v := range c.Values {
				v.Block = b
			}
			b.Values = append(b.Values, c.Values...)
			c.Values = nil
			and := &Value{ID: f.nextID, Op: OpAnd, Type: TBool, Args: []*Value{all, c.Cond}, Block: b}
			f.nextID++
			b.Values = append(b.Values, and)
			all = and
		}
		// The slow path: b's own check in a block of its own, then the rest.
		first := &Block{Index: len(f.Blocks), Kind: BlockPlain, Comment: "checks, one by one",
			Term: TermBranch, Cond: b.Cond, Succs: []*Block{b.Succs[0], b.Succs[1]}, Preds: []*Block{b}}
		f.Blocks = append(f.Blocks, first)
		for _, s := range first.Succs {
			for i, p := range s.Preds {
				if p == b {
					s.Preds[i] = first
				}
			}
		}
		last := run[len(run)-1]
		trap := last.Succs[1]
		never := &Block{Index: len(f.Blocks), Kind: BlockPlain, Comment: "all checks passed on the slow path: unreachable",
			Term: TermTrap, Trap: Trap{Code: gpuabi.TrapUnreachable, Pos: trap.Trap.Pos}, Preds: []*Block{last}}
		f.Blocks = append(f.Blocks, never)
		last.Succs[0] = never
		for i, p := range final.Preds {
			if p == last {
				final.Preds[i] = b
			}
		}
		b.Cond = all
		b.Succs = []*Block{final, first}
		n += len(run) - 1
	}
	return n
}

// isCheck reports whether b ends in a check: a branch whose second arm
// traps.
func isCheck(b *Block) bool {
	return b.Term == TermBranch && len(b.Succs) == 2 && b.Succs[1].Term == TermTrap && b.Succs[0] != b.Succs[1]
}

// conjunction builds, at the end of block b, the conjunction of the tests
// it is given, in order: the test a versioning pass branches on.
type conjunction struct {
	f   *Func
	b   *Block
	all *Value // nil until the first test
}

// and adds test t.
func (c *conjunction) and(t *Value) {
	if c.all == nil {
		c.all = t
	} else {
		c.all = c.f.NewValue(c.b, OpAnd, TBool, c.all, t)
	}
}

// movable reports whether every value of check block c may be computed
// earlier: pure, no load, no integer division, no phi.
func movable(c *Block) bool {
	for _, v := range c.Values {
		switch {
		case v.Op == OpPhi || v.Op == OpLoad || v.Op == OpLocal || !pure(v):
			return false
		case (v.Op == OpDiv || v.Op == OpRem) && !v.Type.Kind.IsFloat():
			return false
		}
	}
	return true
}

// FuseConditions turns the branches of a short-circuit condition,
// `if a && b { ... }`, into one branch on a&b when b is cheap: the block
// testing b has no other predecessor, holds at most fuseMaxValues pure
// operations that cannot fault, and leaves to the same block as the test
// of a when false. The operations of b then run also when a is false,
// which costs a few ALU instructions and saves a branch (what nvcc does
// with such conditions; the GPU predicates them). It returns how many
// branches it removed.
func FuseConditions(f *Func) int {
	const fuseMaxValues = 6
	n := 0
	for changed := true; changed; {
		changed = false
		// Dominators first, and each block absorbs its whole chain before
		// the next: the bound is on each condition's own block, so a
		// chain `a && b && c && ...` of cheap tests becomes one branch
		// whatever order its blocks were created in (a later block that
		// absorbed its successors first would exceed the bound and leave
		// the chain split in two, one more exit and the second half's
		// special-register reads serialized behind it).
		for _, a := range ReversePostorder(f) {
			for a.Term == TermBranch && len(a.Succs) == 2 {
				b, d := a.Succs[0], a.Succs[1]
				if b == a || b == d || len(b.Preds) != 1 || b.Term != TermBranch || b.Succs[1] != d || b.Succs[0] == d ||
					d.Term == TermTrap || len(b.Values) > fuseMaxValues || !movable(b) {
					break
				}
				// d's phis must see the same value from a and from b.
				ia, ib := -1, -1
				for i, p := range d.Preds {
					if p == a && ia < 0 {
						ia = i
					}
					if p == b && ib < 0 {
						ib = i
					}
				}
				same := true
				for _, phi := range d.Phis() {
					if phi.Args[ia] != phi.Args[ib] {
						same = false
					}
				}
				if !same {
					break
				}
				for _, v := range b.Values {
					v.Block = a
				}
				a.Values = append(a.Values, b.Values...)
				and := &Value{ID: f.nextID, Op: OpAnd, Type: TBool, Args: []*Value{a.Cond, b.Cond}, Block: a}
				f.nextID++
				a.Values = append(a.Values, and)
				a.Cond = and
				c := b.Succs[0]
				a.Succs = []*Block{c, d}
				for i, p := range c.Preds {
					if p == b {
						c.Preds[i] = a
					}
				}
				d.Preds = append(d.Preds[:ib:ib], d.Preds[ib+1:]...)
				for _, phi := range d.Phis() {
					phi.Args = append(phi.Args[:ib:ib], phi.Args[ib+1:]...)
				}
				b.Values, b.Preds, b.Succs, b.Term, b.Cond = nil, nil, nil, TermReturn, nil
				n++
				changed = true
			}
		}
		if changed {
			RemoveUnreachable(f)
		}
	}
	return n
}
