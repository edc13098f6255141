package kir

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// RangeChecks shrinks the combined test that CombineChecks puts before a
// run of bounds checks. A stencil checks in[c-nx], in[c-1], in[c],
// in[c+1] and in[c+nx] against one length: five 64-bit comparisons (two
// instructions each), with the 64-bit index arithmetic they need, before
// the first load. When every index of such a group is base+o with the
// offsets o differing by a linear combination of uniform values (kernel
// parameters, block and grid dimensions, constants), the indices with
// the smallest and largest offset passing imply that every other one
// does, given a few facts about the uniform values, so the combined test
// becomes those two comparisons and the facts.
//
// Exactly: let m and M be the offsets chosen as smallest and largest
// (by a heuristic: strides are taken as large and positive), and for
// each offset o let lo(o) = o-m and hi(o) = M-o, linear forms over
// monomials of uniform atoms. Each monomial is bounded, by the range
// prover or by a runtime test that it lies in [1, 2^40]; with those
// bounds every form's true value is below 2^62 in magnitude, so its
// 64-bit value is exact, and lo(o) >= 0 and hi(o) >= 0 are proved by
// interval arithmetic or tested at run time. Then idx(M) = idx(m) +
// lo(M) without wrap-around (both are below the length, which the prover
// bounds by 2^62), and idx(o) = idx(m) + lo(o) lies between them: if the
// two checks pass, all do.
//
// The new test may be stronger than the conjunction it replaces (a
// runtime fact may fail although every check passes); the slow path that
// CombineChecks builds runs every check in order and then, instead of its
// unreachable trap, continues at the fast path's successor. So the first
// failing check in program order is still the one that traps, with its
// index and length, and a kernel whose facts fail runs the checks one by
// one. The comparisons only the slow path needs move into it. It
// returns how many checks it removed from fast paths.
func RangeChecks(f *Func) int {
	p := newProver(f, Dominators(f))
	n := 0
	for _, b := range ReversePostorder(f) {
		n += rangeCombine(f, p, b)
	}
	if n > 0 {
		RemoveDead(f)
	}
	return n
}

// Bounds of the exact arithmetic: monomials tested or proved within
// ±monoBound, at most formTerms terms of coefficients at most formCoef and
// a constant at most formConst keep every form below 2^62.
const (
	monoBound = 1 << 40
	formCoef  = 1 << 16
	formTerms = 8
	formConst = 1 << 40
	exactMax  = 1 << 62
)

// lform is a linear form over monomials of atoms, modulo 2^64: terms maps
// a monomial key (the sorted IDs of its atoms) to its coefficient.
type lform struct {
	k     int64
	terms map[string]int64
}

// constForm is the form of the constant k.
func constForm(k int64) lform { return lform{k: k, terms: map[string]int64{}} }

func (a lform) add(b lform, sign int64) lform {
	out := lform{k: a.k + sign*b.k, terms: map[string]int64{}}
	for m, c := range a.terms {
		out.terms[m] = c
	}
	for m, c := range b.terms {
		if s := out.terms[m] + sign*c; s != 0 {
			out.terms[m] = s
		} else {
			delete(out.terms, m)
		}
	}
	return out
}

func (a lform) scale(c int64) lform {
	out := lform{k: a.k * c, terms: map[string]int64{}}
	for m, x := range a.terms {
		if x*c != 0 {
			out.terms[m] = x * c
		}
	}
	return out
}

func (a lform) key() string {
	keys := make([]string, 0, len(a.terms))
	for m, c := range a.terms {
		keys = append(keys, m+"*"+strconv.FormatInt(c, 10))
	}
	sort.Strings(keys)
	return strings.Join(keys, "+") + "+" + strconv.FormatInt(a.k, 10)
}

