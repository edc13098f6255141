package lincon

import (
	"math"
	"math/bits"
)

// Bound propagation: the solver's cheap test, run before and during the
// search on every alternative of every clause (prune, filterAlts).

// boundLimit keeps bound propagation away from overflow: a bound beyond
// it counts as none.
const boundLimit = 1 << 40

// boundRounds bounds the rounds of bound propagation, which may otherwise
// creep a bound by one per round (x ≥ y + 1, y ≥ x − 2).
const boundRounds = 8

// boundsFeasible propagates the bounds of the variables through cs and
// reports false when that proves cs infeasible (box.propagate).
func boundsFeasible(n int, cs []Constraint, sc *scratch) bool {
	b := &sc.box[2]
	b.reset(n)
	return b.propagate(cs, boundRounds)
}

// boxes returns two boxes of n variables, the first without bounds, both
// sc's until the next call.
func (sc *scratch) boxes(n int) (*box, *box) {
	sc.box[0].reset(n)
	sc.box[1].reset(n)
	return &sc.box[0], &sc.box[1]
}

// box holds a lower and an upper bound per variable, ±boundLimit for
// none, and which constraints of its run a pass of propagation may find
// something new in (dirty), so that a pass visits those only.
//
// A constraint's pass reads one side of each of its terms' ranges (the
// side that maximizes aᵢxᵢ) and tightens only the other side, so a second
// pass over it, with none of its variables' bounds changed since the
// first ended, tightens nothing and finds no contradiction: skipping it
// leaves every bound and every answer as the full pass would. A change
// to a bound marks the constraints whose pass reads it (occs). An
// equality is two such halves, ≥ and ≤, each marked on its own; a
// constraint naming a variable twice is always visited (sticky).
type box struct {
	lo, hi []int64
	// Bit 2i of dirty is the ≥ half of the run's constraint i, bit 2i+1
	// its ≤ half (an equality's only).
	dirty, sticky []uint64
	// own indexes the constraints this box's run added; base, those of
	// the box it resumed (resume), whose first pass they had.
	own, base occs
	count     []int32 // own's counting scratch
	// unmarked: the pass under way is propagate's over a few
	// constraints, which keeps no marks.
	unmarked bool
}

// occs lists, for each bound (readKey: 2v for variable v's lower, 2v+1
// for its upper), the halves of constraints whose pass reads it:
// list[start[k]:start[k+1]] (empty when start is).
type occs struct {
	start, list []int32
}

// of returns the halves that read bound k.
func (o *occs) of(k int) []int32 {
	if len(o.start) == 0 {
		return nil
	}
	return o.list[o.start[k]:o.start[k+1]]
}

// reset makes b a box of n variables without bounds, in b's memory when
// it has room.
func (b *box) reset(n int) {
	if cap(b.lo) < n {
		b.lo, b.hi = make([]int64, n), make([]int64, n)
	}
	b.lo, b.hi = b.lo[:n], b.hi[:n]
	for i := range b.lo {
		b.lo[i], b.hi[i] = -boundLimit, boundLimit
	}
}

// bounds gives b the bounds of from, which has as many variables.
func (b *box) bounds(from *box) {
	copy(b.lo, from.lo)
	copy(b.hi, from.hi)
}

// resume makes b the state of from after its pass over the first skip
// constraints of a run from no marks (from did not resume another), for
// b.run to go on from there: the bounds, and which of those constraints
// a change since their pass left marked.
func (b *box) resume(from *box, skip int) {
	b.bounds(from)
	w := (2*skip + 63) / 64
	b.dirty = append(b.dirty[:0], from.dirty[:w]...)
	b.sticky = append(b.sticky[:0], from.sticky[:w]...)
	b.base = from.own
}

