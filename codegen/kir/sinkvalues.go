package kir

// SinkValues moves a pure computation from a block ending in a branch
// into the successor that alone uses it, when that successor has no other
// predecessor: the path that does not need the value no longer computes
// it. After RangeChecks and SplitConstOffsets, the index arithmetic of
// the checks a fast path no longer makes (c-1, c+nx, ...) is used only on
// the slow path that makes them one by one; without this pass every
// thread would compute it before its first load. Loads, local
// allocations, divisions and effects never move, nor anything before the
// block's last effect; a value moves only to the start of a successor
// whose every use of it that block dominates, so it is computed on fewer
// paths, never on more, and never inside a loop it was outside of (the
// successor has one predecessor, so it is no loop header). It returns how
// many values it moved.
func SinkValues(f *Func) int {
	dom := Dominators(f)
	// Where each value is used: by a value (a phi's use is at the end of
	// the predecessor it comes from), or by a block's terminator.
	type use struct {
		user *Value
		at   *Block
	}
	uses := make([][]use, f.NumValues())
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for i, a := range v.Args {
				at := b
				if v.Op == OpPhi {
					at = b.Preds[i]
				}
				uses[a.ID] = append(uses[a.ID], use{v, at})
			}
		}
		if b.Cond != nil {
			uses[b.Cond.ID] = append(uses[b.Cond.ID], use{nil, b})
		}
		for _, a := range b.Trap.Args {
			if a != nil {
				uses[a.ID] = append(uses[a.ID], use{nil, b})
			}
		}
	}
	n := 0
	for _, b := range ReversePostorder(f) {
		if b.Term != TermBranch || len(b.Succs) != 2 || b.Succs[0] == b.Succs[1] {
			continue
		}
		start := 0
		for i, v := range b.Values {
			if v.Op == OpPhi || !pure(v) {
				start = i + 1
			}
		}
		// to[v] is the successor v moves to.
		to := map[*Value]*Block{}
		for i := len(b.Values) - 1; i >= start; i-- {
			v := b.Values[i]
			if v.Op == OpLoad || v.Op == OpLocal || v.Op == OpDiv || v.Op == OpRem || len(uses[v.ID]) == 0 {
				continue
			}
			for _, s := range b.Succs {
				if len(s.Preds) != 1 || s == b {
					continue
				}
				ok := true
				for _, u := range uses[v.ID] {
					at := u.at
					if u.user != nil && u.user.Op != OpPhi && at == b {
						at = to[u.user] // nil unless that user moves
					}
					if at == nil || at == b || !dom.Dominates(s, at) {
						ok = false
						break
					}
				}
				if ok {
					to[v] = s
					break
				}
			}
		}
		if len(to) == 0 {
			continue
		}
		// A value moving into s is used only in blocks s dominates; its
		// operands from b either move with it or stay and dominate it.
		var stay []*Value
		moved := map[*Block][]*Value{}
		for _, v := range b.Values {
			if s, ok := to[v]; ok {
				moved[s] = append(moved[s], v)
				v.Block = s
				n++
			} else {
				stay = append(stay, v)
			}
		}
		b.Values = stay
		for s, vs := range moved {
			// After s's phis (it has none: one predecessor).
			s.Values = append(vs, s.Values...)
		}
	}
	return n
}
