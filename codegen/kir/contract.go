package kir

// Contractible returns the float products and sums of f that a target may
// contract into one fused multiply-add, as Go allows ("An implementation
// may combine multiple floating-point operations into a single fused
// operation, possibly across statements"): a sum or difference with a
// product operand (possibly negated), and those products, unless Go
// requires either rounded (NoFuse: an explicit conversion). Every other
// float add, sub and mul must be computed and rounded as written; the
// emitters mark them so (PTX .rn, SPIR-V NoContraction), which also keeps
// a driver from folding them algebraically ((x*0.5)*2 into x, wrong for
// the smallest subnormal x). One decision for every target, so that the
// backends round alike.
func Contractible(f *Func) map[*Value]bool {
	plain := map[*Value]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if (v.Op != OpAdd && v.Op != OpSub) || !v.Type.Kind.IsFloat() || v.NoFuse {
				continue
			}
			for _, x := range v.Args {
				if x.Op == OpNeg {
					x = x.Args[0]
				}
				if x.Op == OpMul && !x.NoFuse {
					plain[v], plain[x] = true, true
				}
			}
		}
	}
	return plain
}

// Fusion is a contractible sum computed as one fused multiply-add:
// Sum = (±X*Y) + (±Addend), the signs exact (a negation flips only the
// sign bit), so that x*y - z is fma(x, y, -z) and z - x*y is
// fma(-x, y, z).
type Fusion struct {
	X, Y, Addend          *Value
	NegProduct, NegAddend bool
	// Folded are the product and, where the sum reads it negated, its
	// negation: values only this sum uses, which the fused operation
	// computes, so a target does not compute them apart.
	Folded []*Value
}

// Fusions returns the contractible sums of f (Contractible) to compute as
// one fused multiply-add, with how: a sum or difference whose product
// operand (possibly negated) nothing else uses. A product used elsewhere
// too is left apart: its rounded value is needed anyway, and Go lets each
// sum either fuse or not. Go allows either rounding for every one of them,
// so a target may emit an operation that fuses or rounds twice. fusible
// lets a target refuse a pair (one with an operand it computes other than
// as float arithmetic); the sum's other product operand, if any, is tried
// then.
func Fusions(f *Func, fusible func(Fusion) bool) map[*Value]Fusion {
	plain := Contractible(f)
	users := Users(f) // float values are never branch conditions or trap details
	fused := map[*Value]Fusion{}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if !plain[v] || v.Op == OpMul {
				continue
			}
			for i := range v.Args {
				if fu, ok := fusionAt(v, i, users); ok && fusible(fu) {
					fused[v] = fu
					break
				}
			}
		}
	}
	return fused
}

// fusionAt is the fusion of sum whose product is its operand i, if that
// operand is a product (possibly negated) only the sum uses.
func fusionAt(sum *Value, i int, users [][]*Value) (Fusion, bool) {
	p := sum.Args[i]
	fu := Fusion{
		Addend:     sum.Args[1-i],
		NegProduct: sum.Op == OpSub && i == 1, // z - x*y
		NegAddend:  sum.Op == OpSub && i == 0, // x*y - z
	}
	if p.Op == OpNeg && len(users[p.ID]) == 1 {
		fu.Folded = append(fu.Folded, p)
		fu.NegProduct = !fu.NegProduct
		p = p.Args[0]
	}
	if p.Op != OpMul || p.NoFuse || len(users[p.ID]) != 1 {
		return Fusion{}, false
	}
	fu.X, fu.Y = p.Args[0], p.Args[1]
	fu.Folded = append(fu.Folded, p)
	return fu, true
}