// forms computes linear forms of 64-bit integer values, and which atoms
// are uniform (the same in every thread).
type forms struct {
	memo    map[*Value]lform
	atoms   map[string][]*Value // monomial key → its atoms
	uniform map[*Value]bool
	// stop holds values taken as atoms whatever their operation: the
	// thread values a guard bounds (guardbound.go).
	stop map[*Value]bool
	// widened, when set, returns the form of a 32-bit value sign-extended
	// to 64 bits, exactly, or false (guardbound.go): it lets a form see
	// through sext(y+dy) computed in 32 bits.
	widened func(*Value) (lform, bool)
}

func monoKey(atoms []*Value) string {
	ids := make([]int, len(atoms))
	for i, a := range atoms {
		ids[i] = a.ID
	}
	sort.Ints(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, ".")
}

func (fs *forms) atom(v *Value) lform {
	k := monoKey([]*Value{v})
	fs.atoms[k] = []*Value{v}
	return lform{terms: map[string]int64{k: 1}}
}

// of returns v's linear form: additions, subtractions, negations, shifts
// and multiplications by constants, and products of small forms are
// expanded; anything else is an atom. All of it is exact modulo 2^64.
func (fs *forms) of(v *Value, depth int) lform {
	if r, ok := fs.memo[v]; ok {
		return r
	}
	var r lform
	switch {
	case v.Type.Kind != I64 || depth > 32 || fs.stop[v]:
		r = fs.atom(v)
	case v.Op == OpConst:
		r = constForm(int64(v.Imm))
	case fs.widened != nil && v.Op == OpConvert && v.Args[0].Type.Kind == I32:
		var ok bool
		if r, ok = fs.widened(v.Args[0]); !ok {
			r = fs.atom(v)
		}
	case v.Op == OpAdd:
		r = fs.of(v.Args[0], depth+1).add(fs.of(v.Args[1], depth+1), 1)
	case v.Op == OpSub:
		r = fs.of(v.Args[0], depth+1).add(fs.of(v.Args[1], depth+1), -1)
	case v.Op == OpNeg:
		r = fs.of(v.Args[0], depth+1).scale(-1)
	case v.Op == OpShl && v.Args[1].Op == OpConst && v.Args[1].Imm < 63:
		r = fs.of(v.Args[0], depth+1).scale(int64(1) << v.Args[1].Imm)
	case v.Op == OpMul:
		x, y := fs.of(v.Args[0], depth+1), fs.of(v.Args[1], depth+1)
		switch {
		case len(x.terms) == 0:
			r = y.scale(x.k)
		case len(y.terms) == 0:
			r = x.scale(y.k)
		case (len(x.terms)+1)*(len(y.terms)+1) <= 16:
			r = fs.product(x, y)
		default:
			r = fs.atom(v)
		}
	default:
		r = fs.atom(v)
	}
	fs.memo[v] = r
	return r
}

// product expands x*y term by term.
func (fs *forms) product(x, y lform) lform {
	out := lform{k: x.k * y.k, terms: map[string]int64{}}
	addTerm := func(atoms []*Value, c int64) {
		if c == 0 {
			return
		}
		k := monoKey(atoms)
		fs.atoms[k] = atoms
		if s := out.terms[k] + c; s != 0 {
			out.terms[k] = s
		} else {
			delete(out.terms, k)
		}
	}
	for mx, cx := range x.terms {
		addTerm(fs.atoms[mx], cx*y.k)
		for my, cy := range y.terms {
			addTerm(append(append([]*Value(nil), fs.atoms[mx]...), fs.atoms[my]...), cx*cy)
		}
	}
	for my, cy := range y.terms {
		addTerm(fs.atoms[my], cy*x.k)
	}
	return out
}

