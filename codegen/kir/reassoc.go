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
			x, c, ok := constPart(v.Args[1])
			if !ok || c == 0 {
				out = append(out, v)
				continue
			}
			// x is computed where v.Args[1] was: mul(a, s) of a value
			// a dominating v; make it here.
			xv := x
			if x.Block == nil {
				x.ID, x.Block = f.nextID, b
				f.nextID++
				out = append(out, x)
			}
			inner := &Value{ID: f.nextID, Op: OpPtrAdd, Type: v.Type, Args: []*Value{v.Args[0], xv}, Block: b, Pos: v.Pos}
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

// constPart splits an i64 offset o into x + c with c constant: o = a + c,
// a - c, (a + c) * s or (a - c) * s with s constant. A new x (a product)
// is returned without a block for the caller to place.
func constPart(o *Value) (x *Value, c int64, ok bool) {
	if o.Type != TI64 {
		return nil, 0, false
	}
	addConst := func(v *Value) (*Value, int64, bool) {
		switch {
		case v.Op == OpAdd && v.Args[1].Op == OpConst:
			return v.Args[0], int64(v.Args[1].Imm), true
		case v.Op == OpAdd && v.Args[0].Op == OpConst:
			return v.Args[1], int64(v.Args[0].Imm), true
		case v.Op == OpSub && v.Args[1].Op == OpConst:
			return v.Args[0], -int64(v.Args[1].Imm), true
		}
		return nil, 0, false
	}
	if a, c, ok := addConst(o); ok {
		return a, c, true
	}
	if o.Op == OpMul && o.Args[1].Op == OpConst {
		if a, c, ok := addConst(o.Args[0]); ok {
			s := int64(o.Args[1].Imm)
			mul := &Value{Op: OpMul, Type: TI64, Args: []*Value{a, o.Args[1]}, Pos: o.Pos}
			return mul, c * s, true
		}
	}
	return nil, 0, false
}
