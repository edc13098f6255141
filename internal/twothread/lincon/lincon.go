// Package lincon decides systems of linear integer constraints and finds a
// model when one exists.
//
// A system is a conjunction of constraints Σ cᵢ·xᵢ + c ≥ 0 or = 0 over
// integer variables, plus clauses, each a disjunction of conjunctions, which
// the solver explores by depth-first case splitting with pruning.
//
// Each conjunction is decided by steps of the Omega test where they apply
// and Fourier–Motzkin elimination otherwise:
//   - every constraint is normalized by the gcd of its coefficients, which
//     tightens inequalities (2x ≥ 1 becomes x ≥ 1) and refutes equalities
//     with no integer solution (2x − 2y = 1);
//   - an equality with a unit coefficient eliminates its variable exactly,
//     the variable the fewest other rows mention first (a value one
//     equality defines costs nothing to eliminate; substituting a bounded
//     variable of many rows spreads the equality into all of them), and
//     one without is kept as two inequalities; a conjunction that order
//     leaves undecided is decided again in the equalities' own order;
//   - inequalities are eliminated by Fourier–Motzkin, tightening each
//     combination, variables whose elimination is exact over the integers
//     (unit coefficients on one side, the Omega test's exact shadow)
//     first; the real shadow of the others may keep a system that has no
//     integer solution;
//   - a conjunction left undecided that way is split on a bounded variable
//     (branch and bound, at most MaxSplits branches).
//
// Clauses are searched lazily (Solve), after pruning: bound propagation
// over the base (interval reasoning, linear per pass; after the first
// pass, only the constraints that read a bound that changed are visited)
// drops the alternatives it refutes, a clause left with one joins the
// base, and at every node of the search the alternatives that the chosen
// ones refute are dropped too. Elimination keeps, for every derived row, the input
// constraints it came from, so a refutation names its core; a branch
// whose core misses the alternative just chosen refutes its siblings too,
// and the search backjumps. Products of two variables come as six sign cases, of
// which a base with u ≥ 1 and l ≥ 0 leaves two; without the pruning the
// search decides every combination of cases at a leaf.
//
// So Infeasible is always right. Otherwise the solver looks for an integer
// model by back-substitution (with a little search where the real shadow
// left a gap) and answers Feasible with the model it checked, or Unknown.
// A caller that must be sound treats Unknown as possibly feasible.
package lincon

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// Var is a variable: an index into the model.
type Var int

// Term is Coef·Var.
type Term struct {
	Var  Var
	Coef int64
}

// Constraint is Σ Terms + Const ≥ 0, or = 0 when Eq.
type Constraint struct {
	Terms []Term
	Const int64
	Eq    bool
}

// GE returns Σ terms + c ≥ 0.
func GE(c int64, terms ...Term) Constraint { return Constraint{Terms: terms, Const: c} }

// EQ returns Σ terms + c = 0.
func EQ(c int64, terms ...Term) Constraint { return Constraint{Terms: terms, Const: c, Eq: true} }

// T is shorthand for a Term.
func T(coef int64, v Var) Term { return Term{Var: v, Coef: coef} }

func (c Constraint) String() string {
	var b strings.Builder
	for i, t := range c.Terms {
		if i > 0 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%d·x%d", t.Coef, t.Var)
	}
	op := " ≥ 0"
	if c.Eq {
		op = " = 0"
	}
	fmt.Fprintf(&b, " + %d%s", c.Const, op)
	return b.String()
}

// Problem is a conjunction of Base constraints and of Clauses; a clause holds
// when at least one of its alternatives (a conjunction) holds.
type Problem struct {
	NumVars int
	Base    []Constraint
	Clauses [][][]Constraint
	// InOrder eliminates equalities in their own order rather than
	// through their least used variable first: the verdict is the same,
	// the model may differ (a caller whose use of a model is stricter
	// than the constraints may ask again with it).
	InOrder bool
}

// Verdict is the answer of Solve.
type Verdict int

const (
	// Infeasible: no integer assignment satisfies the problem.
	Infeasible Verdict = iota
	// Feasible: the returned model satisfies the problem.
	Feasible
	// Unknown: the rational relaxation is feasible but no integer model
	// was found; treat it as possibly feasible.
	Unknown
)

func (v Verdict) String() string {
	return [...]string{"infeasible", "feasible", "unknown"}[v]
}

// Solve decides p. For Feasible it returns a model (one value per variable).
//
// Clauses are split lazily: the solver decides the conjunction it has,
// and only when the model it finds violates some clause does it branch on
// that clause's alternatives. A model that satisfies every clause ends the
// search; an infeasible conjunction prunes its branch.
func Solve(p *Problem) (Verdict, []int64) {
	v, m, _ := SolveCounted(p)
	return v, m
}

// Satisfies reports whether m is a model of p: an assignment of its
// variables under which the base and an alternative of every clause hold.
// A model proves p feasible without a search.
func Satisfies(p *Problem, m []int64) bool {
	if len(m) != p.NumVars {
		return false
	}
	ok := func(cs []Constraint) bool {
		for _, c := range cs {
			for _, t := range c.Terms {
				if int(t.Var) < 0 || int(t.Var) >= len(m) {
					return false
				}
			}
		}
		return checkModel(cs, m)
	}
	if !ok(p.Base) {
		return false
	}
	for _, cl := range p.Clauses {
		if !slices.ContainsFunc(cl, ok) {
			return false
		}
	}
	return true
}

// SolveCounted is Solve, also returning the conjunctions it decided: a
// measure of its work that does not depend on the machine, for callers
// that budget optional questions.
func SolveCounted(p *Problem) (Verdict, []int64, int) { return SolveWithin(p, MaxSteps) }

