package ownership

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Correlated branches. A buffer allocated only under `if useGPU` and freed
// under a later `if useGPU` is not leaked on the path where useGPU is false:
// it was never allocated there. The dataflow merges paths, so it would
// otherwise see the buffer live after the first `if` and unfreed after the
// second. A guard records that a resource's creation requires a condition
// to have a value; on an edge where the same condition has the other value
// the resource cannot exist, and its live state is dropped.
//
// Only conditions that cannot change between the two tests count: a
// parameter, or a value computed outside any loop from parameters,
// constants and other such values (no loads from memory, no calls).

type guard struct {
	cond ssa.Value
	val  bool
}

// findGuards computes the guards of every resource created in the function.
func (fa *funcAnalysis) findGuards() {
	fa.guards = make([][]guard, len(fa.res))
	if len(fa.created) == 0 && !fa.hasColl() {
		return
	}
	fa.inLoop = loopBlocks(fa.fn)
	for instr, ids := range fa.created {
		b := instr.Block()
		for _, x := range fa.fn.Blocks {
			ifi, ok := x.Instrs[len(x.Instrs)-1].(*ssa.If)
			if !ok || !fa.stable(ifi.Cond, 0) {
				continue
			}
			for k, succ := range x.Succs {
				if len(succ.Preds) == 1 && succ.Dominates(b) {
					for _, id := range ids {
						fa.guards[id] = append(fa.guards[id], guard{ifi.Cond, k == 0})
					}
				}
			}
		}
	}
}

// refineGuards drops the live state of resources whose creation requires
// cond to have the value it does not have on an edge.
func (fa *funcAnalysis) refineGuards(cond ssa.Value, t, f flowState) {
	if fa.inLoop == nil || !fa.stable(cond, 0) {
		return
	}
	for id, gs := range fa.guards {
		for _, g := range gs {
			if !sameCond(g.cond, cond) {
				continue
			}
			// The resource exists only where cond == g.val.
			other := f
			if !g.val {
				other = t
			}
			other[id].bits &^= live
		}
	}
}

// stable reports whether v has the same value wherever it is evaluated in
// one call of the function.
func (fa *funcAnalysis) stable(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.Const, *ssa.FreeVar:
		return true
	case *ssa.BinOp:
		return !fa.inLoop[v.Block()] && fa.stable(v.X, depth+1) && fa.stable(v.Y, depth+1)
	case *ssa.UnOp:
		return v.Op != token.MUL && v.Op != token.ARROW && !fa.inLoop[v.Block()] && fa.stable(v.X, depth+1)
	case *ssa.Field:
		return !fa.inLoop[v.Block()] && fa.stable(v.X, depth+1)
	}
	return false
}

// sameCond reports whether two stable conditions have the same value: the
// same SSA value, or the same operator on the same operands.
func sameCond(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *ssa.BinOp:
		b, ok := b.(*ssa.BinOp)
		return ok && a.Op == b.Op && sameCond(a.X, b.X) && sameCond(a.Y, b.Y)
	case *ssa.UnOp:
		b, ok := b.(*ssa.UnOp)
		return ok && a.Op == b.Op && sameCond(a.X, b.X)
	case *ssa.Field:
		b, ok := b.(*ssa.Field)
		return ok && a.Field == b.Field && sameCond(a.X, b.X)
	case *ssa.Const:
		b, ok := b.(*ssa.Const)
		return ok && a.Value != nil && b.Value != nil && a.Value.ExactString() == b.Value.ExactString() && a.Type() == b.Type()
	}
	return false
}

// loopBlocks returns the blocks that lie on a cycle of the CFG.
func loopBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	in := map[*ssa.BasicBlock]bool{}
	for _, b := range fn.Blocks {
		seen := map[*ssa.BasicBlock]bool{}
		work := append([]*ssa.BasicBlock(nil), b.Succs...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if x == b {
				in[b] = true
				break
			}
			if seen[x] {
				continue
			}
			seen[x] = true
			work = append(work, x.Succs...)
		}
	}
	return in
}
