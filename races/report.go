package races

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
)

// findRaces asks the pair question for every pair of accesses that some
// barrier interval holds (threads of one block), and for every pair of
// global accesses (threads of different blocks, which nothing orders).
func (k *kernelAn) findRaces() []Race {
	starts := []*node{nil}
	for _, n := range k.g.nodes {
		if n.barrier != nil {
			starts = append(starts, n)
		}
	}
	done := map[[2]int]bool{}
	budget := MaxPairs
	var races []Race
	var roots []rootKey // the object of each race
	type found struct {
		pair racePair
		out  outcome
		key  string
	}
	var founds []found          // what each race's message was made from
	seenMsg := map[string]int{} // the race reported at a line for an object
	// One diagnostic per object and line is enough to act on: the earlier
	// access is named first and the race reported at the later one, where
	// a barrier (or a different index) is missing. An access inside a
	// device function is reported at the kernel's call that leads to it.
	keyOf := func(a, b *access) (string, token.Pos) {
		if a.pos > b.pos {
			b = a
		}
		if b.key == "" {
			line := k.fset.Position(kernelPos(b))
			b.key = fmt.Sprintf("%s:%d %s", line.Filename, line.Line, k.rootName(b.root))
		}
		return b.key, kernelPos(b)
	}
	// settled: a race with a concrete collision is already reported where
	// this pair's would be; asking it can change nothing.
	settled := func(a, b *access) bool {
		if len(races) == 0 {
			return false
		}
		key, _ := keyOf(a, b)
		i, ok := seenMsg[key]
		return ok && !races[i].Possible
	}
	report := func(a, b *access, start *node, out outcome, cross bool) {
		if out.p != nil {
			out.p.memo = nil // kept for the guard search: only its variables matter
		}
		done[[2]int{a.idx, b.idx}] = true
		if a.pos > b.pos {
			a, b = b, a
			out.threads[0], out.threads[1] = out.threads[1], out.threads[0]
			out.elems[0], out.elems[1] = out.elems[1], out.elems[0]
		}
		key, pos := keyOf(a, b)
		r := Race{Pos: pos, Message: k.message(a, b, out, cross), Possible: out.witness != "exact"}
		if i, ok := seenMsg[key]; ok {
			// A concrete collision replaces a possible race at the line.
			if races[i].Possible && !r.Possible {
				races[i] = r
				founds[i] = found{racePair{a, b, start, cross}, out, key}
			}
			return
		}
		seenMsg[key] = len(races)
		races = append(races, r)
		roots = append(roots, a.root)
		founds = append(founds, found{racePair{a, b, start, cross}, out, key})
	}
	for _, s := range starts {
		in := k.accessesIn(s)
		for i, a := range in {
			for _, b := range in[i:] {
				if !conflict(a, b) || done[[2]int{a.idx, b.idx}] || k.sameBlockApart(a, b) || settled(a, b) {
					continue
				}
				if budget--; budget < 0 {
					return k.undecided()
				}
				if out := k.checkPair(a, b, s, false); out.race {
					report(a, b, s, out, false)
				}
			}
		}
	}
	if k.multiBlock() {
		for i, a := range k.accesses {
			for _, b := range k.accesses[i:] {
				if !a.root.global() || !conflict(a, b) || done[[2]int{a.idx, b.idx}] || settled(a, b) {
					continue
				}
				if budget--; budget < 0 {
					return k.undecided()
				}
				if out := k.checkPair(a, b, nil, true); out.race {
					report(a, b, nil, out, true)
				}
			}
		}
	}
	// A race with a concrete collision on an object makes the possible ones
	// on the same object noise: report the real pair, not an initial write
	// that could only not be proven apart.
	exact := map[rootKey]bool{}
	for i, r := range races {
		if !r.Possible {
			exact[roots[i]] = true
		}
	}
	kept := races[:0]
	for i, r := range races {
		if !r.Possible || !exact[roots[i]] {
			// A race that sizes a precondition excludes names the guard.
			f := founds[i]
			if c := k.chooseGuard(f.out, f.pair, k.pairsAt(f.key, keyOf, starts)); c != nil {
				f.out.guard, f.out.require = []string{c.cond}, []string{c.require}
				a, b := f.pair.a, f.pair.b
				if a.pos > b.pos {
					a, b = b, a
				}
				r.Message = k.message(a, b, f.out, f.pair.cross)
				r.Guard, r.Require = c.cond, c.require
			}
			kept = append(kept, r)
		}
	}
	races = kept
	sort.SliceStable(races, func(i, j int) bool { return races[i].Pos < races[j].Pos })
	return races
}

