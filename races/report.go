package races

import (
	"fmt"
	"go/token"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/replay"
	"github.com/gpukvet/gpukvet/internal/twothread"
)

// search is the race search of one kernel: which pairs of accesses to ask
// the two-thread model about, and which of its answers to report.
type search struct {
	fset *token.FileSet
	fn   *ssa.Function
	k    *twothread.Kernel
	keys map[*twothread.Access]string // the line and object a race reported at an access goes to (keyOf)

	done    map[[2]*twothread.Access]bool // pairs with a race
	budget  int                           // pair questions left (MaxPairs)
	founds  []found                       // the races, one per line and object
	objects []twothread.Object            // the object of each race, as first found
	seenMsg map[string]int                // the race reported at a line for an object
	log     *witnessLog                   // what replay did, for tests; nil otherwise
	dims    int                           // the dimensions the kernel reads, for thread names
	runner  *replay.Runner                // the replays of the kernel's witnesses (replay.go)
}

// found is a race: the pair (A the earlier access) and the collision its
// message is made from, and where it is reported.
type found struct {
	pair twothread.Pair
	c    twothread.Collision
	res  replay.Result // the replay of c's witness (replay.go)
	// replayed: res is the replay's (settle); before, the race is as the
	// solver found it.
	replayed bool
	key      string
	pos      token.Pos
	// alts are the collisions found at the line, as Collide gave them
	// (concrete ones first), for settle to replay.
	alts []alt
}

// An alt is a pair and its collision, in Collide's order of the accesses.
type alt struct {
	pr twothread.Pair
	c  twothread.Collision
}

// maxAlts bounds the collisions kept per line for replay.
const maxAlts = 4

// possible reports whether the race has no concrete collision that
// replay did not refute. (One the replay could not run is not possible:
// a kernel memspace rejects still says it, as one the replay could not
// check.)
func (f found) possible() bool {
	return f.c.Witness != twothread.Exact || f.replayed && f.res.Verdict == replay.Refuted
}

// unreplayed reports whether the race has a witness that did not happen
// when replayed, or that the replay could not run (its instruction budget,
// an instruction outside its subset): it is not printed as a data race.
func (f found) unreplayed() bool {
	return f.replayed && f.c.Witness != twothread.NoWitness && f.res.Verdict != replay.Happens
}

// findRaces asks the pair question of every pair that pairs yields,
// except those found racing already (in another interval) and those whose
// race a concrete collision at their line settles.
func (s *search) findRaces() []Race {
	s.done = map[[2]*twothread.Access]bool{}
	s.budget = maxPairs
	s.seenMsg = map[string]int{}
	many := s.countPairs() > indexFirstPairs
	misses := 0 // pairs the index-only question did not set apart
	for pr := range s.pairs {
		if s.done[[2]*twothread.Access{pr.A, pr.B}] || s.settled(pr.A, pr.B) {
			continue
		}
		if many || misses < indexMisses {
			if s.k.IndexApart(pr) {
				continue
			}
			misses++
		}
		if !s.ask(pr) {
			return s.undecided(pr)
		}
	}
	races := s.kept()
	sort.SliceStable(races, func(i, j int) bool { return races[i].Pos < races[j].Pos })
	return races
}

// indexFirstPairs is the number of pair questions above which each pair
// is first tested by its indices alone (twothread's IndexApart): in
// straight-line code with hundreds of accesses at affine indices (a tile
// of stores per thread) most pairs are apart by an index difference that
// many pairs share, so one solved problem settles them all, and the pair
// budget goes to the pairs that need their paths. Below it, a pair is
// tested so only until indexMisses pairs were not set apart that way.
const indexFirstPairs = 1000

// indexMisses is the number of pairs a kernel of fewer pairs asks by
// their indices alone first, and finds not apart that way, before it asks
// every further pair its full question straight away. Where the indices
// alone set the pairs apart (a sort's compare-and-swap partners, computed
// with divisions and shifts by parameters), that question is smaller than
// the full one, whose path conditions multiply the cases the solver
// searches; where they do not (a race, or a guard that keeps the threads
// apart), asking it first only adds a question, so a kernel stops after a
// few misses. Apart by the indices is apart in the full question: the
// findings are the same either way.
const indexMisses = 4

// countPairs returns the number of pair questions the kernel has, or
// indexFirstPairs+1 once past it.
func (s *search) countPairs() int {
	n := 0
	for range s.pairs {
		if n++; n > indexFirstPairs {
			break
		}
	}
	return n
}

