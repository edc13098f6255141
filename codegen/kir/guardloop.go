package kir

import (
	"math"
	"math/bits"
)

// Guarded loop checks, for LoopChecks. A tiled matmul's tile loop
//
//	if n%32 != 0 || t.GridDim().X*32 != n { panic(...) }
//	...
//	for k0 := 0; k0 < n; k0 += 32 {
//		as[ty][tx] = a[row*n+k0+tx]
//		bs[ty][tx] = b[(k0+ty)*n+col]
//		t.Barrier()
//		...
//	}
//
// holds barriers, so its versioning test must be the same in every thread
// of the block, and its indices hold thread values (row, tx) and products
// of the counter with parameters ((k0+ty)*n), which the affine extremes
// of LoopChecks do not cover. Here the counter is one more thread value
// with uniform bounds, init <= k0 <= last, and the guard bounds
// (guardbound.go) turn each check into tests of uniform values: the
// largest index any thread computes, 32*nctaid.y*n - 1 for a[...], below
// the length. Those tests are what the loop is versioned on, once before
// it, and they are launch facts.
//
// The counter's last value is limit-step when limit-init is a multiple
// of step, as the guard's n%32 == 0 says here (divisor), and limit-1
// otherwise; where step is a power of two that no fact makes a divisor,
// the test also asks (limit-init) & (step-1) == 0: without it a 32-wide
// tile would be taken as reaching 31 elements past the row, and the
// tests would fail on every n×n matrix.
//
// Exactly, with guardTests' argument: the counter is an int64 stepping
// by a positive constant from init while below limit, both uniform forms
// whose values are exact (their atoms are tested or proved small), so it
// takes true values in [init, limit-1], congruent to init modulo step;
// with limit ≡ init it is at most limit-step. Every thread value then
// lies within its true bounds and every index between the extremes the
// tests bound.

// ivBound bounds a loop counter: init <= iv <= limit-below.
type ivBound struct {
	iv, init, limit *Value
	below           int64
}

// guardedLoop is what planGuardedLoop found: the checks the copy drops,
// the tests of uniform values that imply them, and whether the test must
// also ask that step divide limit-init.
type guardedLoop struct {
	checks  []loopCheck
	tests   []rtest
	fs      *forms
	aligned bool
}

// planGuardedLoop finds the checks of c that run in every iteration and
// that tests of uniform values imply, through the guards dominating them
// and the counter's bounds. It reports false when there are none.
func planGuardedLoop(f *Func, c *countedLoop, dom *DomTree, loops []*Loop) (guardedLoop, bool) {
	if c.iv.Type.Kind != I64 {
		return guardedLoop{}, false
	}
	p := newProver(f, dom)
	fs := &forms{memo: map[*Value]lform{}, atoms: map[string][]*Value{}, uniform: map[*Value]bool{}}
	if !fs.isUniform(c.init) || !fs.isUniform(c.limit) {
		return guardedLoop{}, false
	}
	g := guardedLoop{fs: fs}
	ib := ivBound{iv: c.iv, init: c.init, limit: c.limit, below: 1}
	if s := c.stepConst; s > 1 {
		switch {
		case p.divides(s, c.init, c.pre) && p.divides(s, c.limit, c.pre):
			ib.below = s
		case bits.OnesCount64(uint64(s)) == 1:
			ib.below, g.aligned = s, true
		}
	}
	ivs := append([]ivBound{ib}, outerCounters(p, fs, c.l, loops)...)
	seen := map[string]bool{}
	for _, b := range f.Blocks { // (in order: the tests' order is the output's)
		if !c.l.Blocks[b] || !isCheck(b) || !dom.Dominates(b, c.latch) {
			continue
		}
		idx, length, ok := unsignedLess(b.Cond)
		if !ok || c.l.Blocks[length.Block] || length.Type.Kind != I64 {
			continue
		}
		tests, ok := guardTests(p, fs.atoms, b, idx, length, ivs...)
		if !ok || !g.outsideLoop(c.l, tests) {
			continue
		}
		g.checks = append(g.checks, loopCheck{b: b})
		for _, t := range tests {
			if k := t.key(); !seen[k] {
				seen[k] = true
				g.tests = append(g.tests, t)
			}
		}
	}
	g.tests = p.provenTests(fs, c.pre, g.tests)
	return g, len(g.checks) > 0
}