// propagate tightens b through cs (from Σ aᵢxᵢ + c ≥ 0,
// aⱼxⱼ ≥ −c − Σ_{i≠j} max aᵢxᵢ), at most rounds passes, and reports false
// when some variable is left with an empty range or some constraint
// cannot hold within the ranges. False is a proof of infeasibility over
// the integers (each derived bound is rounded inwards soundly); true
// proves nothing. A pass is linear in the size of cs, much cheaper than
// elimination, and refutes most of the sign cases of products.
//
// A few constraints (an alternative's own) are passed over whole: their
// index of bounds would cost more than the passes it saves.
func (b *box) propagate(cs []Constraint, rounds int) bool {
	if len(cs) > fewConstraints {
		ok, _ := b.run(cs, rounds, 0, false)
		return ok
	}
	n := len(b.lo)
	for _, c := range cs {
		for _, t := range c.Terms {
			if int(t.Var) < 0 || int(t.Var) >= n {
				return true // elimConj reports it
			}
		}
	}
	b.unmarked = true
	for range rounds {
		any := false
		for _, c := range cs {
			ch, ok := b.tighten(c, 1)
			if ok && c.Eq {
				var ch2 bool
				ch2, ok = b.tighten(c, -1)
				ch = ch || ch2
			}
			if !ok {
				return false
			}
			any = any || ch
		}
		if !any {
			break
		}
	}
	return true
}

// fewConstraints is the most constraints propagate passes over whole.
const fewConstraints = 8

// run is propagate resumed after the first skip constraints of its first
// pass, which left b as it is (tighter: any0) and found no contradiction
// (b.resume; with skip 0, b starts with no marks). It also returns
// whether its last pass tightened a bound.
func (b *box) run(cs []Constraint, rounds, skip int, any0 bool) (ok, tightened bool) {
	n := len(b.lo)
	// The first skip constraints were checked by the pass that b resumes.
	for _, c := range cs[skip:] {
		for _, t := range c.Terms {
			if int(t.Var) < 0 || int(t.Var) >= n {
				return true, false // elimConj reports it
			}
		}
	}
	if skip == 0 {
		b.base = occs{}
	}
	b.mark(cs, skip)
	b.unmarked = false
	nh := 2 * len(cs)
	any := false
	for round := 0; round < rounds; round++ {
		any = false
		from := 0
		if round == 0 {
			any, from = any0, 2*skip
		}
		for h := b.next(from, nh); h < nh; h = b.next(h+1, nh) {
			sign := int64(1)
			if h%2 == 1 {
				sign = -1
			}
			ch, ok := b.tighten(cs[h/2], sign)
			if b.sticky[h/64]&(1<<(h%64)) == 0 {
				b.dirty[h/64] &^= 1 << (h % 64)
			}
			if !ok {
				return false, any
			}
			any = any || ch
		}
		if !any {
			break
		}
	}
	return true, any
}

// mark marks the halves of cs[skip:] dirty, those of constraints naming a
// variable twice sticky too, and indexes them by the bound they read in
// b.own.
func (b *box) mark(cs []Constraint, skip int) {
	nh := 2 * len(cs)
	w := (nh + 63) / 64
	b.dirty, b.sticky = grownBits(b.dirty, 2*skip, w), grownBits(b.sticky, 2*skip, w)
	nk := 2 * len(b.lo)
	if cap(b.count) < nk+1 {
		b.count = make([]int32, nk+1)
	}
	count := b.count[:nk+1]
	clear(count)
	for i, c := range cs[skip:] {
		h := 2 * (skip + i)
		for j, t := range c.Terms {
			if t.Coef != 0 {
				count[readKey(t, 1)]++
				if c.Eq {
					count[readKey(t, -1)]++
				}
			}
			for _, u := range c.Terms[:j] {
				if u.Var == t.Var {
					setBit(b.sticky, h)
					if c.Eq {
						setBit(b.sticky, h+1)
					}
				}
			}
		}
		setBit(b.dirty, h)
		if c.Eq {
			setBit(b.dirty, h+1)
		}
	}
	// count becomes start: key k's halves go to list[start[k]:start[k+1]].
	if cap(b.own.start) < nk+1 {
		b.own.start = make([]int32, nk+1)
	}
	start := b.own.start[:nk+1]
	sum := int32(0)
	for k := range nk {
		start[k], sum = sum, sum+count[k]
	}
	start[nk] = sum
	if cap(b.own.list) < int(sum) {
		b.own.list = make([]int32, sum)
	}
	list := b.own.list[:sum]
	copy(count, start) // the next free slot of each key
	for i, c := range cs[skip:] {
		h := int32(2 * (skip + i))
		for _, t := range c.Terms {
			if t.Coef == 0 {
				continue
			}
			k := readKey(t, 1)
			list[count[k]] = h
			count[k]++
			if c.Eq {
				k := readKey(t, -1)
				list[count[k]] = h + 1
				count[k]++
			}
		}
	}
	b.own = occs{start, list}
}

