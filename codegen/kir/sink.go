package kir

// ChecksFirst hoists the bounds (and division) checks of a straight-line
// run of code above the loads and arithmetic between them. The lowering
// emits each check just before its access, so a stencil's five loads sit
// in five blocks separated by check branches, each followed by the
// arithmetic that consumes it; the GPU then waits for every load before
// the next check (the SASS scheduler does not move instructions across
// branches), one memory latency per load where nvcc pays one for all.
// After this pass the checks come first, each in a block holding only
// what its comparison needs, and the loads and arithmetic follow them
// together in the block after the last check, where they issue back to
// back.
//
// It does so by sinking: every value of a block ending in a check that
// the check does not need is moved into the block the passed check leads
// to, when that block has no other predecessor. Values move only forward
// past checks, never across a store, an atomic or a barrier (they stay
// after the last such effect of their block, and effects themselves never
// move), so a trap still happens at the first failing check in program
// order, with every effect before it done; what moved past a check is a
// pure computation or a load, which has no effect to lose. It returns how
// many values it moved.
func ChecksFirst(f *Func) int {
	n := 0
	for _, b := range ReversePostorder(f) {
		if b.Term != TermBranch || len(b.Succs) != 2 || b.Succs[1].Term != TermTrap {
			continue
		}
		next := b.Succs[0]
		if len(next.Preds) != 1 || next == b || len(next.Phis()) > 0 {
			continue
		}
		// What the check needs: its condition and trap details, and what
		// they are computed from in this block.
		need := map[*Value]bool{}
		work := append([]*Value{b.Cond}, b.Succs[1].Trap.Args[:]...)
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			if v == nil || v.Block != b || need[v] {
				continue
			}
			need[v] = true
			work = append(work, v.Args...)
		}
		// Only values after the block's last effect and its phis move.
		start := 0
		for i, v := range b.Values {
			if v.Op == OpPhi || !pure(v) || v.Op == OpLocal {
				start = i + 1
			}
		}
		var stay, move []*Value
		stay = append(stay, b.Values[:start]...)
		for _, v := range b.Values[start:] {
			if need[v] {
				stay = append(stay, v)
			} else {
				move = append(move, v)
			}
		}
		if len(move) == 0 {
			continue
		}
		// A value that stays must not use one that moves (need is closed
		// under operands, so only values that stay without being needed
		// could: none do past start).
		for _, v := range move {
			v.Block = next
		}
		b.Values = stay
		next.Values = append(move, next.Values...)
		n += len(move)
	}
	return n
}