// SolveWithin is SolveCounted deciding at most maxSteps conjunctions
// (past them the answer is Unknown), for optional questions a caller
// gives a smaller budget than MaxSteps.
func SolveWithin(p *Problem, maxSteps int) (Verdict, []int64, int) {
	best := Infeasible
	var model []int64
	steps := 0
	splits := MaxSplits
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	sc.baseLen, sc.base0Any, sc.inOrder = 0, false, p.InOrder
	// rec searches cs with the open clauses. It reports true when the
	// search is over (a model found, or the step budget spent); otherwise
	// it returns a core: a set of indices of cs that is infeasible with
	// every choice of the open clauses, nil when it could be all of cs.
	// A branch whose core misses the alternative just added shows that
	// the conjunction before it is infeasible already, so its siblings
	// need no search (backjumping): with k clauses of three alternatives
	// the search then decides far fewer than 3^k leaves when, as is
	// common, the refutation does not depend on most of the sign cases.
	var rec func(cs []Constraint, open []clause, depth int) (bool, cset)
	rec = func(cs []Constraint, open []clause, depth int) (bool, cset) {
		if steps++; steps > maxSteps {
			best = Unknown
			return true, nil
		}
		// The alternatives chosen so far may refute others.
		open, ok := filterAlts(p.NumVars, cs, open, sc)
		if !ok {
			return false, nil
		}
		v, m, core := splitConj(p.NumVars, cs, &splits, sc)
		if v == Infeasible {
			return false, core
		}
		pick := -1
		if v == Feasible {
			for k, cl := range open {
				sat := false
				for _, alt := range cl.alts {
					if checkModel(alt, m) {
						sat = true
						break
					}
				}
				if !sat {
					pick = k
					break
				}
			}
			if pick < 0 {
				best, model = Feasible, m
				return true, nil
			}
		} else {
			if len(open) == 0 {
				best = Unknown
				return false, nil
			}
			pick = 0
		}
		rest := append(append([]clause(nil), open[:pick]...), open[pick+1:]...)
		cl := open[pick]
		n := len(cs)
		// The alternatives dropped from this clause were refuted by the
		// bounds of a prefix of cs.
		acc := prefix(cl.dropped)
		for _, alt := range cl.alts {
			// The conjunction is dead once its search returns: each
			// depth reuses one list.
			for len(sc.depth) <= depth {
				sc.depth = append(sc.depth, nil)
			}
			next := append(append(sc.depth[depth][:0], cs...), alt...)
			sc.depth[depth] = next
			done, c := rec(next, rest, depth+1)
			if done {
				return true, nil
			}
			if c == nil {
				acc = nil
				continue
			}
			if !c.anyIn(n, len(next)) {
				return false, c // cs itself is infeasible: skip the siblings
			}
			if acc != nil {
				acc = acc.or(c, n)
			}
		}
		return false, acc
	}
	base, clauses, ok := prune(p.NumVars, p.Base, p.Clauses, sc)
	if !ok {
		return Infeasible, nil, 0
	}
	if len(base) > 0 && inRange(p.NumVars, base) {
		sc.base0.reset(p.NumVars)
		if ok, any := sc.base0.run(base, 1, 0, false); ok {
			sc.baseLen, sc.base0Any = len(base), any
		}
	}
	rec(base, clauses, 0)
	return best, model, steps
}

// clause is an open clause of the search: its alternatives left, and the
// length of the prefix of the conjunction whose bounds refuted the ones
// dropped (0 when none was).
type clause struct {
	alts    [][]Constraint
	dropped int
}

// filterAlts drops the alternatives of the open clauses that bound
// propagation refutes together with cs, leaving cs as it is (adding a
// clause's last alternative to it would only grow the conjunctions that
// elimination decides; the search adds it when a model violates it). ok
// is false when some clause has no alternative left.
func filterAlts(n int, cs []Constraint, open []clause, sc *scratch) ([]clause, bool) {
	b, tmp := sc.boxes(n)
	// cs begins with the base (SolveCounted): propagation resumes after
	// its first pass over the base, which every conjunction shares.
	if sc.baseLen > 0 && len(cs) >= sc.baseLen {
		b.resume(&sc.base0, sc.baseLen)
		if ok, _ := b.run(cs, boundRounds, sc.baseLen, sc.base0Any); !ok {
			return nil, false
		}
	} else if !b.propagate(cs, boundRounds) {
		return nil, false
	}
	out := open
	copied := false
	for i, cl := range open {
		alts, dropped := cl.alts, false // a new list once one is dropped
		for j, alt := range cl.alts {
			// The alternative's own constraints within cs's bounds: a
			// weaker test than propagating cs and alt together, at the
			// cost of alt alone.
			tmp.bounds(b)
			alts, dropped = keepAlt(alts, cl.alts, dropped, j, tmp.propagate(alt, 2))
		}
		if len(alts) == 0 {
			return nil, false
		}
		if dropped {
			if !copied {
				out, copied = slices.Clone(open), true
			}
			out[i] = clause{alts, len(cs)}
		}
	}
	return out, true
}

// keepAlt returns the alternatives kept of clause all, whose alternative
// j was just tested (keep: it stays), and whether one was dropped: kept
// is all itself until one is (its first j kept), a new list after.
func keepAlt(kept, all [][]Constraint, dropped bool, j int, keep bool) ([][]Constraint, bool) {
	switch {
	case !dropped && keep:
		return all, false
	case !dropped:
		return slices.Clone(all[:j]), true
	case keep:
		return append(kept, all[j]), true
	}
	return kept, true
}