// outerCounters bounds the counters of the counted loops around l with
// uniform bounds, as planGuardedLoop bounds l's own: init <= iv <=
// limit-step where step divides init and limit, else limit-1. Inside
// such a loop the header's test iv < limit held, and iv stepped up from
// init without wrapping around, limit being exact (its atoms tested or
// proved small where the tests use it, and loop-invariant: the same in
// every earlier iteration).
func outerCounters(p *prover, fs *forms, l *Loop, loops []*Loop) []ivBound {
	var ivs []ivBound
	for _, o := range loops {
		if o == l || !o.Blocks[l.Header] {
			continue
		}
		c, ok := countLoop(o)
		if !ok || c.iv.Type.Kind != I64 || !fs.isUniform(c.init) || !fs.isUniform(c.limit) {
			continue
		}
		ib := ivBound{iv: c.iv, init: c.init, limit: c.limit, below: 1}
		if s := c.stepConst; s > 1 && p.divides(s, c.init, c.pre) && p.divides(s, c.limit, c.pre) {
			ib.below = s
		}
		ivs = append(ivs, ib)
	}
	return ivs
}

// outsideLoop reports whether every atom of tests is computed outside l,
// so that the tests can be computed before it.
func (g *guardedLoop) outsideLoop(l *Loop, tests []rtest) bool {
	for _, t := range tests {
		for m := range t.form.terms {
			for _, a := range g.fs.atoms[m] {
				if l.Blocks[a.Block] {
					return false
				}
			}
		}
		if t.length != nil && l.Blocks[t.length.Block] {
			return false
		}
	}
	return true
}

// proved reports whether the guards prove every check g drops: the loop
// needs no copy.
func (g *guardedLoop) proved() bool { return len(g.tests) == 0 && !g.aligned }

// dropChecks removes the checks g proves.
func (g *guardedLoop) dropChecks() {
	for _, ch := range g.checks {
		b := ch.b
		trap := b.Succs[1]
		b.Term, b.Cond, b.Succs = TermJump, nil, b.Succs[:1]
		trap.Preds = removeBlock(trap.Preds, b)
	}
}

// test computes g's tests at the end of the preheader, each a launch
// fact.
func (g *guardedLoop) test(f *Func, c *countedLoop) *Value {
	t := &conjunction{f: f, b: c.pre}
	if g.aligned {
		span := f.NewValue(c.pre, OpSub, TI64, c.limit, c.init)
		low := f.NewValue(c.pre, OpAnd, TI64, span, f.NewConst(c.pre, TI64, uint64(c.stepConst-1)))
		t.and(launchFact(f.NewValue(c.pre, OpEq, TBool, low, f.NewConst(c.pre, TI64, 0))))
	}
	m := &materializer{f: f, b: c.pre, fs: g.fs, mono: map[string]*Value{}}
	for _, rt := range g.tests {
		t.and(launchFact(m.test(rt)))
	}
	return t.all
}

// divides reports whether m, a power of two, divides v at b: v is a
// constant multiple of m, a sum or product of such values, or a guard
// dominating b says so (v%32 == 0, v&31 == 0). Congruences modulo a power
// of two hold modulo 2^64 too, so wrap-around does not matter.
func (p *prover) divides(m int64, v *Value, b *Block) bool {
	return p.dividesDepth(m, v, b, 0)
}

