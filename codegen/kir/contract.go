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