// prune simplifies the clauses before the search: an alternative whose
// constraints, with the base's, leave some variable no value by bound
// propagation (boundsFeasible) is dropped, which loses no model, and a
// clause left with one alternative joins the base, which may refute
// alternatives of other clauses; it repeats until nothing changes.
// Without it the search multiplies the alternatives of every clause (six
// per product of two variables) even when the base's bounds (a block
// dimension ≥ 1, a thread index ≥ 0) rule most of them out, deciding
// the same refuted combinations again at every leaf. ok is false when
// some clause has no alternative left: the problem is infeasible.
func prune(n int, base []Constraint, clauses [][][]Constraint, sc *scratch) ([]Constraint, []clause, bool) {
	base = slices.Clip(base)
	live := slices.Clone(clauses)
	// at[i] is the length of the base with which every alternative of
	// live[i] was last found bounds-feasible (−1: not yet). The base only
	// grows, so while its length is the same the test would give the same
	// answers: the pass that finds nothing more to drop does not repeat
	// them.
	at := make([]int, len(live))
	for i := range at {
		at[i] = -1
	}
	for changed := true; changed; {
		changed = false
		// A clause of one alternative is a conjunction: it joins the base.
		keep, keepAt := live[:0], at[:0]
		for i, cl := range live {
			switch len(cl) {
			case 0:
				return nil, nil, false
			case 1:
				base = append(base, cl[0]...)
				changed = true
			default:
				keep, keepAt = append(keep, cl), append(keepAt, at[i])
			}
		}
		live, at = keep, keepAt
		if changed {
			continue
		}
		if !boundsFeasible(n, base, sc) {
			return nil, nil, false
		}
		// Every test below begins with a pass over the base from no
		// bounds: it is made once, and each test resumes after it.
		b0, tmp := sc.boxes(n)
		skip, any0 := 0, false
		if inRange(n, base) {
			if ok, any := b0.run(base, 1, 0, false); ok {
				skip, any0 = len(base), any
			} else {
				return nil, nil, false
			}
		}
		for i, cl := range live {
			if at[i] == len(base) {
				continue
			}
			at[i] = len(base)
			alts, dropped := cl, false
			for j, alt := range cl {
				sc.cons = append(append(sc.cons[:0], base...), alt...)
				var ok bool
				if skip > 0 {
					tmp.resume(b0, skip)
					ok, _ = tmp.run(sc.cons, boundRounds, skip, any0)
				} else {
					ok = boundsFeasible(n, sc.cons, sc)
				}
				alts, dropped = keepAlt(alts, cl, dropped, j, ok)
			}
			if dropped {
				live[i] = alts
				changed = true
			}
		}
	}
	// Every drop used the bounds of the final base, which leads every
	// conjunction of the search.
	out := make([]clause, len(live))
	for i, cl := range live {
		out[i] = clause{cl, len(base)}
	}
	return base, out, true
}

// inRange reports whether cs speaks of variables 0 … n−1 only.
func inRange(n int, cs []Constraint) bool {
	for _, c := range cs {
		for _, t := range c.Terms {
			if int(t.Var) < 0 || int(t.Var) >= n {
				return false
			}
		}
	}
	return true
}

// MaxSteps bounds the conjunctions one Solve decides; past it the answer
// is Unknown, so that no input makes the solver run for long.
const MaxSteps = 5000

// row is a dense constraint: coefficients of the variables, then the
// constant, then three slots of bookkeeping: the row's provenance (slot
// n+1, system.prov), whether it is normalized already (slot n+2: 1 when
// normalizeAll left it so and nothing changed it since; a row normalized
// once stays so until eliminateEq rewrites it), with at most 64
// variables the bits of its nonzero coefficients (slot n+3), so that the
// passes over every row of a step (fmVar, dedupe, combine, normalizeAll)
// visit those only: a row names a few of the variables, and dedupe's hash
// of its coefficients (slot n+4, 0 until computed and again once they
// change): a step keeps most rows as they were.
type row []int64

// masked reports whether s's rows carry the bits of their nonzero
// coefficients (row).
func (s *system) masked() bool { return s.n <= 64 }

// setMask sets the bits of r's nonzero coefficients.
func (s *system) setMask(r row) {
	if !s.masked() {
		return
	}
	var m uint64
	for i, a := range r[:s.n] {
		if a != 0 {
			m |= 1 << i
		}
	}
	r[s.n+3] = int64(m)
}

// nonzeros returns in buf the indices of r's nonzero coefficients, in
// order.
func (s *system) nonzeros(buf []int, r row) []int {
	buf = buf[:0]
	if s.masked() {
		for m := uint64(r[s.n+3]); m != 0; m &= m - 1 {
			buf = append(buf, bits.TrailingZeros64(m))
		}
		return buf
	}
	for i, a := range r[:s.n] {
		if a != 0 {
			buf = append(buf, i)
		}
	}
	return buf
}

type system struct {
	n   int
	eqs []row
	ges []row
	// prov[id] is the set of input constraints a row was derived from;
	// a row's id is its slot n+1 (after the constant).
	prov []cset
	sc   *scratch
	// leastUsed eliminates equalities through their least used variable
	// first (pickEq), else in order.
	leastUsed bool
}