// isUniform reports whether v has one value in every thread of a launch:
// computed from parameters, constants and block and grid dimensions only.
func (fs *forms) isUniform(v *Value) bool {
	if u, ok := fs.uniform[v]; ok {
		return u
	}
	fs.uniform[v] = false // cycles (phis) are not uniform
	u := true
	switch v.Op {
	case OpParam, OpConst:
	case OpSpecial:
		u = v.Index >= BlockDimX
	case OpPhi, OpLoad, OpLocal, OpAtomic, OpStore, OpBarrier, OpPoll, OpShared:
		u = false
	default:
		for _, a := range v.Args {
			if !fs.isUniform(a) {
				u = false
				break
			}
		}
	}
	fs.uniform[v] = u
	return u
}

// small reports whether d is a difference of offsets the group may hold:
// few terms, small coefficients, over uniform monomials.
func (fs *forms) small(d lform) bool {
	if len(d.terms) > formTerms || d.k > formConst || d.k < -formConst {
		return false
	}
	for m, c := range d.terms {
		if c > formCoef || c < -formCoef {
			return false
		}
		for _, a := range fs.atoms[m] {
			if !fs.isUniform(a) {
				return false
			}
		}
	}
	return true
}

// rtest is one test of uniform values: u64(form) < bound, or u64(form) <
// u64(length) when length is set.
type rtest struct {
	form   lform
	bound  uint64
	length *Value
}

// key identifies t among the tests of a plan: its form and its bound, the
// constant or the length. (Two checks of one index against different
// slices are two tests: keyed by the form and constant alone, the second
// was dropped, and a loop versioned on x's length ran a's accesses
// unchecked.)
func (t rtest) key() string {
	if t.length != nil {
		return t.form.key() + "<v" + strconv.Itoa(t.length.ID)
	}
	return t.form.key() + "<" + strconv.FormatUint(t.bound, 10)
}

// materializer computes forms as values at the end of block b, each
// monomial once.
type materializer struct {
	f    *Func
	b    *Block
	fs   *forms
	mono map[string]*Value
}

// monomial is its last atom times the product of the others, which is
// materialized (and shared) first: nz*nx*ny reuses nx*ny.
func (m *materializer) monomial(atoms []*Value) *Value {
	if len(atoms) == 1 {
		return atoms[0]
	}
	k := monoKey(atoms)
	if v, ok := m.mono[k]; ok {
		return v
	}
	sorted := append([]*Value(nil), atoms...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	last := len(sorted) - 1
	v := m.f.NewValue(m.b, OpMul, TI64, m.monomial(sorted[:last]), sorted[last])
	m.mono[k] = v
	return v
}

// form computes fm, positive terms first so that a -1 is a subtraction.
func (m *materializer) form(fm lform) *Value {
	f, b := m.f, m.b
	keys := make([]string, 0, len(fm.terms))
	for k := range fm.terms {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if pi, pj := fm.terms[keys[i]] > 0, fm.terms[keys[j]] > 0; pi != pj {
			return pi
		}
		return keys[i] < keys[j]
	})
	var sum *Value
	for _, k := range keys {
		term := m.monomial(m.fs.atoms[k])
		c := fm.terms[k]
		switch {
		case c == -1 && sum != nil:
			sum = f.NewValue(b, OpSub, TI64, sum, term)
			continue
		case c != 1:
			term = f.NewValue(b, OpMul, TI64, term, f.NewConst(b, TI64, uint64(c)))
		}
		if sum == nil {
			sum = term
		} else {
			sum = f.NewValue(b, OpAdd, TI64, sum, term)
		}
	}
	if sum == nil {
		return f.NewConst(b, TI64, uint64(fm.k))
	}
	if fm.k != 0 {
		sum = f.NewValue(b, OpAdd, TI64, sum, f.NewConst(b, TI64, uint64(fm.k)))
	}
	return sum
}

// test computes t as a comparison.
func (m *materializer) test(t rtest) *Value {
	f, b := m.f, m.b
	u64 := func(x *Value) *Value { return f.NewValue(b, OpBitcast, TU64, x) }
	bound := f.NewConst(b, TU64, t.bound)
	if t.length != nil {
		bound = u64(t.length)
	}
	return f.NewValue(b, OpLt, TBool, u64(m.form(t.form)), bound)
}