// readKey is the bound that the pass of sign sign over a constraint with
// term t reads (maxTerm): 2v for v's lower bound, 2v+1 for its upper.
func readKey(t Term, sign int64) int {
	if sign*t.Coef > 0 {
		return 2*int(t.Var) + 1
	}
	return 2 * int(t.Var)
}

// grownBits returns bits with its first keep bits as they are and the
// rest of its w words clear.
func grownBits(bits []uint64, keep, w int) []uint64 {
	kw := (keep + 63) / 64
	bits = bits[:min(kw, len(bits))]
	if r := keep % 64; r != 0 && kw > 0 {
		bits[kw-1] &= 1<<r - 1
	}
	for len(bits) < w {
		bits = append(bits, 0)
	}
	return bits[:w]
}

func setBit(bits []uint64, i int) { bits[i/64] |= 1 << (i % 64) }

// next returns the first dirty half at or after h, or nh.
func (b *box) next(h, nh int) int {
	for h < nh {
		word := b.dirty[h/64] >> (h % 64)
		if word != 0 {
			return min(h+bits.TrailingZeros64(word), nh)
		}
		h = (h/64 + 1) * 64
	}
	return nh
}

// changed marks the halves that read bound k (readKey), which just
// changed.
func (b *box) changed(k int) {
	if b.unmarked {
		return
	}
	for _, h := range b.base.of(k) {
		setBit(b.dirty, int(h))
	}
	for _, h := range b.own.of(k) {
		setBit(b.dirty, int(h))
	}
}

// maxTerm is a·x's maximum over x's range, inf when the range is open on
// that side.
func (b *box) maxTerm(a int64, v Var) int64 {
	if a > 0 {
		if b.hi[v] >= boundLimit {
			return inf
		}
		return a * b.hi[v]
	}
	if b.lo[v] <= -boundLimit {
		return inf
	}
	return a * b.lo[v]
}

// inf stands for an unbounded term's maximum.
const inf = math.MaxInt64 / 4

// tighten applies Σ terms + c ≥ 0 (sign +1) or ≤ 0 (sign −1): it reads
// the side of each term's range that maximizes sign·aᵢxᵢ and tightens the
// other.
func (b *box) tighten(c Constraint, sign int64) (changed, ok bool) {
	lo, hi := b.lo, b.hi
	// The sum of the maxima of sign·aᵢxᵢ, counting the unbounded ones.
	var sum int64
	unb := 0
	for _, t := range c.Terms {
		if t.Coef == 0 {
			continue
		}
		if abs(t.Coef) >= boundLimit {
			return false, true
		}
		m := b.maxTerm(sign*t.Coef, t.Var)
		if m == inf {
			unb++
		} else {
			sum += m
		}
	}
	k := sign * c.Const
	if unb == 0 && sum+k < 0 {
		return false, false
	}
	if unb > 1 {
		return false, true
	}
	for _, t := range c.Terms {
		a := sign * t.Coef
		if a == 0 {
			continue
		}
		rest := sum
		if m := b.maxTerm(a, t.Var); m != inf {
			if unb == 1 {
				continue // only the unbounded term gets a bound
			}
			rest -= m
		}
		// a·x ≥ −k − rest
		need := -k - rest
		if abs(need) >= inf/2 {
			continue
		}
		if a > 0 {
			if l := ceilDiv(need, a); l > lo[t.Var] {
				lo[t.Var], changed = l, true
				b.changed(2 * int(t.Var))
			}
		} else if h := floorDiv(need, a); h < hi[t.Var] {
			hi[t.Var], changed = h, true
			b.changed(2*int(t.Var) + 1)
		}
		if lo[t.Var] > hi[t.Var] {
			return changed, false
		}
	}
	return changed, true
}
