package kir

// NonNil reports whether pointer v is never nil: the address of a local or
// shared variable, a pointer the lowering derived inside an object (an
// OpPtrAdd: a field or element address, made only after the base passed its
// nil or bounds check), a non-zero constant, or a phi, select or space
// conversion of such pointers. A pointer loaded from memory, a parameter (a
// slice's base may be nil when its length is 0) and a phi whose arguments
// are not yet set (during the lowering) are not proved.
func NonNil(v *Value) bool {
	return nonNil(v, map[*Value]bool{})
}

// nonNil is NonNil with the phis under test: a phi met again on a cycle
// adds no nil of its own.
func nonNil(v *Value, visiting map[*Value]bool) bool {
	switch v.Op {
	case OpLocal, OpShared, OpPtrAdd:
		return true
	case OpConst:
		return v.Imm != 0
	case OpConvert:
		return v.Type.Kind == Ptr && v.Args[0].Type.Kind == Ptr && nonNil(v.Args[0], visiting)
	case OpSelect:
		return nonNil(v.Args[1], visiting) && nonNil(v.Args[2], visiting)
	case OpPhi:
		if visiting[v] {
			return true
		}
		if len(v.Args) == 0 || len(v.Args) != len(v.Block.Preds) {
			return false
		}
		visiting[v] = true
		for _, a := range v.Args {
			if !nonNil(a, visiting) {
				return false
			}
		}
		return true
	}
	return false
}

// nilTest folds p == nil and p != nil (the lowering's nil checks among
// them) when NonNil proves p: it returns the comparison's constant result.
func nilTest(v *Value) (uint64, bool) {
	if (v.Op != OpEq && v.Op != OpNe) || v.Args[0].Type.Kind != Ptr {
		return 0, false
	}
	p, c := v.Args[0], v.Args[1]
	if p.Op == OpConst {
		p, c = c, p
	}
	if c.Op != OpConst || c.Imm != 0 || !NonNil(p) {
		return 0, false
	}
	return b2u(v.Op == OpNe), true
}
