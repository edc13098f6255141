package kir

import (
	"math"
	"sort"
)

// Guard bounds, for launch facts (facts.go). A stencil's accesses sit
// under the guard that keeps each thread inside the grid,
//
//	if x >= 1 && x < nx-1 && y >= 1 && y < ny-1 && z >= 1 && z < nz-1 {
//		c := z*(nx*ny) + y*nx + x
//		... in[c-nx*ny] ... in[c+nx*ny] ... out[c] ...
//	}
//
// and every index is a polynomial in the guarded thread values x, y, z
// (each of degree one in its monomial) and in uniform values: parameters,
// block and grid dimensions. Replacing each thread value by the guard's
// bound on the side its coefficient's sign picks gives the smallest and
// largest index any thread passing the guard can compute, as polynomials
// in uniform values only: (nz-1)*nx*ny - nx - 2 for in[c+plane], nx+1 for
// in[c-plane]. When those lie in [0, len), every thread's check passes:
// a test of uniform values, which the host can decide once per launch,
// implies a check that every thread would make. Lower bounds provably
// non-negative need no test. The same holds under a loop's condition
// (i < n bounds i in the body) and for values the range prover bounds by
// constants (tid.x <= 1023).
//
// Exactly: every uniform atom of the polynomials (the values they are
// built from, nx, ny, nz above) is proved or tested to lie in [0, 2^K),
// K chosen so that every polynomial involved (the guard's bounds, the
// index with its thread values in their ranges, the smallest and largest
// index) is below 2^62 in magnitude. Then each computes its true value in
// 64 bits (the arithmetic is modulo 2^64 and the true value fits), the
// guard's comparisons are of true values, a thread passing them has each
// thread value within its true bounds, and with every monomial of uniform
// atoms non-negative its index lies between the true smallest and
// largest index. The tests may be stronger than the check (a grid of
// 2^21 columns fails them); then the launch runs the kernel as compiled,
// with its checks.
//
// Sign reasoning (is a lower bound non-negative) substitutes a = lb(a) +
// a' for each atom, with lb(a) its lower bound (0, or what a thread
// passing the guard implies: x >= 1 and x < nx-1 give nx >= 3), and asks
// that every coefficient of the expanded polynomial in the a' be
// non-negative: a sufficient condition that proves nx*ny - nx >= 0 where
// interval arithmetic over independent monomials cannot.

// threadBound is the guard's range of a thread value: lo <= t <= hi, both
// forms over uniform atoms.
type threadBound struct{ lo, hi lform }

// guardTests returns tests of uniform values that imply u64(idx) <
// u64(length) (idx >= 0 when length is nil) in every thread that reaches
// the end of b, where the facts of the branches dominating b hold. ok is
// false when a thread value of idx has no bound or the forms would not
// stay exact. atoms is where the tests' monomials are kept.
//
// ivs bound loop counters further than the facts at b do (guardloop.go).
func guardTests(p *prover, atoms map[string][]*Value, b *Block, idx, length *Value, ivs ...ivBound) (tests []rtest, ok bool) {
	if idx.Type.Kind != I64 {
		return nil, false
	}
	fs := &forms{memo: map[*Value]lform{}, atoms: atoms, uniform: map[*Value]bool{}, stop: map[*Value]bool{}}
	fs.widened = widener(p, fs, b)
	tb := guardThreadBounds(p, fs, b)
	for _, ib := range ivs {
		lo, hi := fs.of(ib.init, 0), fs.of(ib.limit, 0).add(constForm(ib.below), -1)
		if !fs.small(lo) || !fs.small(hi) {
			return nil, false
		}
		tb[ib.iv] = &threadBound{lo: lo, hi: hi}
	}
	for t := range tb {
		fs.stop[t] = true
	}
	form := fs.of(idx, 0)
	p.boundThreadAtoms(fs, b, form, tb)
	lo, hi, ok := fs.extremes(form, tb)
	if !ok {
		return nil, false
	}
	// The forms the argument rests on: the bounds of the thread values
	// idx holds, and its extremes.
	used := []lform{lo, hi}
	for m := range form.terms {
		for _, a := range fs.atoms[m] {
			if t := tb[a]; t != nil {
				used = append(used, t.lo, t.hi)
			}
		}
	}
	uatoms := map[*Value]bool{}
	for _, fm := range used {
		for m := range fm.terms {
			for _, a := range fs.atoms[m] {
				uatoms[a] = true
			}
		}
	}
	k := exactBits(p, fs, b, tb, append(used, form))
	if k == 0 {
		return nil, false
	}
	lb := map[*Value]int64{}
	var tested []*Value
	for a := range uatoms {
		if r := p.rng(a, b); r.lo >= 0 && r.hi < 1<<k {
			lb[a] = r.lo
		} else {
			lb[a] = 0
			tested = append(tested, a)
		}
	}
	// A thread passing the guard has lo <= hi: a bound hi-lo = a+c with
	// one atom says a >= -c.
	for _, t := range tb {
		d := t.hi.add(t.lo, -1)
		if len(d.terms) != 1 || d.k > 0 || d.k < -formConst {
			continue
		}
		for m, c := range d.terms {
			if as := fs.atoms[m]; c == 1 && len(as) == 1 && lb[as[0]] < -d.k {
				lb[as[0]] = -d.k
			}
		}
	}
	sort.Slice(tested, func(i, j int) bool { return tested[i].ID < tested[j].ID })
	for _, a := range tested {
		tests = append(tests, rtest{form: fs.atom(a), bound: 1 << k})
	}
	if !fs.nonNegative(lo, lb) {
		tests = append(tests, rtest{form: lo, bound: exactMax})
	}
	if length != nil {
		tests = append(tests, rtest{form: hi, length: length})
	}
	return tests, true
}

