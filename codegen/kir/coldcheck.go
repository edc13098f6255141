package kir

// RecomputeColdChecks gives each index check on a path that can only
// trap (the slow path CombineChecks builds, "checks, one by one") its own
// copy of its comparison, when the comparison was computed in another
// block. Earlier passes hoist a loop-invariant check's comparison out of
// the loop and AND it into the one branch the fast path takes; the slow
// path then branched on the hoisted result too, so every comparison of
// the run stayed live through the loop for a path that runs at most once
// (ptxas keeps such predicates in registers, P2R, for the whole loop:
// four in Rodinia's hotspot, three registers more than nvcc's). The copy
// compares the index and the length the check's trap reports, which that
// path keeps live anyway, so only the conjunction crosses the loop. The
// result is the same comparison of the same values: the path traps where
// and as before. It returns how many comparisons it copied.
func RecomputeColdChecks(f *Func) int {
	cold := trapOnlyBlocks(f)
	n := 0
	for _, b := range f.Blocks {
		if !cold[b] || b.Term != TermBranch || b.Cond.Block == b {
			continue
		}
		idx, length, ok := indexCheck(b)
		if !ok || b.Succs[1].Trap.Args != [2]*Value{idx, length} {
			continue
		}
		c := b.Cond
		b.Cond = f.NewValue(b, c.Op, c.Type, c.Args...)
		b.Cond.Pos = c.Pos
		n++
	}
	return n
}

// trapOnlyBlocks returns the reachable blocks every path from which ends
// in a trap: a trap, or a block whose successors all are such blocks.
func trapOnlyBlocks(f *Func) map[*Block]bool {
	cold := map[*Block]bool{}
	order := ReversePostorder(f)
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			b := order[i]
			if cold[b] {
				continue
			}
			all := b.Term == TermTrap
			if b.Term == TermJump || b.Term == TermBranch {
				all = true
				for _, s := range b.Succs {
					all = all && cold[s]
				}
			}
			if all {
				cold[b] = true
				changed = true
			}
		}
	}
	return cold
}