// rangeCheck is one leaf of a combined test: u64(idx) < u64(length).
type rangeCheck struct {
	cond, idx, length *Value
	form              lform
}

func rangeCombine(f *Func, p *prover, b *Block) int {
	chain, end, ok := slowChain(b)
	if !ok {
		return 0
	}
	// The combined test must be the conjunction of the chain's conditions.
	inChain := map[*Value]bool{}
	for _, c := range chain {
		inChain[c.Cond] = true
	}
	var leaves []*Value
	work := []*Value{b.Cond}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if !inChain[v] && v.Op == OpAnd && v.Type == TBool {
			work = append(work, v.Args[1], v.Args[0])
			continue
		}
		leaves = append(leaves, v)
	}
	seen := map[*Value]bool{}
	for _, l := range leaves {
		if !inChain[l] {
			return 0
		}
		seen[l] = true
	}
	if len(seen) != len(inChain) {
		return 0
	}

	fs := &forms{memo: map[*Value]lform{}, atoms: map[string][]*Value{}, uniform: map[*Value]bool{}}
	drop, tests := shrinkGroups(p, fs, b, groupChecks(p, fs, b, leaves))
	if len(drop) == 0 {
		return 0
	}
	if len(tests) > 0 {
		// The test is stronger than the checks: the slow path must go on
		// when they all pass.
		t := b.Succs[0]
		if len(t.Preds) != 1 || len(t.Phis()) > 0 {
			return 0
		}
		end.Term, end.Trap, end.Succs = TermJump, Trap{}, []*Block{t}
		end.Comment = "all checks passed on the slow path"
		t.Preds = append(t.Preds, end)
	}

	// The new test, at the end of b.
	m := &materializer{f: f, b: b, fs: fs, mono: map[string]*Value{}}
	test := &conjunction{f: f, b: b}
	for _, l := range leaves {
		if !drop[l] {
			test.and(l)
		}
	}
	m.andTests(test, tests)
	b.Cond = test.all
	sinkToSlowPath(f, b, chain, end)
	return len(drop)
}

// andTests adds tests to test, as launch facts.
func (m *materializer) andTests(test *conjunction, tests []rtest) {
	f, b := m.f, m.b
	// Tests of one bound, a power of two, share one comparison: every
	// x_i <u 2^k exactly when their OR is (no bit at or above k is set
	// in any). Stencil3D's nx-1, plane-1 and plane-nx below 2^40 are
	// two ORs and one 64-bit compare instead of three compares.
	byBound := map[uint64]*Value{}
	var order []uint64
	for _, t := range tests {
		v := m.form(t.form)
		bd := t.bound
		if prev, ok := byBound[bd]; ok && bd&(bd-1) == 0 {
			byBound[bd] = f.NewValue(b, OpOr, TI64, prev, v)
			continue
		}
		if _, ok := byBound[bd]; ok {
			test.and(launchFact(f.NewValue(b, OpLt, TBool, f.NewValue(b, OpBitcast, TU64, v), f.NewConst(b, TU64, bd))))
			continue
		}
		byBound[bd] = v
		order = append(order, bd)
	}
	for _, bd := range order {
		v := f.NewValue(b, OpBitcast, TU64, byBound[bd])
		test.and(launchFact(f.NewValue(b, OpLt, TBool, v, f.NewConst(b, TU64, bd))))
	}
}

// groupChecks groups the checks among leaves (u64(idx) < u64(length),
// idx an I64 and length within [0, 2^62] at b) whose indices differ by
// forms over uniform values (forms.small) and that have one length.
func groupChecks(p *prover, fs *forms, b *Block, leaves []*Value) [][]rangeCheck {
	var groups [][]rangeCheck
	for _, l := range leaves {
		idx, length, ok := unsignedLess(l)
		if !ok || idx.Type.Kind != I64 {
			continue
		}
		if r := p.rng(length, b); r.lo < 0 || r.hi > exactMax {
			continue
		}
		c := rangeCheck{cond: l, idx: idx, length: length, form: fs.of(idx, 0)}
		placed := false
		for i, g := range groups {
			if g[0].length == length && fs.small(c.form.add(g[0].form, -1)) {
				groups[i] = append(g, c)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []rangeCheck{c})
		}
	}
	return groups
}

