package kir

import "sort"

// HoistInvariants moves loop-invariant computations out of loops (LICM):
// a value whose operands are all defined outside a loop is computed once in
// the loop's preheader instead of on every iteration. Inner loops are done
// first, so a value invariant in several nested loops rises to the
// outermost one it is invariant in.
//
// Only operations without effects and without a trap of their own move:
// loads stay (the bounds check guarding one is inside the loop, and a store
// in the loop may change what it reads), integer division and remainder
// stay (the division-by-zero check is inside the loop), and math
// functions, which are expensive, move only from blocks that run on every
// iteration. A constant operand made inside the loop (passes after the
// lowering make constants next to their uses) does not hold a value in:
// the value moves with a copy of the constant, so a shared tile's
// address ty*64+tx*4 in a loop's `if` body is computed once, as nvcc
// does (ptxas does not hoist out of a conditional block: Rodinia
// hotspot's loop was 16 instructions longer). A loop needs a preheader:
// one block outside it that jumps unconditionally to the header, which
// every path into the loop takes.
// It returns how many values it moved.
func HoistInvariants(f *Func) int {
	dom := Dominators(f)
	loops := NaturalLoops(f, dom)
	sort.SliceStable(loops, func(i, j int) bool { return len(loops[i].Blocks) < len(loops[j].Blocks) })
	n := 0
	for _, l := range loops {
		h := l.Header
		var pre *Block
		ok := true
		for _, p := range h.Preds {
			if l.Blocks[p] {
				continue
			}
			if pre != nil {
				ok = false
			}
			pre = p
		}
		if !ok || pre == nil || len(pre.Succs) != 1 {
			continue
		}
		inLoop := func(v *Value) bool { return l.Blocks[v.Block] }
		everyIter := func(b *Block) bool {
			for _, lt := range l.Latches {
				if !dom.Dominates(b, lt) {
					return false
				}
			}
			return true
		}
		for _, b := range ReversePostorder(f) {
			if !l.Blocks[b] {
				continue
			}
			kept := b.Values[:0]
			for _, v := range b.Values {
				if hoistable(v) && (v.Op != OpMath || everyIter(b)) {
					if operandsInvariant(v, inLoop) {
						hoistWithConsts(f, pre, v, inLoop)
						n++
						continue
					}
				}
				kept = append(kept, v)
			}
			b.Values = kept
		}
	}
	return n
}

// operandsInvariant reports whether every operand of v is defined outside the
// loop (inLoop) or is a constant: a constant inside the loop (a pass after
// the lowering made it next to its use) is copied out with v.
func operandsInvariant(v *Value, inLoop func(*Value) bool) bool {
	for _, a := range v.Args {
		if inLoop(a) && a.Op != OpConst {
			return false
		}
	}
	return true
}

// hoistWithConsts moves v to the end of pre, with a copy there of each constant
// operand defined inside the loop.
func hoistWithConsts(f *Func, pre *Block, v *Value, inLoop func(*Value) bool) {
	for i, a := range v.Args {
		if a.Op == OpConst && inLoop(a) {
			v.Args[i] = f.NewConst(pre, a.Type, a.Imm)
		}
	}
	v.Block = pre
	pre.Values = append(pre.Values, v)
}

func hoistable(v *Value) bool {
	switch v.Op {
	case OpLoad, OpStore, OpAtomic, OpBarrier, OpPoll, OpPhi, OpLocal, OpConst:
		return false
	case OpDiv, OpRem:
		return v.Type.Kind.IsFloat()
	}
	return true
}
