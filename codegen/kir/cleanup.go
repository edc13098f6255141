package kir

// RemoveUnreachable deletes the blocks that the entry does not reach (for
// example the continuation of an inlined function whose every path panics),
// drops their edges from phis, and renumbers the remaining blocks.
func RemoveUnreachable(f *Func) {
	live := make([]bool, len(f.Blocks))
	for _, b := range ReversePostorder(f) {
		live[b.Index] = true
	}
	var kept []*Block
	for _, b := range f.Blocks {
		if !live[b.Index] {
			continue
		}
		var preds []*Block
		keep := make([]bool, len(b.Preds))
		for i, p := range b.Preds {
			if live[p.Index] {
				preds = append(preds, p)
				keep[i] = true
			}
		}
		if len(preds) != len(b.Preds) {
			for _, v := range b.Phis() {
				var args []*Value
				for i, a := range v.Args {
					if keep[i] {
						args = append(args, a)
					}
				}
				v.Args = args
			}
			b.Preds = preds
		}
		kept = append(kept, b)
	}
	for i, b := range kept {
		b.Index = i
	}
	f.Blocks = kept
}

// RemoveDead deletes values that nothing uses and that have no effect
// (loads included: a dead load cannot trap, its address was checked).
func RemoveDead(f *Func) {
	for {
		used := make([]bool, f.NumValues())
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				for _, a := range v.Args {
					used[a.ID] = true
				}
			}
			if b.Cond != nil {
				used[b.Cond.ID] = true
			}
			for _, a := range b.Trap.Args {
				if a != nil {
					used[a.ID] = true
				}
			}
		}
		removed := false
		for _, b := range f.Blocks {
			kept := b.Values[:0]
			for _, v := range b.Values {
				if !used[v.ID] && pure(v) {
					removed = true
					continue
				}
				kept = append(kept, v)
			}
			b.Values = kept
		}
		if !removed {
			return
		}
	}
}

func pure(v *Value) bool {
	switch v.Op {
	case OpStore, OpAtomic, OpBarrier, OpPoll:
		return false
	case OpDiv, OpRem:
		return true // checks are explicit branches
	}
	return true
}
