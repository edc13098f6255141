package kir

import "fmt"

// Verify checks the invariants every emitter relies on: every block is
// terminated and its edges agree with its terminator, phis come first and
// have one argument per predecessor, arguments are defined in blocks that
// dominate their uses (or, for phis, the matching predecessor), and operand
// types agree with the operation.
func Verify(f *Func) error {
	for i, b := range f.Blocks {
		if b.Index != i {
			return fmt.Errorf("%s: block %d has index %d", f.Name, i, b.Index)
		}
		want := map[TermKind]int{TermJump: 1, TermBranch: 2, TermReturn: 0, TermTrap: 0}
		n, ok := want[b.Term]
		if !ok {
			return fmt.Errorf("%s: b%d is not terminated", f.Name, i)
		}
		if len(b.Succs) != n {
			return fmt.Errorf("%s: b%d has %d successors for its terminator, want %d", f.Name, i, len(b.Succs), n)
		}
		if b.Term == TermBranch && (b.Cond == nil || b.Cond.Type.Kind != Bool) {
			return fmt.Errorf("%s: b%d branches on a non-bool", f.Name, i)
		}
		for _, s := range b.Succs {
			if !contains(s.Preds, b) {
				return fmt.Errorf("%s: b%d→b%d missing from the predecessors", f.Name, i, s.Index)
			}
		}
		phis := true
		for _, v := range b.Values {
			if v.Block != b {
				return fmt.Errorf("%s: %v is in b%d but says b%d", f.Name, v, i, v.Block.Index)
			}
			if v.Op == OpPhi {
				if !phis {
					return fmt.Errorf("%s: phi %v after a non-phi in b%d", f.Name, v, i)
				}
				if len(v.Args) != len(b.Preds) {
					return fmt.Errorf("%s: phi %v has %d args for %d preds", f.Name, v, len(v.Args), len(b.Preds))
				}
				if err := phiSpaces(v); err != nil {
					return fmt.Errorf("%s: b%d: %v", f.Name, i, err)
				}
			} else {
				phis = false
			}
			if err := checkOperands(v); err != nil {
				return fmt.Errorf("%s: b%d: %v", f.Name, i, err)
			}
		}
	}
	dom := Dominators(f)
	pos := map[*Value]int{}
	for _, b := range f.Blocks {
		for i, v := range b.Values {
			pos[v] = i
		}
	}
	defined := func(a *Value, at *Block, idx int) bool {
		if a.Block == at {
			return pos[a] < idx
		}
		return dom.Dominates(a.Block, at)
	}
	for _, b := range f.Blocks {
		for i, v := range b.Values {
			for j, a := range v.Args {
				if a == nil {
					return fmt.Errorf("%s: %v (%v) has a nil argument %d", f.Name, v, v.Op, j)
				}
				if v.Op == OpPhi {
					p := b.Preds[j]
					if !defined(a, p, len(p.Values)) {
						return fmt.Errorf("%s: phi %v arg %v not available at the end of b%d", f.Name, v, a, p.Index)
					}
				} else if !defined(a, b, i) {
					return fmt.Errorf("%s: %v (%v) uses %v before its definition", f.Name, v, v.Op, a)
				}
			}
		}
		if b.Cond != nil && !defined(b.Cond, b, len(b.Values)) {
			return fmt.Errorf("%s: b%d branches on %v before its definition", f.Name, b.Index, b.Cond)
		}
		for _, a := range b.Trap.Args {
			if a != nil && !defined(a, b, len(b.Values)) {
				return fmt.Errorf("%s: b%d traps with %v before its definition", f.Name, b.Index, a)
			}
		}
	}
	return nil
}

// phiSpaces checks that a pointer phi's arguments point into its space
// (nil fits every space): an emitter picks the load or store instruction
// by the space of the pointer's type.
func phiSpaces(v *Value) error {
	if v.Type.Kind != Ptr {
		return nil
	}
	for _, a := range v.Args {
		if a.Op != OpConst && a.Type != v.Type {
			return fmt.Errorf("phi %v of type %v takes %v of type %v", v, v.Type, a, a.Type)
		}
	}
	return nil
}

