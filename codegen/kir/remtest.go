package kir

// MaskRemainderTests turns a divisibility test by a power of two,
// x%2^k == 0 or != 0, into a test of x's low bits, x&(2^k-1) == 0 (or
// != 0). Both hold exactly when 2^k divides x, for negative x too (Go's %
// truncates, so -16%16 == 0 and -17%16 == -1, while -17&15 == 15): the
// test is the same, but a signed remainder by 2^k costs ptxas five
// instructions (the rounding of negative x toward zero) where the mask
// costs one, in guards such as rodinia lud's `matrixDim%16 != 0` that
// every thread runs before its first load. The remainder itself stays
// for its other uses. It returns how many tests it rewrote.
func MaskRemainderTests(f *Func) int {
	n := 0
	for _, b := range f.Blocks {
		var out []*Value
		for _, v := range b.Values {
			if r, c, ok := remainderTest(v); ok {
				mask := &Value{ID: f.nextID, Op: OpConst, Type: r.Type, Imm: c - 1, Block: b, Pos: r.Pos}
				and := &Value{ID: f.nextID + 1, Op: OpAnd, Type: r.Type, Args: []*Value{r.Args[0], mask}, Block: b, Pos: r.Pos}
				f.nextID += 2
				out = append(out, mask, and)
				v.Args[0] = and
				n++
			}
			out = append(out, v)
		}
		b.Values = out
	}
	return n
}

// remainderTest matches v = (x % c == 0) or (x % c != 0) for a constant c
// that is a power of two and positive in x's kind, and returns x % c and
// c.
func remainderTest(v *Value) (*Value, uint64, bool) {
	if (v.Op != OpEq && v.Op != OpNe) || v.Args[1].Op != OpConst || v.Args[1].Imm != 0 {
		return nil, 0, false
	}
	r := v.Args[0]
	if r.Op != OpRem || !r.Type.Kind.IsInt() || r.Args[1].Op != OpConst {
		return nil, 0, false
	}
	c := norm(r.Type.Kind, r.Args[1].Imm)
	if c == 0 || c&(c-1) != 0 || (r.Type.Kind.IsSigned() && c>>(r.Type.Kind.Bits()-1) != 0) {
		return nil, 0, false
	}
	return r, c, true
}
