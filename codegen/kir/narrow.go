package kir

import "math"

// NarrowIndices computes in 32 bits the 64-bit integer additions,
// subtractions and multiplications whose operands and result provably fit
// in an int32 (thread-index arithmetic under a block= shape, tile offsets,
// loop counters bounded by constants), and the comparisons of such values:
// GPUs do 32-bit integer arithmetic in
// one instruction and 64-bit in several. Go's int is 64 bits, so a global
// index (blockIdx*blockDim can pass 2^31) stays 64-bit. The value keeps its
// 64-bit type for its users as a sign extension of the 32-bit result, which
// the emitters fold into wide multiplies and address arithmetic.
func NarrowIndices(f *Func) int {
	p := newProver(f, Dominators(f))
	fits := func(r interval) bool { return r.lo >= math.MinInt32 && r.hi <= math.MaxInt32 }
	narrow := map[*Value]*Value{} // a 64-bit value → its 32-bit twin
	n := 0
	for _, b := range ReversePostorder(f) {
		var out []*Value
		for _, v := range b.Values {
			if v.Type.Kind != I64 || (v.Op != OpAdd && v.Op != OpSub && v.Op != OpMul) ||
				!fits(p.rng(v, b)) || !fits(p.rng(v.Args[0], b)) || !fits(p.rng(v.Args[1], b)) {
				out = append(out, v)
				continue
			}
			var args [2]*Value
			for i, a := range v.Args {
				args[i], out = p.to32(f, b, a, narrow, out)
			}
			w := &Value{ID: f.nextID, Op: v.Op, Type: TI32, Args: args[:], Block: b, Pos: v.Pos}
			f.nextID++
			out = append(out, w)
			v.Op, v.Args = OpConvert, []*Value{w}
			out = append(out, v)
			narrow[v] = w
			n++
		}
		b.Values = out
	}
	// A comparison of two values that fit compares their 32-bit twins:
	// the same order, one instruction. (After the arithmetic, so that the
	// ranges above were computed from the comparisons as they were.)
	for _, b := range ReversePostorder(f) {
		var out []*Value
		for _, v := range b.Values {
			if v.Op.IsCompare() && v.Args[0].Type.Kind == I64 && fits(p.rng(v.Args[0], b)) && fits(p.rng(v.Args[1], b)) {
				var args [2]*Value
				for i, a := range v.Args {
					args[i], out = p.to32(f, b, a, narrow, out)
				}
				v.Args = args[:]
				n++
			}
			out = append(out, v)
		}
		b.Values = out
	}
	if n > 0 {
		RemoveDead(f)
	}
	return n
}

// to32 returns a 32-bit value equal to a (known to fit), appending any
// instruction it needs to out.
func (p *prover) to32(f *Func, b *Block, a *Value, narrow map[*Value]*Value, out []*Value) (*Value, []*Value) {
	if w, ok := narrow[a]; ok {
		return w, out
	}
	if a.Op == OpConst {
		c := &Value{ID: f.nextID, Op: OpConst, Type: TI32, Imm: uint64(int64(int32(a.Imm))), Block: b}
		f.nextID++
		return c, append(out, c)
	}
	if a.Op == OpConvert && a.Args[0].Type.Kind == I32 {
		return a.Args[0], out
	}
	op := OpConvert
	src := a
	if a.Op == OpConvert && a.Args[0].Type.Kind == U32 {
		op, src = OpBitcast, a.Args[0] // below 2^31: the same bits
	}
	c := &Value{ID: f.nextID, Op: op, Type: TI32, Args: []*Value{src}, Block: b}
	f.nextID++
	return c, append(out, c)
}