func (p *prover) dividesDepth(m int64, v *Value, b *Block, depth int) bool {
	if m <= 1 {
		return true
	}
	if depth > 8 || !v.Type.Kind.IsInt() {
		return false
	}
	switch v.Op {
	case OpConst:
		return v.Int()%m == 0
	case OpAdd, OpSub:
		return p.dividesDepth(m, v.Args[0], b, depth+1) && p.dividesDepth(m, v.Args[1], b, depth+1)
	case OpMul:
		for i := range 2 {
			if k := v.Args[i]; k.Op == OpConst && k.Int() != 0 {
				g := int64(1) << bits.TrailingZeros64(uint64(k.Int()))
				return g >= m || p.dividesDepth(m/g, v.Args[1-i], b, depth+1)
			}
		}
		return p.dividesDepth(m, v.Args[0], b, depth+1) || p.dividesDepth(m, v.Args[1], b, depth+1)
	case OpShl:
		if s := v.Args[1]; s.Op == OpConst && s.Imm < 63 {
			return int64(1)<<s.Imm >= m || p.dividesDepth(m>>s.Imm, v.Args[0], b, depth+1)
		}
	case OpConvert:
		if v.Args[0].Type.Kind.IsInt() {
			return p.dividesDepth(m, v.Args[0], b, depth+1)
		}
	}
	return p.guardDivides(m, v, b)
}

// guardDivides reports whether a condition dominating b says that m
// divides v: v%c == 0 or v&c == 0, with m dividing c or c covering m's
// low bits.
func (p *prover) guardDivides(m int64, v *Value, b *Block) bool {
	facts := p.facts(b)
	zero := func(x *Value) bool { return x.Op == OpConst && x.Imm == 0 }
	for _, f := range facts {
		r := f.a
		if f.strict || f.unsigned || !zero(f.b) || len(r.Args) != 2 || r.Args[0] != v || r.Args[1].Op != OpConst {
			continue
		}
		// An equality is the two facts r <= 0 and 0 <= r.
		eq := false
		for _, g := range facts {
			eq = eq || g.a == f.b && g.b == r && !g.strict && !g.unsigned
		}
		c := r.Args[1].Int()
		switch {
		case !eq:
		case r.Op == OpRem && c != 0 && c%m == 0:
			return true
		case r.Op == OpAnd && c&(m-1) == m-1:
			return true
		}
	}
	return false
}

// Tests the guards already prove. A kernel that states every size it
// assumes,
//
//	if n%32 != 0 || t.GridDim().X*32 != n || t.GridDim().Y*32 != n { panic(...) }
//	if len(a) < n*n { return }
//
// needs no test at all: with n = 32*nctaid.x and nctaid.y = nctaid.x
// (the guard's equalities, used as substitutions), the largest index
// 32*nctaid.y*n - 1 is n*n - 1, below len(a) by the second guard. Each
// equality and bound used is between values the range prover shows
// exact (below 2^62 in magnitude), so it holds of the true integers.

// guardsProve reports whether the facts dominating b prove idx < length
// through the extremes of idx over the threads passing them (guardTests)
// and the guard's equalities: c[row*n+col] after the guards above.
func (p *prover) guardsProve(idx, length *Value, b *Block) bool {
	fs := &forms{memo: map[*Value]lform{}, atoms: map[string][]*Value{}, uniform: map[*Value]bool{}}
	if len(p.facts(b)) == 0 {
		return false
	}
	tests, ok := guardTests(p, fs.atoms, b, idx, length)
	return ok && len(p.provenTests(fs, b, tests)) == 0
}

// provenTests drops from tests those the facts at b prove, and reports
// whether any is left.
func (p *prover) provenTests(fs *forms, b *Block, tests []rtest) []rtest {
	subst := p.equalities(fs, b)
	var left []rtest
	for _, t := range tests {
		if !p.provesTest(fs, b, subst, t) {
			left = append(left, t)
		}
	}
	return left
}

// provesTest reports whether t holds at b.
func (p *prover) provesTest(fs *forms, b *Block, subst []substitution, t rtest) bool {
	if t.length == nil {
		return len(t.form.terms) == 1 && fs.provedRange(p, b, t.form, 0, int64(min(t.bound, exactMax)))
	}
	if !p.exact(fs, b, t.form) {
		return false
	}
	for _, f := range p.facts(b) {
		if f.b != t.length || f.unsigned || !p.exact(fs, b, fs.of(f.a, 0)) {
			continue
		}
		// form < length follows from form <= f.a - 1 + strict and
		// f.a <= length (f.a < length when strict).
		d := fs.of(f.a, 0).add(t.form, -1)
		if !f.strict {
			d = d.add(constForm(1), -1)
		}
		for _, s := range subst {
			d = s.apply(fs, d)
		}
		if fs.nonNegative(d, p.lowerBounds(fs, b, d)) {
			return true
		}
	}
	return false
}