// shrinkGroups plans each group that gains from it (planGroup): drop
// holds the checks that the group's two kept checks and tests imply, and
// tests the tests of uniform values, each once.
func shrinkGroups(p *prover, fs *forms, b *Block, groups [][]rangeCheck) (drop map[*Value]bool, tests []rtest) {
	drop = map[*Value]bool{}
	testKeys := map[string]bool{}
	for _, g := range groups {
		gt, keep, ok := planGroup(p, fs, b, g)
		if !ok {
			continue
		}
		var nt []rtest
		for _, t := range gt {
			if !testKeys[t.key()] {
				nt = append(nt, t)
			}
		}
		if len(nt)+2 >= len(g) {
			continue // no gain
		}
		for _, t := range nt {
			testKeys[t.key()] = true
		}
		tests = append(tests, nt...)
		for _, c := range g {
			if !keep[c.cond] {
				drop[c.cond] = true
			}
		}
	}
	return drop, tests
}

// slowChain matches the slow path CombineChecks gives b: b's false
// successor starts a chain of checks, each entered from the one before
// only, ending in an unreachable trap.
func slowChain(b *Block) (chain []*Block, end *Block, ok bool) {
	if b.Term != TermBranch || len(b.Succs) != 2 || b.Succs[0] == b.Succs[1] {
		return nil, nil, false
	}
	x := b.Succs[1]
	if len(x.Preds) != 1 {
		return nil, nil, false
	}
	for isCheck(x) && len(x.Preds) == 1 && len(chain) <= len(b.Values) {
		chain = append(chain, x)
		x = x.Succs[0]
	}
	if len(chain) < 2 || x.Term != TermTrap || x.Trap.Code != gpuabi.TrapUnreachable || len(x.Preds) != 1 {
		return nil, nil, false
	}
	return chain, x, true
}

// planGroup chooses the smallest and largest offset of group g and the
// facts that make their checks imply the others: the forms that must lie
// in [0, bound) at run time. keep holds the two checks that stay.
func planGroup(p *prover, fs *forms, b *Block, g []rangeCheck) (tests []rtest, keep map[*Value]bool, ok bool) {
	if len(g) < 3 {
		return nil, nil, false
	}
	// Offsets relative to the first member; the heuristic value of a
	// monomial of degree d is 2^(16d), a stride being large and positive.
	rel := make([]lform, len(g))
	h := make([]float64, len(g))
	for i, c := range g {
		rel[i] = c.form.add(g[0].form, -1)
		h[i] = float64(rel[i].k)
		for m, x := range rel[i].terms {
			h[i] += float64(x) * math.Pow(2, 16*float64(len(fs.atoms[m])))
		}
	}
	lo, hi := 0, 0
	for i := range g {
		if h[i] < h[lo] {
			lo = i
		}
		if h[i] > h[hi] {
			hi = i
		}
	}
	// The bounds of every monomial the differences hold.
	type mrange struct {
		r      interval
		tested bool
	}
	mr := map[string]mrange{}
	var diffs []lform
	for i := range g {
		diffs = append(diffs, rel[i].add(rel[lo], -1), rel[hi].add(rel[i], -1))
	}
	for _, d := range diffs {
		if !fs.small(d) {
			return nil, nil, false
		}
		for m := range d.terms {
			if _, ok := mr[m]; ok {
				continue
			}
			r := interval{1, 1}
			for _, a := range fs.atoms[m] {
				r = mulRange(r, p.rng(a, b))
			}
			if r.lo >= -monoBound && r.hi <= monoBound {
				mr[m] = mrange{r: r}
			} else {
				mr[m] = mrange{r: interval{1, monoBound}, tested: true}
			}
		}
	}
	keys := make([]string, 0, len(mr))
	for m := range mr {
		keys = append(keys, m)
	}
	sort.Strings(keys)
	for _, m := range keys {
		if mr[m].tested {
			tests = append(tests, rtest{form: lform{k: -1, terms: map[string]int64{m: 1}}, bound: monoBound})
		}
	}
	seen := map[string]bool{}
	for _, d := range diffs {
		low, high := d.k, d.k
		for m, c := range d.terms {
			r := mr[m].r
			if c > 0 {
				low += c * r.lo
				high += c * r.hi
			} else {
				low += c * r.hi
				high += c * r.lo
			}
		}
		if low >= 0 || seen[d.key()] {
			continue
		}
		seen[d.key()] = true
		// d >= 0 is d <u 2^62 (|d| < 2^62); when d < 2^40 besides (a
		// difference of two strides, each in [1, 2^40]), it is also
		// d <u 2^40, which the new test ORs with the stride tests.
		t := rtest{form: d, bound: exactMax}
		if high < monoBound {
			t.bound = monoBound
		}
		tests = append(tests, t)
	}
	return tests, map[*Value]bool{g[lo].cond: true, g[hi].cond: true}, true
}