// scratch is the memory of the eliminations of one Solve, reused by each
// in turn: Fourier–Motzkin makes many short-lived rows, and one
// allocation per row (later, per elimination) made the collector the
// larger part of the solver's time. A row never outlives the elimination
// that made it (the model and the core it returns are fresh), so the next
// one may cut its rows from the same chunks.
type scratch struct {
	chunks [][]int64    // row memory, each chunk twice the last
	ci     int          // the chunk rows are cut from, −1 before the first
	free   []int64      // what is left of chunks[ci]
	table  []int32      // dedupe's hash table
	cons   []Constraint // prune's conjunctions
	// The backing arrays of a system's lists: its equalities, its
	// inequalities (two, swapped at each Fourier–Motzkin step) and the
	// provenance sets' table.
	eqs, ges, spare []row
	prov            []cset
	box             [3]box // filterAlts', prune's and boundsFeasible's boxes
	// base0 holds the bounds after the first pass of propagation over
	// the first baseLen constraints of every conjunction of the search
	// (the pruned base; base0Any: it tightened one), for filterAlts to
	// resume from; baseLen is 0 when there is none.
	base0    box
	baseLen  int
	base0Any bool
	steps    []step         // an elimination's steps
	refs     []row          // the rows its steps mention
	depth    [][]Constraint // the search's conjunctions, one per depth
	// The provenance sets of an elimination are cut from setMem as rows
	// are from chunks: one set per input constraint and per union made
	// one allocation each, the larger part of the solver's garbage.
	setMem  []uint64
	setFree []uint64
	fmCount []fmCount // fmVar's counts
	uses    []int     // pickEq's counts
	cands   []int     // and candidates
	inOrder bool      // the solve's Problem.InOrder
	nz      []int     // the nonzero coefficients of a row (system.nonzeros)
}

// scratchPool holds the scratch memory of finished solves: nothing a
// Solve returns points into it (models and cores are fresh), and a
// kernel's problems, of about one size, would otherwise each grow their
// own lists, chunks and boxes anew.
var scratchPool = sync.Pool{New: func() any { return &scratch{} }}

// reset makes all of sc's memory free for the next elimination.
func (sc *scratch) reset() {
	sc.ci, sc.free, sc.refs = -1, nil, sc.refs[:0]
	sc.setFree = sc.setMem
}

// newSet returns a zeroed set of w words, valid until the next reset. It
// starts a new block when the current one is full; the largest block is
// kept for the next elimination.
func (sc *scratch) newSet(w int) cset {
	if len(sc.setFree) < w {
		sc.setMem = make([]uint64, max(2*len(sc.setMem), 64*w))
		sc.setFree = sc.setMem
	}
	b := sc.setFree[:w:w]
	sc.setFree = sc.setFree[w:]
	clear(b)
	return b
}

// newRow returns a zeroed row of n+5 slots.
func (s *system) newRow() row {
	sc := s.sc
	w := s.n + 5
	if len(sc.free) < w {
		sc.ci++
		if sc.ci == len(sc.chunks) {
			size := 16 * w
			if sc.ci > 0 {
				size = max(size, 2*len(sc.chunks[sc.ci-1]))
			}
			sc.chunks = append(sc.chunks, make([]int64, size))
		} else if len(sc.chunks[sc.ci]) < w {
			sc.chunks[sc.ci] = make([]int64, 16*w)
		}
		sc.free = sc.chunks[sc.ci]
	}
	r := sc.free[:w:w]
	sc.free = sc.free[w:]
	clear(r)
	return r
}

// cset is a set of constraint indices.
type cset []uint64