// boundThreadAtoms bounds the thread values of form that no guard
// bounds: a thread or block index by its block or grid dimension (ctaid.y
// <= nctaid.y-1), or else by the constant bounds the range prover gives
// (tid.x in [0, 1023]).
func (p *prover) boundThreadAtoms(fs *forms, b *Block, form lform, tb map[*Value]*threadBound) {
	for m := range form.terms {
		for _, a := range fs.atoms[m] {
			if tb[a] != nil || fs.isUniform(a) {
				continue
			}
			if dim := p.dimOf(a, b); dim != nil {
				tb[a] = &threadBound{lo: constForm(0), hi: fs.atom(dim).add(constForm(1), -1)}
				continue
			}
			r := p.rng(a, b)
			lo, okLo := constBound(r.lo)
			hi, okHi := constBound(r.hi)
			if okLo && okHi {
				tb[a] = &threadBound{lo: lo, hi: hi}
			}
		}
	}
}

// dimOf returns, for a thread or block index a (the special register or
// a conversion of it to int64), the dimension that bounds it as an int64
// available at b: nctaid.d for ctaid.d, and ntid.d for tid.d where the
// kernel does not fix its block. It returns nil for any other value. A
// conversion keeps the register's value: it is below 2^31.
func (p *prover) dimOf(a *Value, b *Block) *Value {
	x := a
	for (x.Op == OpConvert || x.Op == OpBitcast) && x.Type.Kind.IsInt() && x.Type.Kind.Bits() >= 32 {
		x = x.Args[0]
	}
	if x.Op != OpSpecial || a.Type.Kind != I64 {
		return nil
	}
	d := x.Index % 3
	switch x.Index / 3 {
	case 0:
		if p.f.Block[d] > 0 {
			return nil
		}
		return p.dimValue(BlockDimX+d, b)
	case 1:
		return p.dimValue(GridDimX+d, b)
	}
	return nil
}

// dimValue returns the special register idx converted to int64, computed
// where b sees it: a conversion the function has, or one added to the
// entry block.
func (p *prover) dimValue(idx int, b *Block) *Value {
	for _, v := range p.specials()[idx] {
		if v.Op == OpConvert && v.Type.Kind == I64 && v.Args[0].Type.Kind == U32 && p.dom.Dominates(v.Block, b) {
			return v
		}
	}
	entry := p.f.Blocks[0]
	s := p.f.NewValue(entry, OpSpecial, TU32)
	s.Index = idx
	v := p.f.NewValue(entry, OpConvert, TI64, s)
	p.dims[idx] = append(p.dims[idx], s, v)
	return v
}

