package kir

// SplitConstOffsets rewrites address arithmetic so that the constant part
// of an index becomes a separate constant byte offset: x[i+1] and x[i-1]
// address p + (i+1)*4 and p + (i-1)*4, which become (p + i*4) + 4 and
// (p + i*4) - 4; Simplify then computes p + i*4 once for all the
// neighbours a stencil reads, and the emitters fold the constant into the
// load's immediate offset ([r+4]). The rewrites are exact in the 64-bit
// wrap-around arithmetic of offsets and addresses: (a+c)*s = a*s + c*s and
// p + (x+c) = (p+x) + c hold modulo 2^64.
// It returns how many offsets it split.
func SplitConstOffsets(f *Func) int {
	n := 0
	for _, b := range f.Blocks {
		var out []*Value
		for _, v := range b.Values {
			if v.Op != OpPtrAdd {
				out = append(out, v)
				continue
			}
			x, made, c, ok := constPart(v.Args[1])
			if !ok {
				out = append(out, v)
				continue
			}
			// x's new values are of values dominating v: make them here.
			for _, m := range made {
				m.ID, m.Block = f.nextID, b
				f.nextID++
				out = append(out, m)
			}
			inner := &Value{ID: f.nextID, Op: OpPtrAdd, Type: v.Type, Args: []*Value{v.Args[0], x}, Block: b, Pos: v.Pos}
			f.nextID++
			k := &Value{ID: f.nextID, Op: OpConst, Type: TI64, Imm: uint64(c), Block: b}
			f.nextID++
			out = append(out, inner, k)
			v.Args = []*Value{inner, k}
			out = append(out, v)
			n++
		}
		b.Values = out
	}
	if n > 0 {
		RemoveDead(f)
	}
	return n
}

// constPart splits an i64 offset o into x + c with c constant, through
// sums, differences and products by constants: a + c, a - c, (a + c) * s,
// and the same nested, a*n + (b - 1) or (a*n + (b + 1)) * s (a row-major
// index of a neighbour). The new values x is made of are returned
// without a block, operands first, for the caller to place.
func constPart(o *Value) (x *Value, made []*Value, c int64, ok bool) {
	x, c = splitConst(o, 0, &made)
	if c == 0 || x == nil {
		return nil, nil, 0, false
	}
	return x, made, c, true
}

// splitConst is o as x + c (x nil when o is the constant c), building
// the new values of x (recorded in made, operands first) only where a
// constant was taken out.
func splitConst(o *Value, depth int, made *[]*Value) (*Value, int64) {
	if o.Type != TI64 || depth > 4 {
		return o, 0
	}
	switch {
	case o.Op == OpConst:
		return nil, int64(o.Imm)
	case o.Op == OpAdd || o.Op == OpSub:
		a, ca := splitConst(o.Args[0], depth+1, made)
		b, cb := splitConst(o.Args[1], depth+1, made)
		if o.Op == OpSub {
			cb = -cb
		}
		switch {
		case ca == 0 && cb == 0 || a == nil && b == nil:
			return o, 0
		case b == nil:
			return a, ca + cb
		case a == nil && o.Op == OpAdd:
			return b, ca + cb
		case a == nil:
			return o, 0 // k - (b + c) would need a negation
		}
		return newOffset(made, o, o.Op, a, b), ca + cb
	case o.Op == OpMul && o.Args[1].Op == OpConst:
		a, ca := splitConst(o.Args[0], depth+1, made)
		if ca == 0 || a == nil {
			return o, 0
		}
		return newOffset(made, o, OpMul, a, o.Args[1]), ca * int64(o.Args[1].Imm)
	}
	return o, 0
}

// newOffset is a new i64 value op(a, b) at o's position, recorded in made.
func newOffset(made *[]*Value, o *Value, op Op, a, b *Value) *Value {
	v := &Value{Op: op, Type: TI64, Args: []*Value{a, b}, Pos: o.Pos}
	*made = append(*made, v)
	return v
}
