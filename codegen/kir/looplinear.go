package kir

import (
	"math/bits"
	"sort"
)

// Linear loop checks, for LoopChecks: indices whose coefficient of the
// counter is not a constant. Parboil's sgemm reads a[m+(i+j)*lda] in its
// loop over j, PolyBench's gemm b[k*nj+j] in its loop over k: the counter
// is multiplied by a loop-invariant value (lda, nj), which the affine
// forms of loopcheck.go, with constant coefficients, do not hold. Such an
// index is still a polynomial of degree one in the counter over the
// integers, its other values invariant in the loop: idx(iv) = A*iv + C
// with A and C polynomials in the invariants. Whatever the sign of A, it
// lies between idx(init) and idx(last) for every counter value in
// [init, last] (last = limit-1), so the loop is versioned on those two
// values being in [0, len), computed in the preheader by evaluating the
// index's own operations with the counter replaced by init and by last.
//
// Exactly: the loop computes the index modulo 2^64, through additions,
// subtractions, multiplications and constant shifts, which are ring
// operations: its 64-bit value is congruent to the true polynomial's
// value. That true value lies in [0, len) ⊂ [0, 2^63) when the extremes
// do, so the 64-bit value is the true one and the check passes. The
// preheader's evaluation of the extremes must itself be exact: every
// invariant leaf of the index, init and limit are tested to lie in
// [-2^B, 2^B], with B (at most 40) chosen so that every operation's true
// value is below 2^62 in magnitude (a sum of values below 2^x and 2^y is
// below 2^(max(x,y)+1), a product below 2^(x+y)); then the preheader's
// 64-bit arithmetic yields the true extremes. Where no B >= 16 keeps
// the index exact (a polynomial of too high a degree), the check stays.

// linearIndex is an index of degree one in a loop's counter: the leaves
// its operations read (invariant values) and the bound B of every leaf
// that keeps its evaluation exact.
type linearIndex struct {
	leaves []*Value
	bound  int // log2 of the bound tested on every leaf, init and limit
}

// linearOf reports whether idx is of degree one in c's counter, through
// operations exact modulo 2^64, and the largest leaf bound that keeps it
// exact (see above).
func (c *countedLoop) linearOf(idx *Value) (linearIndex, bool) {
	for b := 40; b >= 16; b-- {
		leaves := map[*Value]bool{}
		deg, mag, ok := c.polyOf(idx, b, leaves, 0)
		if !ok || deg != 1 {
			return linearIndex{}, false
		}
		if mag > 62 {
			continue
		}
		li := linearIndex{bound: b}
		for v := range leaves {
			li.leaves = append(li.leaves, v)
		}
		sort.Slice(li.leaves, func(i, j int) bool { return li.leaves[i].ID < li.leaves[j].ID })
		return li, true
	}
	return linearIndex{}, false
}

// polyOf returns the degree in c's counter of v's value as a polynomial
// over the integers and a bound, in bits, on its magnitude when the
// counter and every invariant leaf (added to leaves) lie within
// ±2^(b+1), ±2^b; ok is false for an operation that is not a ring
// operation modulo 2^64 or a degree above one.
func (c *countedLoop) polyOf(v *Value, b int, leaves map[*Value]bool, depth int) (deg, mag int, ok bool) {
	if depth > 16 || v.Type.Kind != I64 {
		return 0, 0, false
	}
	switch {
	case v == c.iv, v.Op == OpConvert && v.Args[0] == c.iv && c.iv.Type.Kind == I32:
		return 1, b + 1, true // last = limit-1 is within ±2^b+1
	case v.Op == OpConst:
		x := v.Int()
		if x < 0 {
			x = -x // (MinInt64 stays negative: 64 bits, over any budget)
		}
		return 0, bits.Len64(uint64(x)), true
	case !c.l.Blocks[v.Block]:
		leaves[v] = true
		return 0, b, true
	}
	switch v.Op {
	case OpAdd, OpSub:
		d1, m1, ok1 := c.polyOf(v.Args[0], b, leaves, depth+1)
		d2, m2, ok2 := c.polyOf(v.Args[1], b, leaves, depth+1)
		return max(d1, d2), max(m1, m2) + 1, ok1 && ok2
	case OpMul:
		d1, m1, ok1 := c.polyOf(v.Args[0], b, leaves, depth+1)
		d2, m2, ok2 := c.polyOf(v.Args[1], b, leaves, depth+1)
		return d1 + d2, m1 + m2, ok1 && ok2 && d1+d2 <= 1
	case OpShl:
		if k := v.Args[1]; k.Op == OpConst && k.Imm <= 62 {
			d, m, ok := c.polyOf(v.Args[0], b, leaves, depth+1)
			return d, m + int(k.Imm), ok
		}
	case OpNeg:
		return c.polyOf(v.Args[0], b, leaves, depth+1)
	}
	return 0, 0, false
}

// linearExtremes tests, at the end of the preheader, that the index of
// ch lies in [0, len) at the counter's two extremes, init and last, with
// every leaf, init and limit within the bound that keeps them exact.
func (t *preheaderTest) linearExtremes(c *countedLoop, ch loopCheck, init, limit, last *Value) {
	bound := int64(1) << ch.linear.bound
	t.inRange(init, -bound, bound)
	t.inRange(limit, -bound, bound)
	for _, a := range ch.linear.leaves {
		t.inRange(a, -bound, bound)
	}
	length := t.f.NewValue(t.b, OpBitcast, TU64, ch.length)
	for _, iv := range []*Value{init, last} {
		at := t.evalAt(c, ch.expr, iv, map[*Value]*Value{})
		x := t.f.NewValue(t.b, OpBitcast, TU64, at)
		t.and(launchFact(t.f.NewValue(t.b, OpLt, TBool, x, length)))
	}
}

// evalAt computes v in the preheader with c's counter (or its sign
// extension) replaced by iv, an I64 value.
func (t *preheaderTest) evalAt(c *countedLoop, v, iv *Value, memo map[*Value]*Value) *Value {
	switch {
	case v == c.iv || v.Op == OpConvert && v.Args[0] == c.iv:
		return iv
	case !c.l.Blocks[v.Block]:
		return v
	case v.Op == OpConst: // defined in the loop, after the preheader
		return t.f.NewConst(t.b, v.Type, v.Imm)
	}
	if r, ok := memo[v]; ok {
		return r
	}
	args := make([]*Value, len(v.Args))
	for i, a := range v.Args {
		args[i] = t.evalAt(c, a, iv, memo)
	}
	r := t.f.NewValue(t.b, v.Op, v.Type, args...)
	r.Imm = v.Imm
	memo[v] = r
	return r
}