// widener returns the forms' view of 32-bit values sign-extended to 64
// bits (forms.widened): a constant; a value the function already
// extends (the guard compares that extension); a sum or difference the
// range prover shows does not wrap in 32 bits, as the sum of the
// extended operands. After NarrowIndices, in[(y+dy)*nx+x] indexes with
// sext(y32+dy), which is sext(y32)+dy, and the guard bounds sext(y32).
func widener(p *prover, fs *forms, b *Block) func(*Value) (lform, bool) {
	if p.exts == nil {
		p.exts = map[*Value][]*Value{}
		for _, x := range p.f.Blocks {
			for _, v := range x.Values {
				if v.Op == OpConvert && v.Type.Kind == I64 && v.Args[0].Type.Kind == I32 {
					p.exts[v.Args[0]] = append(p.exts[v.Args[0]], v)
				}
			}
		}
	}
	ext := map[*Value]*Value{} // the first extension of each value available at b
	lookup := func(x *Value) *Value {
		if e, ok := ext[x]; ok {
			return e
		}
		var e *Value
		for _, v := range p.exts[x] {
			if p.dom.Dominates(v.Block, b) {
				e = v
				break
			}
		}
		ext[x] = e
		return e
	}
	var widened func(x *Value, depth int) (lform, bool)
	widened = func(x *Value, depth int) (lform, bool) {
		switch {
		case x.Op == OpConst:
			return constForm(int64(int32(x.Imm))), true
		case lookup(x) != nil && (fs.stop[ext[x]] || x.Op != OpAdd && x.Op != OpSub):
			return fs.atom(ext[x]), true
		case (x.Op == OpAdd || x.Op == OpSub) && depth < 8:
			if r := p.rng(x, b); r.lo < math.MinInt32 || r.hi > math.MaxInt32 {
				return lform{}, false
			}
			a, okA := widened(x.Args[0], depth+1)
			c, okC := widened(x.Args[1], depth+1)
			if !okA || !okC {
				return lform{}, false
			}
			sign := int64(1)
			if x.Op == OpSub {
				sign = -1
			}
			return a.add(c, sign), true
		case lookup(x) != nil:
			return fs.atom(ext[x]), true
		}
		return lform{}, false
	}
	return func(x *Value) (lform, bool) { return widened(x, 0) }
}

// constBound is a bound the range prover gives as a constant, as a form,
// when it is small enough to keep the forms exact.
func constBound(x int64) (lform, bool) {
	return constForm(x), x >= -formConst && x <= formConst
}

// exactBits returns the largest K in [8, 40] for which every form of fms
// stays below 2^62 in magnitude when each uniform atom lies in [0, 2^K)
// (or its proved range) and each thread value in its bounds; 0 if none.
func exactBits(p *prover, fs *forms, b *Block, tb map[*Value]*threadBound, fms []lform) int {
	for k := 40; k >= 8; k-- {
		bound := func(a *Value) float64 {
			if r := p.rng(a, b); r.lo >= 0 && r.hi < 1<<k {
				return float64(r.hi)
			}
			return math.Ldexp(1, k)
		}
		ok := true
		for _, fm := range fms {
			s := math.Abs(float64(fm.k))
			for m, c := range fm.terms {
				x := math.Abs(float64(c))
				for _, a := range fs.atoms[m] {
					if t := tb[a]; t != nil {
						x *= max(fs.magnitude(t.lo, bound), fs.magnitude(t.hi, bound))
					} else {
						x *= bound(a)
					}
				}
				s += x
			}
			ok = ok && s < exactMax
		}
		if ok {
			return k
		}
	}
	return 0
}

