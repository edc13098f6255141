package twothread

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// x ^ j for a value j both threads share (the partner of a bitonic
// compare-and-swap, ixj := tid ^ j) is modelled as a fresh per-thread value
// y with the facts that make such kernels provable: y ≠ x unless j = 0,
// y ≥ 0 when x and j are, and, between the two threads, that x ↦ x ^ j is
// a bijection and an involution: x₁ = x₂ ⟺ y₁ = y₂ and x₁ = y₂ ⟺ y₁ = x₂.
// With the guard ixj > tid this proves that the pairs (tid, tid ^ j) of
// distinct threads are disjoint.

// xorPair holds x and x ^ j as threads 1 and 2 see them.
type xorPair struct {
	x, y [3]poly
	set  [3]bool
}

// xorShared returns the model of x ^ j (at SSA value ref) for thread t when
// exactly one operand is shared; ok is false otherwise.
func (p *problem) xorShared(ref valRef, x, j poly, t int) (poly, bool) {
	if t == 0 {
		return nil, false
	}
	if !p.isSharedPoly(j) {
		if !p.isSharedPoly(x) {
			return nil, false
		}
		x, j = j, x
	}
	if p.isSharedPoly(x) {
		return nil, false
	}
	// A model need not pick y = x ^ j: it is an example, not a run.
	p.approx = true
	y := p.aux(false, t)
	zero := constPoly(0)
	p.clauses = append(p.clauses,
		clause{{lt(x, y)}, {lt(y, x)}, {eq(j)}},
		clause{{lt(x, zero)}, {lt(j, zero)}, {ge(y)}})
	if p.xors == nil {
		p.xors = map[valRef]*xorPair{}
	}
	xp := p.xors[ref]
	if xp == nil {
		xp = &xorPair{}
		p.xors[ref] = xp
	}
	xp.x[t], xp.y[t], xp.set[t] = x, y, true
	if xp.set[1] && xp.set[2] {
		x1, y1, x2, y2 := xp.x[1], xp.y[1], xp.x[2], xp.y[2]
		iff := func(a1, a2, b1, b2 poly) {
			// a1 = a2 → b1 = b2, and back.
			p.clauses = append(p.clauses,
				clause{{lt(a1, a2)}, {lt(a2, a1)}, {eq(sub(b1, b2))}},
				clause{{lt(b1, b2)}, {lt(b2, b1)}, {eq(sub(a1, a2))}})
		}
		iff(x1, x2, y1, y2)
		iff(x1, y2, y1, x2)
	}
	return y, true
}

// evalXor models x ^ y when neither operand is a constant.
func (p *problem) evalXor(fr *frame, v *ssa.BinOp, t int) (poly, bool) {
	if v.Op != token.XOR {
		return nil, false
	}
	x, y := p.eval(fr, v.X, t), p.eval(fr, v.Y, t)
	if _, c := x.constant(); c {
		return nil, false
	}
	if _, c := y.constant(); c {
		return nil, false
	}
	return p.xorShared(valRef{fr, v}, x, y, t)
}
