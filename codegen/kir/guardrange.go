package kir

import "slices"

// Row-major bounds for VersionChecks. A guarded access of a 2-D array laid
// out in rows, `if a < rows && x < cols { in[a*cols+x] }`, with a and x
// provably non-negative, lies in [0, rows*cols-1] whenever its guard
// holds, so the check `a*cols+x < len(in)` of every such access is
// implied by one test of uniform values: rows and cols in [1, 2^31] and
// rows*cols-1 < len(in). A tiled transpose's eight checks (four rows of
// the tile read, four written) become two such tests, computed once per
// thread from kernel parameters, where they were eight 64-bit products
// and comparisons. The test is stronger than the checks (a 3×5 array in
// a slice of 14 elements fails it although the accesses may pass), so it
// serves only where failing it runs the checks one by one: the fast path
// of a versioned region.
//
// Exactly: with the guard true, 0 <= a < rows and 0 <= x < cols (signed
// comparisons, a and x >= 0 by the range prover); with rows and cols at
// most 2^31, a*cols+x <= (rows-1)*cols + cols-1 = rows*cols-1 < 2^62, so
// the 64-bit index has that value without wrap-around, as does
// rows*cols-1, and the unsigned comparison of the two with len(in) is
// exact.

// rowMajorBound matches check ok (u64(idx) < u64(length)) under guard,
// idx = a*cols + x with the guard's conjuncts holding a < rows and
// x < cols, and returns rows, cols and the length.
func rowMajorBound(p *prover, h *Block, guard, ok *Value) (rows, cols, length *Value, matched bool) {
	idx, length, isLess := unsignedLess(ok)
	if !isLess || idx.Type.Kind != I64 || idx.Op != OpAdd || length.Op != OpParam || !p.f.Params[length.Index].Len {
		return nil, nil, nil, false
	}
	// The guard's conjuncts a < b (signed): below[a] = the bounds b.
	below := map[*Value][]*Value{}
	work := []*Value{guard}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		switch {
		case c.Op == OpAnd && c.Type == TBool:
			work = append(work, c.Args...)
		case c.Op == OpLt && c.Args[0].Type.Kind == I64:
			below[c.Args[0]] = append(below[c.Args[0]], c.Args[1])
		}
	}
	uniform := &forms{uniform: map[*Value]bool{}}
	for i := range 2 {
		m, x := idx.Args[i], idx.Args[1-i]
		if m.Op != OpMul || p.rng(x, h).lo < 0 {
			continue
		}
		for j := range 2 {
			a, c := m.Args[j], m.Args[1-j]
			if p.rng(a, h).lo < 0 || !uniform.isUniform(c) || !slices.Contains(below[x], c) {
				continue
			}
			for _, r := range below[a] {
				if uniform.isUniform(r) {
					return r, c, length, true
				}
			}
		}
	}
	return nil, nil, nil, false
}

// rowMajorTest computes, at the end of h, rows and cols in [1, 2^31] and
// u64(rows*cols-1) < u64(length).
func rowMajorTest(f *Func, h *Block, rows, cols, length *Value) *Value {
	one := f.NewConst(h, TI64, 1)
	lim := f.NewConst(h, TU64, 1<<31)
	inRange := func(v *Value) *Value {
		return f.NewValue(h, OpLt, TBool, f.NewValue(h, OpBitcast, TU64, f.NewValue(h, OpSub, TI64, v, one)), lim)
	}
	t := inRange(rows)
	if cols != rows {
		t = f.NewValue(h, OpAnd, TBool, t, inRange(cols))
	}
	last := f.NewValue(h, OpSub, TI64, f.NewValue(h, OpMul, TI64, rows, cols), one)
	fits := f.NewValue(h, OpLt, TBool, f.NewValue(h, OpBitcast, TU64, last), f.NewValue(h, OpBitcast, TU64, length))
	return launchFact(f.NewValue(h, OpAnd, TBool, t, fits))
}
