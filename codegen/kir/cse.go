package kir

// Simplify removes redundant computations: a value equal to an earlier one
// that dominates it (same operation on the same operands) is replaced by it,
// and a few algebraic identities are folded ((a+c)-a = c, x+0, x*1, x-0).
// Only operations without side effects are merged; loads are not (a store
// may come between).
func Simplify(f *Func) int {
	dom := Dominators(f)
	replaced := forwarding{}
	find := replaced.find
	type key struct {
		op         Op
		t          Type
		a0, a1, a2 int
		imm        uint64
		index      int
		nofuse     bool
	}
	table := map[key]*Value{}
	n := 0
	// added holds the keys each block on the walk's path added to table.
	added := make([][]key, len(f.Blocks))
	enter := func(b *Block) {
		var mine []key
		for _, v := range b.Values {
			for i, a := range v.Args {
				v.Args[i] = find(a)
			}
			if r := fold(f, v); r != nil {
				replaced[v] = r
				n++
				continue
			}
			if !mergeable(v) {
				continue
			}
			k := key{op: v.Op, t: v.Type, a0: -1, a1: -1, a2: -1, imm: v.Imm, index: v.Index, nofuse: v.NoFuse}
			ids := []*int{&k.a0, &k.a1, &k.a2}
			for i, a := range v.Args {
				*ids[i] = a.ID
			}
			if old, ok := table[k]; ok {
				replaced[v] = old
				n++
				continue
			}
			table[k] = v
			mine = append(mine, k)
		}
		added[b.Index] = mine
	}
	leave := func(b *Block) {
		for _, k := range added[b.Index] {
			delete(table, k)
		}
		added[b.Index] = nil
	}
	if len(f.Blocks) > 0 {
		dom.Walk(f.Blocks[0], enter, leave)
	}
	// Phi arguments and block operands may refer to values replaced in
	// blocks visited later.
	replaceUses(f, find)
	if n > 0 {
		RemoveDead(f)
	}
	return n
}

func mergeable(v *Value) bool {
	switch v.Op {
	case OpLoad, OpStore, OpAtomic, OpBarrier, OpPoll, OpPhi, OpLocal:
		return false
	}
	return len(v.Args) <= 3
}

// fold returns a simpler existing value equal to v, or nil.
func fold(f *Func, v *Value) *Value {
	if !v.Type.Kind.IsInt() || len(v.Args) != 2 {
		return nil
	}
	x, y := v.Args[0], v.Args[1]
	isConst := func(a *Value, n uint64) bool { return a.Op == OpConst && a.Imm == n }
	switch v.Op {
	case OpAdd:
		if isConst(y, 0) {
			return x
		}
		if isConst(x, 0) {
			return y
		}
	case OpSub:
		if isConst(y, 0) {
			return x
		}
		// (a + c) - a = c
		if x.Op == OpAdd && x.Args[0] == y && x.Args[1].Op == OpConst {
			return x.Args[1]
		}
	case OpMul:
		if isConst(y, 1) {
			return x
		}
	}
	return nil
}