// pairs yields the pair questions of the kernel: every pair of accesses
// that may conflict in some barrier interval (threads of one block) and
// that their affine indices do not settle, then every pair of global
// accesses that may conflict (threads of different blocks, which nothing
// orders).
func (s *search) pairs(yield func(twothread.Pair) bool) {
	for _, iv := range s.k.Intervals() {
		in := s.k.AccessesIn(iv)
		for i, a := range in {
			for _, b := range in[i:] {
				if conflict(a, b) && !s.k.SameBlockApart(a, b) && !yield(twothread.Pair{A: a, B: b, In: iv}) {
					return
				}
			}
		}
	}
	if !s.k.MultiBlock() {
		return
	}
	all := s.k.Accesses()
	for i, a := range all {
		for _, b := range all[i:] {
			if a.Object().Global() && conflict(a, b) && !yield(twothread.Pair{A: a, B: b, Cross: true}) {
				return
			}
		}
	}
}

// ask asks the pair question of pr and reports its race, if any; it
// returns false when the kernel's budget of questions is spent.
func (s *search) ask(pr twothread.Pair) bool {
	if s.budget--; s.budget < 0 {
		return false
	}
	if c, ok := s.k.Collide(pr); ok {
		s.report(pr, c)
	}
	return true
}

// keyOf returns where a race between accesses a and b is reported: one
// diagnostic per object and line is enough to act on, so the earlier
// access is named first and the race reported at the later one, where a
// barrier (or a different index) is missing. An access inside a device
// function is reported at the kernel's call that leads to it.
func (s *search) keyOf(a, b *twothread.Access) (string, token.Pos) {
	if a.Pos() > b.Pos() {
		b = a
	}
	key, ok := s.keys[b]
	if !ok {
		line := s.fset.Position(b.KernelPos())
		key = fmt.Sprintf("%s:%d %s", line.Filename, line.Line, s.k.ObjectName(b.Object()))
		s.keys[b] = key
	}
	return key, b.KernelPos()
}

// settled reports whether a race with a concrete collision is already
// reported where the race of a and b would be: asking can change nothing.
func (s *search) settled(a, b *twothread.Access) bool {
	if len(s.founds) == 0 {
		return false
	}
	key, _ := s.keyOf(a, b)
	i, ok := s.seenMsg[key]
	return ok && !s.founds[i].possible()
}

// report records the race of pair pr: a new one at its line and object,
// or a concrete collision that replaces a possible race there.
func (s *search) report(pr twothread.Pair, c twothread.Collision) {
	s.done[[2]*twothread.Access{pr.A, pr.B}] = true
	f := s.orient(pr, c, replay.Result{})
	f.alts = []alt{{pr, c}}
	key := f.key
	if i, ok := s.seenMsg[key]; ok {
		old := &s.founds[i]
		// A concrete collision replaces a possible race at the line.
		if old.possible() && !f.possible() {
			f.alts = append(f.alts, old.alts[:min(len(old.alts), maxAlts-1)]...)
			*old = f
		} else if len(old.alts) < maxAlts {
			old.alts = append(old.alts, alt{pr, c})
		}
		return
	}
	s.seenMsg[key] = len(s.founds)
	s.founds = append(s.founds, f)
	s.objects = append(s.objects, pr.A.Object())
}

// kept returns the races to report, each with the guard that excludes
// it when a precondition on sizes does. A race with a concrete collision
// on an object makes the possible ones on the same object noise: report
// the real pair, not an initial write that could only not be proven
// apart.
func (s *search) kept() []Race {
	if len(s.founds) == 0 {
		return nil
	}
	at := s.pairsAt()
	settled := make([]bool, len(s.founds))
	for i := range s.founds {
		s.founds[i], settled[i] = s.settle(s.founds[i], at[s.founds[i].key])
	}
	exact := map[twothread.Object]bool{}
	for i, f := range s.founds {
		if settled[i] && !f.possible() {
			exact[s.objects[i]] = true
		}
	}
	var kept []Race
	for i, f := range s.founds {
		if !settled[i] || f.possible() && exact[s.objects[i]] {
			continue
		}
		r := Race{Pos: f.pos, Possible: f.possible()}
		clause := ""
		if g, ok := s.k.Guard(f.c, f.pair, at[f.key]); ok {
			r.Guard, r.Require, clause = g.Cond, g.Require, g.Clause()
		}
		r.Message = s.message(f, clause)
		r.Related = s.related(f)
		if s.log != nil && f.c.Witness != twothread.NoWitness {
			s.log.note(f, s.fn.Name()+": "+r.Message)
		}
		kept = append(kept, r)
	}
	return kept
}

// pairsAt maps the key of each race found to the pair questions whose
// race keyOf reports under it: every pair the diagnostic at that line
// stands for.
func (s *search) pairsAt() map[string][]twothread.Pair {
	at := map[string][]twothread.Pair{}
	for pr := range s.pairs {
		key, _ := s.keyOf(pr.A, pr.B)
		if _, found := s.seenMsg[key]; found {
			at[key] = append(at[key], pr)
		}
	}
	return at
}

// MaxPairs bounds the pair problems asked for one kernel (pairs the
// affine prefilter or, in a kernel of many pairs, their index difference
// alone settles do not count). A kernel that needs more is not passed: it
// gets one diagnostic saying it could not be decided, and why.
const MaxPairs = 10000