// substitution replaces an atom by a form equal to it.
type substitution struct {
	atom *Value
	by   lform
}

// apply substitutes s in fm.
func (s substitution) apply(fs *forms, fm lform) lform {
	out := constForm(fm.k)
	for m, c := range fm.terms {
		term := constForm(c)
		for _, a := range fs.atoms[m] {
			if a == s.atom {
				term = fs.product(term, s.by)
			} else {
				term = fs.product(term, fs.atom(a))
			}
		}
		out = out.add(term, 1)
	}
	return out
}

// equalities returns the guard's equalities of uniform values that hold
// at b as substitutions, each solved for an atom whose coefficient
// divides the rest (nctaid.x*32 == n gives n = 32*nctaid.x), in order,
// each applied to those after it.
func (p *prover) equalities(fs *forms, b *Block) []substitution {
	facts := p.facts(b)
	var out []substitution
	for i, f := range facts {
		if f.strict || f.unsigned || !fs.isUniform(f.a) || !fs.isUniform(f.b) || f.a.Type.Kind != I64 {
			continue
		}
		eq := false
		for _, g := range facts[i+1:] {
			eq = eq || g.a == f.b && g.b == f.a && !g.strict && !g.unsigned
		}
		x, y := fs.of(f.a, 0), fs.of(f.b, 0)
		if !eq || !p.exact(fs, b, x) || !p.exact(fs, b, y) {
			continue
		}
		d := x.add(y, -1)
		for _, s := range out {
			d = s.apply(fs, d)
		}
		if s, ok := solve(fs, d); ok {
			out = append(out, s)
		}
	}
	return out
}

// solve solves d = 0 for an atom of degree one whose coefficient divides
// every other coefficient.
func solve(fs *forms, d lform) (substitution, bool) {
	for m, c := range d.terms {
		as := fs.atoms[m]
		if len(as) != 1 || d.k%c != 0 {
			continue
		}
		ok := true
		for m2, c2 := range d.terms {
			ok = ok && (m2 == m || c2%c == 0)
		}
		if ok {
			rest := d.add(lform{terms: map[string]int64{m: c}}, -1)
			return substitution{atom: as[0], by: divForm(rest, -c)}, true
		}
	}
	return substitution{}, false
}

// divForm divides every coefficient of fm by c, which divides them.
func divForm(fm lform, c int64) lform {
	out := lform{k: fm.k / c, terms: map[string]int64{}}
	for m, x := range fm.terms {
		out.terms[m] = x / c
	}
	return out
}

// exact reports whether fm's value at b is its true value: the ranges of
// its atoms keep it below 2^62 in magnitude.
func (p *prover) exact(fs *forms, b *Block, fm lform) bool {
	return fs.magnitude(fm, func(a *Value) float64 {
		r := p.rng(a, b)
		return max(math.Abs(float64(r.lo)), math.Abs(float64(r.hi)))
	}) < exactMax
}

// provedRange reports whether the range prover puts fm, one atom times a
// coefficient, in [lo, hi) at b.
func (fs *forms) provedRange(p *prover, b *Block, fm lform, lo, hi int64) bool {
	for m, c := range fm.terms {
		as := fs.atoms[m]
		if len(as) != 1 || c != 1 {
			return false
		}
		r := p.rng(as[0], b)
		return r.lo+fm.k >= lo && r.hi < hi-fm.k
	}
	return false
}

// lowerBounds are the range prover's lower bounds of fm's atoms at b.
func (p *prover) lowerBounds(fs *forms, b *Block, fm lform) map[*Value]int64 {
	lb := map[*Value]int64{}
	for m := range fm.terms {
		for _, a := range fs.atoms[m] {
			if lo := p.rng(a, b).lo; lo >= -formConst {
				lb[a] = lo
			}
		}
	}
	return lb
}