// pairsAt lists the pair questions whose race keyOf reports under key:
// every pair the diagnostic at that line stands for.
func (k *kernelAn) pairsAt(key string, keyOf func(a, b *access) (string, token.Pos), starts []*node) []racePair {
	var out []racePair
	for _, s := range starts {
		in := k.accessesIn(s)
		for i, a := range in {
			for _, b := range in[i:] {
				if conflict(a, b) && !k.sameBlockApart(a, b) {
					if kk, _ := keyOf(a, b); kk == key {
						out = append(out, racePair{a, b, s, false})
					}
				}
			}
		}
	}
	if k.multiBlock() {
		for i, a := range k.accesses {
			for _, b := range k.accesses[i:] {
				if a.root.global() && conflict(a, b) {
					if kk, _ := keyOf(a, b); kk == key {
						out = append(out, racePair{a, b, nil, true})
					}
				}
			}
		}
	}
	return out
}

// MaxPairs bounds the pair problems asked for one kernel (pairs the
// affine prefilter settles do not count). A kernel that needs more is not
// passed: it gets one diagnostic saying it could not be decided.
const MaxPairs = 10000

func (k *kernelAn) undecided() []Race {
	return []Race{{Pos: k.fn.Pos(), Message: fmt.Sprintf(
		"could not decide whether kernel %s is free of data races: it needs more than %d pairs of accesses checked (races.MaxPairs); split it into device functions or fewer accesses per barrier interval",
		k.fn.Name(), MaxPairs)}}
}

func (k *kernelAn) multiBlock() bool {
	for d := 0; d < k.shape.Dims; d++ {
		if k.shape.Grid[d] != 1 {
			return true
		}
	}
	return false
}

// conflict reports whether a and b touch one object, at least one writes,
// and not both are atomic.
func conflict(a, b *access) bool {
	if a.root != b.root || !(a.write || b.write) || (a.atomic && b.atomic) {
		return false
	}
	return true
}

// kernelPos returns the position in the kernel itself where access a
// happens: its own position, or that of the call into the device function
// holding it.
func kernelPos(a *access) token.Pos {
	pos := a.pos
	for fr := a.node.fr; fr.parent != nil; fr = fr.parent {
		if fr.call.Pos().IsValid() {
			pos = fr.call.Pos()
		}
	}
	return pos
}

// where names the line of access a, and the device function holding it.
func (k *kernelAn) where(a *access) string {
	s := fmt.Sprintf("line %d", k.fset.Position(a.pos).Line)
	if fr := a.node.fr; fr.parent != nil {
		fn := fr.fn
		if o := fn.Origin(); o != nil {
			fn = o
		}
		s += " in " + fn.Name()
	}
	return s
}

func (k *kernelAn) message(a, b *access, out outcome, cross bool) string {
	la, lb := k.where(a), k.where(b)
	tail := "with no barrier between"
	if cross {
		tail = "and threads of different blocks are never ordered"
	}
	kind := "shared"
	if a.root.global() {
		kind = "global"
	}
	name := k.rootName(a.root)
	guard := ""
	if len(out.guard) > 0 {
		guard = fmt.Sprintf("; it needs %s, which the kernel can exclude as a precondition: if %s { panic(...) } at its top",
			strings.Join(out.guard, " or "), strings.Join(out.guard, " || "))
	}
	if out.witness == "example" {
		return fmt.Sprintf("possible data race on %s %s: the %s at %s and the %s at %s may touch the same element from two threads %s (for example %s at %s and %s at %s; the indices depend on values the analysis does not track)%s",
			kind, name, noun(a), la, noun(b), lb, tail, out.threads[0], out.elems[0], out.threads[1], out.elems[1], guard)
	}
	if out.witness == "" {
		return fmt.Sprintf("possible data race on %s %s: the %s at %s and the %s at %s may touch the same element from two threads %s (the indices could not be proven distinct)%s",
			kind, name, noun(a), la, noun(b), lb, tail, guard)
	}
	if out.params != "" {
		tail += " (when " + out.params + ")"
	}
	tail += guard
	if a == b {
		return fmt.Sprintf("data race on %s %s: %s and %s both %s %s (%s) %s",
			kind, name, out.threads[0], out.threads[1], baseVerb(a), out.elems[0], la, tail)
	}
	return fmt.Sprintf("data race on %s %s: %s %s %s (%s) while %s %s %s (%s) %s",
		kind, name, out.threads[0], a.verb(), out.elems[0], la, out.threads[1], b.verb(), out.elems[1], lb, tail)
}

func noun(a *access) string {
	switch {
	case a.atomic:
		return "atomic update"
	case a.write:
		return "write"
	}
	return "read"
}

func baseVerb(a *access) string {
	switch {
	case a.atomic:
		return "atomically update"
	case a.write:
		return "write"
	}
	return "read"
}

// accessesIn lists the kernel's accesses in the barrier interval that
// starts at s, in program order.
func (k *kernelAn) accessesIn(s *node) []*access {
	r := k.region(s)
	var in []*access
	for _, a := range k.accesses {
		if r[a.node.id] {
			in = append(in, a)
		}
	}
	return in
}