// maxPairs is MaxPairs, which tests lower.
var maxPairs = MaxPairs

// undecided is the diagnostic of a kernel whose budget ran out at pair pr:
// it names the object whose accesses the indices alone did not set apart,
// how many there are, and what to change.
func (s *search) undecided(pr twothread.Pair) []Race {
	n := 0
	for _, a := range s.k.Accesses() {
		if a.Object() == pr.A.Object() {
			n++
		}
	}
	kind := "shared"
	if pr.A.Object().Global() {
		kind = "global"
	}
	return []Race{{Pos: s.fn.Pos(), Message: fmt.Sprintf(
		"could not decide whether kernel %s is free of data races: it needs more than %d pairs of accesses checked (races.MaxPairs); the budget ran out among the %d accesses to %s %s (at %s and %s), which their indices alone do not set apart (an index read from memory, or terms that differ between accesses by more than a constant); index with the thread index plus constants (out[g*k+j]), or split the accesses into device functions or barrier intervals of fewer accesses each",
		s.fn.Name(), maxPairs, n, kind, s.k.ObjectName(pr.A.Object()), s.where(pr.A), s.where(pr.B))}}
}

// conflict reports whether a and b touch one object, at least one writes,
// and not both are atomic.
func conflict(a, b *twothread.Access) bool {
	if a.Object() != b.Object() || !(a.Write() || b.Write()) || (a.Atomic() && b.Atomic()) {
		return false
	}
	return true
}

// where names the line of access a, and the device function holding it.
func (s *search) where(a *twothread.Access) string {
	w := fmt.Sprintf("line %d", s.fset.Position(a.Pos()).Line)
	if fn := a.DeviceFunc(); fn != nil {
		if o := fn.Origin(); o != nil {
			fn = o
		}
		w += " in " + fn.Name()
	}
	return w
}

// message words the race of accesses a and b (a the earlier) that c
// found; clause, when not empty, is the Clause of the precondition that
// excludes it.
func (s *search) message(f found, clause string) string {
	a, b, c := f.pair.A, f.pair.B, f.c
	la, lb := s.where(a), s.where(b)
	tail := "with no barrier between"
	if f.pair.Cross {
		tail = "and threads of different blocks are never ordered"
	}
	if f.unreplayed() && replayFeedback {
		return s.unproven(f, tail) + clause
	}
	kind := "shared"
	if a.Object().Global() {
		kind = "global"
	}
	name := s.k.ObjectName(a.Object())
	switch c.Witness {
	case twothread.Example:
		return fmt.Sprintf("possible data race on %s %s: the %s at %s and the %s at %s may touch the same element from two threads %s (for example %s at %s and %s at %s; the indices depend on values the analysis does not track)%s",
			kind, name, noun(a), la, noun(b), lb, tail, c.Threads[0], c.Elems[0], c.Threads[1], c.Elems[1], clause)
	case twothread.NoWitness:
		return fmt.Sprintf("possible data race on %s %s: the %s at %s and the %s at %s may touch the same element from two threads %s (the indices could not be proven distinct)%s",
			kind, name, noun(a), la, noun(b), lb, tail, clause)
	}
	if c.Params != "" {
		tail += " (when " + c.Params + ")"
	}
	tail += clause
	if a == b {
		return fmt.Sprintf("data race on %s %s: %s and %s both %s %s (%s) %s",
			kind, name, c.Threads[0], c.Threads[1], baseVerb(a), c.Elems[0], la, tail)
	}
	return fmt.Sprintf("data race on %s %s: %s %s %s (%s) while %s %s %s (%s) %s",
		kind, name, c.Threads[0], verb(a), c.Elems[0], la, c.Threads[1], verb(b), c.Elems[1], lb, tail)
}

// related names the other access of race f, the one not at its
// position, as related information (none when both are one access, or
// at one position of the kernel).
func (s *search) related(f found) []analysis.RelatedInformation {
	other, i := f.pair.A, 0
	if other.KernelPos() == f.pos {
		other, i = f.pair.B, 1
	}
	if other.KernelPos() == f.pos {
		return nil
	}
	msg := "the other access: the " + noun(other) + " at " + s.where(other)
	if f.c.Witness == twothread.Exact && !f.unreplayed() {
		msg = fmt.Sprintf("the other access: %s %s %s", f.c.Threads[i], verb(other), f.c.Elems[i])
	}
	return []analysis.RelatedInformation{{Pos: other.KernelPos(), Message: msg}}
}

func noun(a *twothread.Access) string {
	switch {
	case a.Atomic():
		return "atomic update"
	case a.Write():
		return "write"
	}
	return "read"
}

func baseVerb(a *twothread.Access) string {
	switch {
	case a.Atomic():
		return "atomically update"
	case a.Write():
		return "write"
	}
	return "read"
}

func verb(a *twothread.Access) string {
	switch {
	case a.Atomic():
		return "atomically updates"
	case a.Write():
		return "writes"
	}
	return "reads"
}