// mulRange is the product of two ranges, or full when it may overflow.
func mulRange(x, y interval) interval {
	const lim = 1 << 31
	if x.lo < -lim || x.hi > lim || y.lo < -lim || y.hi > lim {
		return full
	}
	ps := []int64{x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi}
	r := interval{ps[0], ps[0]}
	for _, q := range ps[1:] {
		r = interval{min(r.lo, q), max(r.hi, q)}
	}
	return r
}

// sinkToSlowPath moves the pure values of b that only the slow path
// (chain, its traps and end) uses to the start of the chain.
func sinkToSlowPath(f *Func, b *Block, chain []*Block, end *Block) {
	slow := map[*Block]bool{end: true}
	for _, c := range chain {
		slow[c] = true
		slow[c.Succs[1]] = true
	}
	// Where each value of b is used: by a value, or by a block's
	// condition or trap (nil user).
	type use struct {
		user  *Value
		block *Block
	}
	uses := map[*Value][]use{}
	mine := map[*Value]bool{}
	for _, v := range b.Values {
		mine[v] = true
	}
	for _, x := range f.Blocks {
		for _, v := range x.Values {
			for _, a := range v.Args {
				if mine[a] {
					uses[a] = append(uses[a], use{v, x})
				}
			}
		}
		if x.Cond != nil && mine[x.Cond] {
			uses[x.Cond] = append(uses[x.Cond], use{nil, x})
		}
		for _, a := range x.Trap.Args {
			if a != nil && mine[a] {
				uses[a] = append(uses[a], use{nil, x})
			}
		}
	}
	start := 0
	for i, v := range b.Values {
		if v.Op == OpPhi || !pure(v) || v.Op == OpLocal || v.Op == OpLoad {
			start = i + 1
		}
	}
	sink := map[*Value]bool{}
	for i := len(b.Values) - 1; i >= start; i-- {
		v := b.Values[i]
		if v.Op == OpDiv || v.Op == OpRem {
			continue
		}
		ok := true // (an unused value, the conjunction replaced, moves too)
		for _, u := range uses[v] {
			if !(u.user != nil && sink[u.user]) && !(u.block != b && slow[u.block]) {
				ok = false
				break
			}
		}
		sink[v] = ok
	}
	var stay, move []*Value
	for _, v := range b.Values {
		if sink[v] {
			v.Block = chain[0]
			move = append(move, v)
		} else {
			stay = append(stay, v)
		}
	}
	b.Values = stay
	chain[0].Values = append(move, chain[0].Values...)
}