func checkOperands(v *Value) error {
	bad := func(why string) error { return fmt.Errorf("%v = %v %v: %s", v, v.Op, v.Args, why) }
	nargs := map[Op]int{OpConst: 0, OpParam: 0, OpSpecial: 0, OpLocal: 0, OpShared: 0,
		OpNeg: 1, OpNot: 1, OpClz: 1, OpPopc: 1, OpMulHi: 2, OpConvert: 1, OpBitcast: 1, OpLoad: 1, OpBarrier: 0, OpPoll: 0,
		OpFMA: 3, OpSelect: 3, OpStore: 2, OpPtrAdd: 2}
	if n, ok := nargs[v.Op]; ok && len(v.Args) != n {
		return bad(fmt.Sprintf("want %d operands", n))
	}
	if windowedNil(v) {
		return bad("nil meets a shared or local address, which may be 0 like nil: make the pointer generic")
	}
	switch v.Op {
	case OpAdd, OpSub, OpMul, OpDiv, OpRem, OpAnd, OpOr, OpXor, OpAndNot:
		if len(v.Args) != 2 || v.Args[0].Type != v.Type || v.Args[1].Type != v.Type {
			return bad("operands must have the result type")
		}
		if v.Type.Kind == Ptr {
			return bad("pointer arithmetic must use ptradd")
		}
	case OpShl, OpShr:
		if len(v.Args) != 2 || v.Args[0].Type != v.Type || !v.Args[1].Type.Kind.IsInt() || v.Args[1].Type.Kind.IsSigned() {
			return bad("shift wants a value of the result type and an unsigned count")
		}
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		if len(v.Args) != 2 || v.Args[0].Type.Kind != v.Args[1].Type.Kind || v.Type != TBool {
			return bad("comparison wants two operands of one kind and a bool result")
		}
	case OpSelect:
		if v.Args[0].Type != TBool || v.Args[1].Type != v.Type || v.Args[2].Type != v.Type {
			return bad("select wants a bool and two operands of the result type")
		}
	case OpLoad:
		if v.Args[0].Type.Kind != Ptr {
			return bad("load from a non-pointer")
		}
	case OpStore:
		if v.Args[0].Type.Kind != Ptr {
			return bad("store to a non-pointer")
		}
		if x := v.Args[1]; x.Type.Kind == Ptr && x.Type.Space != Generic && x.Op != OpConst {
			// Memory holds generic addresses (loads read them as such):
			// a shared or local address stored as it is reads as a
			// global one.
			return bad("a pointer must be stored as a generic address")
		}
	case OpPtrAdd:
		if v.Args[0].Type.Kind != Ptr || v.Args[1].Type != TI64 || v.Type != v.Args[0].Type {
			return bad("ptradd wants a pointer and an i64 offset")
		}
	case OpAtomic:
		if len(v.Args) < 2 || v.Args[0].Type.Kind != Ptr {
			return bad("atomic wants a pointer")
		}
	case OpBitcast:
		if v.Args[0].Type.Kind.Bits() != v.Type.Kind.Bits() {
			return bad("bitcast between widths")
		}
	}
	return nil
}

func contains(bs []*Block, b *Block) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// windowedNil reports whether v mixes a constant pointer (nil) with a
// pointer into shared or local memory, in a phi, a select or an equality
// test. The shared and local windows start at address 0, so a variable
// there may have the address nil has; generic addresses of variables are
// never 0.
func windowedNil(v *Value) bool {
	switch v.Op {
	case OpPhi, OpSelect, OpEq, OpNe:
	default:
		return false
	}
	konst, windowed := false, false
	for _, a := range v.Args {
		if a.Type.Kind != Ptr {
			continue
		}
		konst = konst || a.Op == OpConst
		windowed = windowed || a.Type.Space == Shared || a.Type.Space == Local
	}
	if v.Type.Kind == Ptr && (v.Type.Space == Shared || v.Type.Space == Local) {
		windowed = true
	}
	return konst && windowed
}
