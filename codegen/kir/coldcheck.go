package kir

// RecomputeColdChecks makes each index check on a path that can only
// trap (the slow path CombineChecks builds, "checks, one by one")
// compute its comparison, and where it can its index and length, in its
// own block, so the path keeps nothing live from before it.
//
// Earlier passes hoist a loop-invariant check out of its loop and AND its
// comparison into the one branch the fast path takes; the slow path then
// branched on the hoisted comparisons and reported the hoisted indices,
// so every comparison and index of the run stayed live through the whole
// loop for a path that runs at most once. In Rodinia's hotspot that was
// four predicates and four 64-bit indices (ptxas keeps predicates in
// registers, P2R): more registers than nvcc's, and no room to keep the
// loop's shared addresses out of it. Here each slow-path check compares
// afresh, and its index and length are recomputed from the kernel's
// parameters, special registers and constants when they are pure integer
// arithmetic of those (at most coldMaxValues operations, no load, phi or
// division); otherwise the comparison alone is recomputed, of the index
// and length the trap reports, which that path keeps live anyway. Either
// way the path computes the same values from the same inputs: it traps
// where and as before. It runs after the pipeline's last Simplify, whose
// CSE would merge the copies back. It returns how many checks it
// changed.
func RecomputeColdChecks(f *Func) int {
	cold := trapOnlyBlocks(f)
	n := 0
	for _, b := range f.Blocks {
		if !cold[b] || b.Term != TermBranch || b.Cond.Block == b {
			continue
		}
		idx, length, ok := indexCheck(b)
		trap := b.Succs[1]
		if !ok || trap.Trap.Args != [2]*Value{idx, length} {
			continue
		}
		r := &recomputer{f: f, b: b, memo: map[*Value]*Value{}, budget: coldMaxValues}
		if i, l := r.leafCopy(idx), r.leafCopy(length); i != nil && l != nil {
			idx, length = i, l
			trap.Trap.Args = [2]*Value{i, l}
		}
		c := b.Cond
		ia, la := f.NewValue(b, OpBitcast, c.Args[0].Type, idx), f.NewValue(b, OpBitcast, c.Args[1].Type, length)
		b.Cond = f.NewValue(b, c.Op, c.Type, ia, la)
		b.Cond.Pos = c.Pos
		n++
	}
	return n
}

// coldMaxValues bounds the operations recomputed for one check.
const coldMaxValues = 48

// recomputer copies a value's computation into block b.
type recomputer struct {
	f      *Func
	b      *Block
	memo   map[*Value]*Value
	budget int
}

// leafCopy returns a copy in r.b of v's computation from parameters,
// special registers, shared variables and constants, or nil where v is
// computed from anything else (a load, a phi, ...), by an operation that
// is not integer arithmetic, or by more operations than the budget left.
func (r *recomputer) leafCopy(v *Value) *Value {
	if c, ok := r.memo[v]; ok {
		return c
	}
	if !recomputable(v) || r.budget == 0 {
		return nil
	}
	r.budget--
	args := make([]*Value, len(v.Args))
	for i, a := range v.Args {
		if args[i] = r.leafCopy(a); args[i] == nil {
			return nil
		}
	}
	c := cloneValue(r.f, r.b, v, r.memo)
	c.Args = args
	r.b.Values = append(r.b.Values, c)
	return c
}

// recomputable reports whether v may be computed again anywhere its
// operands are: a leaf that reads the same value wherever it runs, or
// integer (or bool) arithmetic that cannot fault.
func recomputable(v *Value) bool {
	switch v.Op {
	case OpConst, OpParam, OpSpecial, OpShared:
		return true
	case OpAdd, OpSub, OpMul, OpAnd, OpOr, OpXor, OpAndNot, OpShl, OpShr, OpNeg, OpNot,
		OpEq, OpNe, OpLt, OpLe, OpGt, OpGe, OpConvert, OpBitcast, OpSelect:
		for _, a := range v.Args {
			if k := a.Type.Kind; k.IsFloat() {
				return false
			}
		}
		return !v.Type.Kind.IsFloat()
	}
	return false
}

// trapOnlyBlocks returns the blocks every path from which ends in a trap:
// a trap, or a block whose successors all are such blocks.
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