// guardThreadBounds returns the thread values (not uniform, 64-bit) that
// the facts holding at b bound below and above by uniform forms: a guard
// x < nx-1 gives hi = nx-2; a constant bound may come from the range
// prover instead (x >= 1 as a fact, or tid.x <= 1023).
func guardThreadBounds(p *prover, fs *forms, b *Block) map[*Value]*threadBound {
	lo, hi := map[*Value]lform{}, map[*Value]lform{}
	var order []*Value // (map order would make the tests' order vary)
	seen := map[*Value]bool{}
	note := func(m map[*Value]lform, t *Value, fm lform) {
		if !seen[t] {
			seen[t] = true
			order = append(order, t)
		}
		if _, ok := m[t]; !ok {
			m[t] = fm
		}
	}
	for _, f := range p.facts(b) {
		if f.unsigned || f.a.Type.Kind != I64 || f.b.Type.Kind != I64 {
			continue
		}
		var strict int64
		if f.strict {
			strict = 1
		}
		switch ua, ub := fs.isUniform(f.a), fs.isUniform(f.b); {
		case ub && !ua:
			note(hi, f.a, fs.of(f.b, 0).add(lform{k: strict}, -1))
		case ua && !ub:
			note(lo, f.b, fs.of(f.a, 0).add(lform{k: strict}, 1))
		}
	}
	out := map[*Value]*threadBound{}
	for _, t := range order {
		r := p.rng(t, b)
		l, okl := lo[t]
		h, okh := hi[t]
		if !okl {
			l, okl = constBound(r.lo)
		}
		if !okh {
			h, okh = constBound(r.hi)
		}
		if okl && okh && fs.small(l) && fs.small(h) {
			out[t] = &threadBound{lo: l, hi: h}
		}
	}
	return out
}

// extremes returns the smallest and largest value of form over the
// thread values' ranges, each monomial's uniform part taken as
// non-negative: the thread value at the bound its coefficient's sign
// picks. A monomial with a thread value that tb does not bound, or with
// two, fails.
func (fs *forms) extremes(form lform, tb map[*Value]*threadBound) (lo, hi lform, ok bool) {
	lo, hi = constForm(form.k), constForm(form.k)
	for m, c := range form.terms {
		var t *Value
		var rest []*Value
		for _, a := range fs.atoms[m] {
			switch {
			case fs.isUniform(a):
				rest = append(rest, a)
			case t == nil && tb[a] != nil:
				t = a
			default:
				return lform{}, lform{}, false
			}
		}
		r := constForm(1)
		if len(rest) > 0 {
			k := monoKey(rest)
			fs.atoms[k] = rest
			r = lform{terms: map[string]int64{k: 1}}
		}
		if t == nil {
			lo, hi = lo.add(r.scale(c), 1), hi.add(r.scale(c), 1)
			continue
		}
		small, large := tb[t].lo, tb[t].hi
		if c < 0 {
			small, large = large, small
		}
		lo = lo.add(fs.product(small, r).scale(c), 1)
		hi = hi.add(fs.product(large, r).scale(c), 1)
	}
	return lo, hi, len(lo.terms) <= 4*formTerms && len(hi.terms) <= 4*formTerms
}

// magnitude bounds |fm| given a bound on each atom's magnitude.
func (fs *forms) magnitude(fm lform, bound func(*Value) float64) float64 {
	s := math.Abs(float64(fm.k))
	for m, c := range fm.terms {
		x := math.Abs(float64(c))
		for _, a := range fs.atoms[m] {
			x *= bound(a)
		}
		s += x
	}
	return s
}

// nonNegative reports whether fm >= 0 for every value of its atoms at or
// above their lower bounds lb (atoms not in lb are not known
// non-negative: false): after substituting a = lb(a) + a', every
// coefficient, the constant included, is non-negative.
func (fs *forms) nonNegative(fm lform, lb map[*Value]int64) bool {
	coef := map[string]float64{"": float64(fm.k)}
	for m, c := range fm.terms {
		as := fs.atoms[m]
		for _, a := range as {
			if _, ok := lb[a]; !ok {
				return false
			}
		}
		// Each subset of the monomial's atoms keeps its a' and takes
		// the others' lower bounds.
		for mask := 0; mask < 1<<len(as); mask++ {
			x := float64(c)
			var kept []*Value
			for i, a := range as {
				if mask&(1<<i) != 0 {
					kept = append(kept, a)
				} else {
					x *= float64(lb[a])
				}
			}
			if x != 0 {
				coef[monoKey(kept)] += x
			}
		}
	}
	for _, x := range coef {
		if x < 0 || x > exactMax {
			return false
		}
	}
	return true
}