func (b cset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// holds reports whether b contains every index of c.
func (b cset) holds(c cset) bool {
	for i, w := range c {
		var bw uint64
		if i < len(b) {
			bw = b[i]
		}
		if w&^bw != 0 {
			return false
		}
	}
	return true
}

// anyIn reports whether b holds an index in [lo, hi).
func (b cset) anyIn(lo, hi int) bool {
	for i := lo; i < hi; i++ {
		if b.has(i) {
			return true
		}
	}
	return false
}

// or adds c's indices below lim to b (grown as needed) and returns it.
func (b cset) or(c cset, lim int) cset {
	for i := 0; i < lim && i/64 < len(c); i++ {
		if c.has(i) {
			for len(b) <= i/64 {
				b = append(b, 0)
			}
			b[i/64] |= 1 << (i % 64)
		}
	}
	return b
}

// prefix is the set [0, n), never nil (nil stands for "any index").
func prefix(n int) cset {
	b := make(cset, (n+63)/64)
	for i := 0; i < n; i++ {
		b[i/64] |= 1 << (i % 64)
	}
	return b
}

// union returns the id of the provenance of a row derived from rows of
// ids a and b.
func (s *system) union(a, b int64) int64 {
	if a == b {
		return a
	}
	pa, pb := s.prov[a], s.prov[b]
	// A set that holds the other is the union: no new set (most unions
	// in a long elimination are of rows from the same few constraints).
	if pa.holds(pb) {
		return a
	}
	if pb.holds(pa) {
		return b
	}
	u := s.sc.newSet(max(len(pa), len(pb)))
	copy(u, pa)
	for i, w := range pb {
		u[i] |= w
	}
	s.prov = append(s.prov, u)
	return int64(len(s.prov) - 1)
}

// step records one elimination, for back-substitution.
type step struct {
	v   int
	eq  row   // v was defined by this equality (unit coefficient), or
	ges []row // v was eliminated from these inequalities (those mentioning v)
}

var errOverflow = fmt.Errorf("lincon: coefficient overflow")

// MaxSplits bounds the branches one Solve may take, over all its
// conjunctions, when a conjunction's real shadow is feasible but no integer
// model was found.
const MaxSplits = 512

// splitConj decides one conjunction. When elimination leaves it Unknown
// (the real shadow has a solution, back-substitution found no integer
// one), it branches on a bounded variable, as branch and bound does: a
// variable of at most 16 values is tried at each value, a wider one is
// split in halves (x ≤ mid or x ≥ mid+1). Infeasible only when every
// branch is, Feasible with a branch's model. Fixing the variables with the
// largest coefficients first closes the integer gaps that Fourier–Motzkin
// leaves (27 ≤ 11x + 13y ≤ 45, −10 ≤ 7x − 9y ≤ 4 over the integers).
//
// For Infeasible it returns the core of elimination (elimConj), or nil
// when branching decided it: then every constraint may have been used.
func splitConj(n int, cs []Constraint, budget *int, sc *scratch) (Verdict, []int64, cset) {
	v, m, core := elimConj(n, cs, sc)
	if v != Unknown || *budget <= 0 {
		return v, m, core
	}
	x, lo, hi, ok := splitVar(n, cs)
	if !ok {
		return Unknown, nil, nil
	}
	var branches [][]Constraint
	if hi-lo < 16 {
		for val := lo; val <= hi; val++ {
			branches = append(branches, []Constraint{EQ(-val, T(1, x))})
		}
	} else {
		mid := lo + (hi-lo)/2
		branches = [][]Constraint{{GE(mid, T(-1, x))}, {GE(-(mid + 1), T(1, x))}}
	}
	all := true
	for _, b := range branches {
		if *budget <= 0 {
			return Unknown, nil, nil
		}
		*budget--
		vb, mb, _ := splitConj(n, append(slices.Clip(cs), b...), budget, sc)
		if vb == Feasible {
			return vb, mb, nil
		}
		all = all && vb == Infeasible
	}
	if all {
		return Infeasible, nil, nil
	}
	return Unknown, nil, nil
}

// splitVar picks the variable to branch on: among those that
// single-variable constraints bound to a finite range of at least two
// values, the one with the largest coefficient in a constraint over
// several variables, then the narrowest.
func splitVar(n int, cs []Constraint) (Var, int64, int64, bool) {
	lo := make([]int64, n)
	hi := make([]int64, n)
	coef := make([]int64, n)
	for i := range lo {
		lo[i], hi[i] = math.MinInt64, math.MaxInt64
	}
	for _, c := range cs {
		var x Var = -1
		var a int64
		single := true
		for _, t := range c.Terms {
			if t.Coef == 0 {
				continue
			}
			if x >= 0 && t.Var != x {
				single = false
			}
			x, a = t.Var, a+t.Coef
		}
		if !single {
			for _, t := range c.Terms {
				if int(t.Var) >= 0 && int(t.Var) < n {
					coef[t.Var] = max(coef[t.Var], abs(t.Coef))
				}
			}
			continue
		}
		if x < 0 || a == 0 || int(x) >= n {
			continue
		}
		// a·x + c ≥ 0 (or = 0).
		if a > 0 || c.Eq {
			l := ceilDiv(-c.Const, a)
			if a < 0 {
				l = ceilDiv(c.Const, -a)
			}
			lo[x] = max(lo[x], l)
		}
		if a < 0 || c.Eq {
			h := floorDiv(c.Const, -a)
			if a > 0 {
				h = floorDiv(-c.Const, a)
			}
			hi[x] = min(hi[x], h)
		}
	}
	best := Var(-1)
	var bestW uint64
	for i := 0; i < n; i++ {
		if lo[i] == math.MinInt64 || hi[i] == math.MaxInt64 || hi[i] <= lo[i] || coef[i] == 0 {
			continue
		}
		w := uint64(hi[i] - lo[i])
		if w >= 1<<40 {
			continue
		}
		if best < 0 || coef[i] > coef[best] || coef[i] == coef[best] && w < bestW {
			best, bestW = Var(i), w
		}
	}
	if best < 0 {
		return 0, 0, 0, false
	}
	return best, lo[best], hi[best], true
}

// elimConj decides cs by elimination. For Infeasible it returns the
// indices of the constraints of cs that the refutation used (its core):
// every set of constraints containing them is infeasible too. Equalities
// are eliminated through their least used variable first (pickEq); when
// that order leaves cs undecided (a coefficient overflow, or a real
// shadow whose back-substitution finds no integer point), it is decided
// again in the equalities' own order, so no answer is lost to the order
// (Problem.InOrder: that order only).
func elimConj(n int, cs []Constraint, sc *scratch) (Verdict, []int64, cset) {
	if v, m, core := elimOrdered(n, cs, sc, !sc.inOrder); v != Unknown || sc.inOrder {
		return v, m, core
	}
	return elimOrdered(n, cs, sc, false)
}

// maxBackTries bounds back-substitution after an elimination in pickEq's
// order: one that gives up is decided again in the equalities' own order,
// with no bound, as every elimination was before that order.
const maxBackTries = 2000

// elimOrdered is elimConj, with pickEq's order of equalities when leastUsed.
func elimOrdered(n int, cs []Constraint, sc *scratch, leastUsed bool) (Verdict, []int64, cset) {
	sc.reset()
	s := &system{n: n, eqs: sc.eqs[:0], ges: sc.ges[:0], prov: sc.prov[:0], sc: sc, leastUsed: leastUsed}
	if cap(s.eqs) < len(cs) {
		s.eqs = make([]row, 0, len(cs))
	}
	if cap(s.ges) < 2*len(cs) {
		// Fourier–Motzkin swaps its two lists at every step: the other
		// may be the larger.
		if cap(sc.spare) >= 2*len(cs) {
			s.ges, sc.spare = sc.spare[:0], s.ges
		} else {
			s.ges = make([]row, 0, 2*len(cs))
		}
	}
	if cap(s.prov) < 4*len(cs) {
		s.prov = make([]cset, 0, 4*len(cs))
	}
	eqs0 := s.eqs
	defer func() {
		// Keep what the lists grew to for the next elimination (eqs is
		// consumed from its front).
		if cap(s.eqs) > cap(eqs0) {
			eqs0 = s.eqs
		}
		sc.eqs, sc.ges, sc.prov = eqs0[:0], s.ges[:0], s.prov[:0]
	}()
	for i, c := range cs {
		r := s.newRow()
		p := sc.newSet(i/64 + 1)
		p[i/64] = 1 << (i % 64)
		s.prov = append(s.prov, p)
		r[n+1] = int64(len(s.prov) - 1)
		for _, t := range c.Terms {
			if int(t.Var) < 0 || int(t.Var) >= n {
				panic(fmt.Sprintf("lincon: variable x%d out of range [0,%d)", t.Var, n))
			}
			r[t.Var] += t.Coef
		}
		s.setMask(r)
		r[n] = c.Const
		if c.Eq {
			s.eqs = append(s.eqs, r)
		} else {
			s.ges = append(s.ges, r)
		}
	}
	v, steps, core, err := s.eliminate()
	if err != nil {
		return Unknown, nil, nil
	}
	if v == Infeasible {
		return Infeasible, nil, slices.Clone(core) // sc's sets are reused
	}
	m := make([]int64, n)
	budget := -1 // unbounded
	if leastUsed {
		budget = maxBackTries
	}
	if backSubstitute(steps, m, len(steps)-1, &budget) {
		if checkModel(cs, m) {
			return Feasible, m, nil
		}
	}
	return Unknown, nil, nil
}

func checkModel(cs []Constraint, m []int64) bool {
	for _, c := range cs {
		s := c.Const
		for _, t := range c.Terms {
			s += t.Coef * m[t.Var]
		}
		if c.Eq && s != 0 || !c.Eq && s < 0 {
			return false
		}
	}
	return true
}

// eliminate removes every variable, returning Infeasible as soon as a
// constant constraint is violated: each step normalizes the rows, then
// eliminates a variable through an equality with a unit coefficient if
// there is one, else through Fourier–Motzkin on the inequalities.
func (s *system) eliminate() (Verdict, []step, cset, error) {
	steps := s.sc.steps[:0]
	defer func() { s.sc.steps = steps[:0] }()
	eliminated := make([]bool, s.n)
	for {
		if core, infeasible := s.normalize(); infeasible {
			return Infeasible, nil, core, nil
		}
		if len(s.eqs) > 0 {
			st, ok, err := s.eliminateEq()
			if err != nil {
				return Unknown, nil, nil, err
			}
			if ok {
				steps = append(steps, st)
				eliminated[st.v] = true
			}
			continue
		}
		v := s.fmVar(eliminated)
		if v < 0 {
			return Feasible, steps, nil, nil
		}
		st, err := s.fourierMotzkin(v)
		if err != nil {
			return Unknown, nil, nil, err
		}
		steps = append(steps, st)
		eliminated[v] = true
	}
}

// normalize normalizes every row, dropping those trivially true; when one
// is false it returns the input constraints that row came from.
func (s *system) normalize() (core cset, infeasible bool) {
	var bad row
	if s.eqs, bad = s.normalizeAll(s.eqs, true); bad != nil {
		return s.prov[bad[s.n+1]], true
	}
	if s.ges, bad = s.normalizeAll(s.ges, false); bad != nil {
		return s.prov[bad[s.n+1]], true
	}
	return nil, false
}

// eliminateEq takes the first equality. With a unit coefficient it
// eliminates that variable from every other row exactly and returns the
// step (ok); without one it keeps the equality as two inequalities (the
// real shadow handles it, soundly but inexactly).
func (s *system) eliminateEq() (st step, ok bool, err error) {
	k, v := s.pickEq()
	eq := s.eqs[k]
	s.eqs = slices.Delete(s.eqs, k, k+1)
	if v < 0 {
		neg := s.newRow()
		for i := 0; i <= s.n; i++ {
			neg[i] = -eq[i]
		}
		neg[s.n+1] = eq[s.n+1]
		s.setMask(neg)
		s.ges = append(s.ges, eq, neg)
		return step{}, false, nil
	}
	// eq: a·x_v + rest = 0 with a = ±1, so x_v = −a·rest.
	for _, set := range [][]row{s.eqs, s.ges} {
		for _, r := range set {
			if r[v] == 0 {
				continue
			}
			k := r[v] * eq[v] // r − k·eq removes x_v, since eq[v]² = 1
			for i := 0; i <= s.n; i++ {
				if eq[i] == 0 {
					continue
				}
				ke, err := mul(k, eq[i])
				if err == nil {
					r[i], err = sub(r[i], ke)
				}
				if err != nil {
					return step{}, false, err
				}
			}
			r[s.n+1] = s.union(r[s.n+1], eq[s.n+1])
			r[s.n+2], r[s.n+4] = 0, 0 // to normalize and hash again
			s.setMask(r)
		}
	}
	return step{v: v, eq: eq}, true, nil
}

// pickEq picks the equality and its variable with a unit coefficient to
// eliminate: the variable that the fewest other rows mention (a value
// defined by one equality and used nowhere else costs nothing to
// eliminate, while substituting a variable of many rows spreads the
// equality's other variables into all of them and multiplies what
// Fourier–Motzkin later combines). It returns variable −1 and the first
// equality when no equality has a unit coefficient. Without leastUsed, it
// is the first equality and its first variable with a unit coefficient.
func (s *system) pickEq() (int, int) {
	if !s.leastUsed {
		for i := 0; i < s.n; i++ {
			if a := s.eqs[0][i]; a == 1 || a == -1 {
				return 0, i
			}
		}
		return 0, -1
	}
	// The candidates (unit coefficients of some equality), then how many
	// rows mention each: a row is read at the candidates only.
	if cap(s.sc.uses) < s.n {
		s.sc.uses = make([]int, s.n)
	}
	uses := s.sc.uses[:s.n]
	clear(uses)
	cands := s.sc.cands[:0]
	for _, eq := range s.eqs {
		s.sc.nz = s.nonzeros(s.sc.nz, eq)
		for _, i := range s.sc.nz {
			if (eq[i] == 1 || eq[i] == -1) && uses[i] == 0 {
				uses[i] = 1 // a candidate; counted from 1
				cands = append(cands, i)
			}
		}
	}
	slices.Sort(cands) // ties go to the lowest index
	s.sc.cands = cands
	for _, set := range [][]row{s.eqs, s.ges} {
		for _, r := range set {
			for _, i := range cands {
				if r[i] != 0 {
					uses[i]++
				}
			}
		}
	}
	k, v := 0, -1
	for j, eq := range s.eqs {
		for _, i := range cands {
			if (eq[i] == 1 || eq[i] == -1) && (v < 0 || uses[i] < uses[v]) {
				k, v = j, i
			}
		}
	}
	return k, v
}

// fmVar picks the variable for Fourier–Motzkin, or −1 when no inequality
// mentions one. An elimination is exact over the integers (the Omega
// test's exact shadow) when every lower bound or every upper bound has a
// unit coefficient; those go first, each kind in order of cost.
func (s *system) fmVar(eliminated []bool) int {
	// One pass over the rows, row by row, counts every variable's bounds
	// (a pass per variable read each row n times, out of order).
	if cap(s.sc.fmCount) < s.n {
		s.sc.fmCount = make([]fmCount, s.n)
	}
	counts := s.sc.fmCount[:s.n]
	for i := range counts {
		counts[i] = fmCount{unitLo: true, unitHi: true}
	}
	for _, r := range s.ges {
		s.sc.nz = s.nonzeros(s.sc.nz, r)
		for _, i := range s.sc.nz {
			a := r[i]
			if a > 0 {
				counts[i].lo++
				counts[i].unitLo = counts[i].unitLo && a == 1
			} else if a < 0 {
				counts[i].hi++
				counts[i].unitHi = counts[i].unitHi && a == -1
			}
		}
	}
	v, cost, vexact := -1, math.MaxInt, false
	for i, c := range counts {
		if eliminated[i] || c.lo+c.hi == 0 {
			continue
		}
		exact := c.unitLo || c.unitHi
		if k := c.lo * c.hi; exact && !vexact || exact == vexact && k < cost {
			v, cost, vexact = i, k, exact
		}
	}
	return v
}

// fmCount is what fmVar counts of a variable: its lower and upper bounds,
// and whether each kind has unit coefficients only.
type fmCount struct {
	lo, hi         int
	unitLo, unitHi bool
}

// maxRows bounds the inequalities an elimination keeps, after removing
// duplicates: a step that would keep more gives up (Unknown).
const maxRows = 4000

// fourierMotzkin eliminates variable v from the inequalities: each lower
// bound of v combined with each upper bound, tightened, replaces the rows
// that mention v, which the returned step keeps for back-substitution.
// Duplicates are dropped as the rows are made, so that a step stops as
// soon as it passes maxRows distinct rows instead of making every
// combination first (tens of thousands when most are alike).
func (s *system) fourierMotzkin(v int) (step, error) {
	nlo, nhi := 0, 0
	for _, r := range s.ges {
		if r[v] > 0 {
			nlo++
		} else if r[v] < 0 {
			nhi++
		}
	}
	keep := min(len(s.ges)-nlo-nhi+nlo*nhi, max(maxRows+1, len(s.ges)))
	d := s.deduper(s.sc.spare[:0], keep) // the other of the two backing arrays
	// The rows mentioning v, lower bounds first, cut from the
	// scratch list of references (back-substitution reads them).
	at := len(s.sc.refs)
	for _, r := range s.ges {
		if r[v] > 0 {
			s.sc.refs = append(s.sc.refs, r)
		}
	}
	for _, r := range s.ges {
		switch {
		case r[v] < 0:
			s.sc.refs = append(s.sc.refs, r)
		case r[v] == 0:
			if !d.add(r) {
				return step{}, errOverflow
			}
		}
	}
	mention := s.sc.refs[at:len(s.sc.refs):len(s.sc.refs)]
	lows, highs := mention[:nlo], mention[nlo:]
	for _, lo := range lows {
		for _, hi := range highs {
			r, err := s.combine(v, lo, hi)
			if err != nil {
				return step{}, err
			}
			if !d.add(r) {
				return step{}, errOverflow
			}
		}
	}
	s.sc.spare = s.ges[:0]
	s.ges = d.out
	return step{v: v, ges: mention}, nil
}

// combine returns the combination of lower bound lo: a·x + L ≥ 0 (a > 0)
// and upper bound hi: −b·x + H ≥ 0 (b > 0) of x = x_v without x: b·L +
// a·H ≥ 0.
func (s *system) combine(v int, lo, hi row) (row, error) {
	a, b := lo[v], -hi[v]
	r := s.newRow()
	if !s.masked() {
		for i := 0; i <= s.n; i++ {
			if err := combineAt(r, i, a, b, lo, hi); err != nil {
				return nil, err
			}
		}
		r[v] = 0
	} else {
		// The coefficients either row has, then the constant.
		var m uint64
		for u := uint64(lo[s.n+3] | hi[s.n+3]); u != 0; u &= u - 1 {
			i := bits.TrailingZeros64(u)
			if err := combineAt(r, i, a, b, lo, hi); err != nil {
				return nil, err
			}
			if r[i] != 0 && i != v {
				m |= 1 << i
			}
		}
		if err := combineAt(r, s.n, a, b, lo, hi); err != nil {
			return nil, err
		}
		r[v] = 0
		r[s.n+3] = int64(m)
	}
	r[s.n+1] = s.union(lo[s.n+1], hi[s.n+1])
	return r, nil
}

// combineAt sets slot i of r, the combination b·lo + a·hi.
func combineAt(r row, i int, a, b int64, lo, hi row) error {
	if lo[i] == 0 && hi[i] == 0 {
		return nil // rows are sparse; r[i] is 0 already
	}
	x, err1 := mul(b, lo[i])
	y, err2 := mul(a, hi[i])
	if err1 != nil || err2 != nil {
		return errOverflow
	}
	var err error
	r[i], err = add(x, y)
	return err
}

// normalizeAll divides each row by the gcd of its coefficients (rounding
// the constant of an inequality down) and reports false if some row has no
// integer solution, returning that row. A row it normalized before and
// nothing changed since is kept as it is: normalizing it again would
// change nothing, and most rows of a Fourier–Motzkin step are such.
func (s *system) normalizeAll(rs []row, eq bool) ([]row, row) {
	n := s.n
	out := rs[:0]
	for _, r := range rs {
		if r[n+2] == 1 {
			out = append(out, r)
			continue
		}
		var g int64
		s.sc.nz = s.nonzeros(s.sc.nz, r)
		for _, i := range s.sc.nz {
			if g == 1 {
				break
			}
			g = gcd(g, abs(r[i]))
		}
		if g == 0 {
			if eq && r[n] != 0 || !eq && r[n] < 0 {
				return nil, r
			}
			continue
		}
		if g > 1 {
			if eq {
				if r[n]%g != 0 {
					return nil, r
				}
				r[n] /= g
			} else {
				r[n] = floorDiv(r[n], g)
			}
			for _, i := range s.sc.nz {
				r[i] /= g
			}
			r[n+4] = 0 // to hash again
		}
		r[n+2] = 1
		out = append(out, r)
	}
	return out, nil
}

// A rowSet collects rows without duplicates: of two rows with the same
// coefficients it keeps the tighter, in the place of the first.
type rowSet struct {
	s     *system
	table []int32 // an open-addressing table of indices into out + 1 (0: empty)
	mask  uint64
	out   []row
}

// deduper returns an empty rowSet that appends to out and holds up to
// size rows.
func (s *system) deduper(out []row, size int) rowSet {
	// The table at least twice as large as the rows, cleared.
	n := 16
	for n < 2*size {
		n *= 2
	}
	if cap(s.sc.table) < n {
		s.sc.table = make([]int32, n)
	}
	table := s.sc.table[:n]
	clear(table)
	if cap(out) < size {
		out = make([]row, 0, size)
	}
	return rowSet{s: s, table: table, mask: uint64(n - 1), out: out}
}

// add adds r, or keeps the tighter of r and the row with its
// coefficients; it reports false when the set holds more than maxRows
// rows.
func (d *rowSet) add(r row) bool {
	n := d.s.n
	i := d.s.hash(r) & d.mask // r's slot n+4 holds its hash now
	for {
		j := d.table[i] - 1
		if j < 0 {
			d.table[i] = int32(len(d.out)) + 1
			d.out = append(d.out, r)
			return len(d.out) <= maxRows
		}
		if d.out[j][n+4] == r[n+4] && slices.Equal(d.out[j][:n], r[:n]) {
			if r[n] < d.out[j][n] { // the tighter of the two
				d.out[j] = r
			}
			return true
		}
		i = (i + 1) & d.mask
	}
}

// hash returns the hash of r's coefficients, from its slot when it has
// one: of the nonzero coefficients and their indices (equal rows, equal
// hashes), odd so that 0 stands for none.
func (s *system) hash(r row) uint64 {
	if h := r[s.n+4]; h != 0 {
		return uint64(h)
	}
	h := uint64(14695981039346656037)
	s.sc.nz = s.nonzeros(s.sc.nz, r)
	for _, i := range s.sc.nz {
		h ^= uint64(i)
		h *= 1099511628211
		h ^= uint64(r[i])
		h *= 1099511628211
	}
	h |= 1
	r[s.n+4] = int64(h)
	return h
}

// backSubstitute assigns the variables of steps[i], steps[i-1], … in turn,
// searching a few integer values for a variable whose bounds the real
// shadow left with no integer between them: at most *budget assignments
// when it is not negative (the search is exponential in the steps where
// the shadow is not exact), after which it gives up.
func backSubstitute(steps []step, m []int64, i int, budget *int) bool {
	if i < 0 {
		return true
	}
	if *budget == 0 {
		return false
	}
	*budget--
	st := steps[i]
	n := len(m)
	if st.eq != nil {
		// eq[v]·x_v + Σ others + c = 0 with eq[v] = ±1.
		s := st.eq[n]
		for j := 0; j < n; j++ {
			if j != st.v {
				s += st.eq[j] * m[j]
			}
		}
		m[st.v] = -s * st.eq[st.v]
		return backSubstitute(steps, m, i-1, budget)
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	for _, r := range st.ges {
		// r[v]·x + s ≥ 0
		s := r[n]
		for j := 0; j < n; j++ {
			if j != st.v {
				s += r[j] * m[j]
			}
		}
		a := r[st.v]
		if a > 0 {
			lo = max(lo, ceilDiv(-s, a))
		} else {
			hi = min(hi, floorDiv(s, -a))
		}
	}
	if lo > hi {
		return false
	}
	// Prefer values near 0, then search outwards a little.
	start := int64(0)
	if start < lo {
		start = lo
	} else if start > hi {
		start = hi
	}
	for k := int64(0); k < 8; k++ {
		for _, x := range []int64{start + k, start - k} {
			if x < lo || x > hi || (k == 0 && x != start+k) {
				continue
			}
			m[st.v] = x
			if backSubstitute(steps, m, i-1, budget) {
				return true
			}
		}
	}
	return false
}

// GCD returns the greatest common divisor of |a| and |b| (0 when both are 0).
func GCD(a, b int64) int64 {
	return gcd(abs(a), abs(b))
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

func mul(a, b int64) (int64, error) {
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo > math.MaxInt64/2 {
		return 0, errOverflow
	}
	if (a < 0) != (b < 0) {
		return -int64(lo), nil
	}
	return int64(lo), nil
}

func add(a, b int64) (int64, error) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) || abs(s) > math.MaxInt64/2 {
		return 0, errOverflow
	}
	return s, nil
}

func sub(a, b int64) (int64, error) { return add(a, -b) }
