package replay

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// An Object is memory the threads share, named as the two-thread model
// names it: a gpu.Shared variable by the position of its Shared call (one
// per block), or a slice parameter of the kernel (Shared is NoPos) by its
// index in the kernel's Params.
type Object struct {
	Shared token.Pos
	Param  int
}

// A Launch is one concrete launch: its grid and block extents, the values
// of the kernel's integer parameters and the lengths of its slice
// parameters, both by index in the kernel's Params, and the value every
// element of global memory starts with (Data: an integer, or a float of
// that value). A parameter it does not give is zero (a slice: empty).
type Launch struct {
	Grid, Block [3]int
	Ints        map[int]int64
	Lens        map[int]int
	Data        int64
}

// A Thread names one thread of the launch: its index in its block and its
// block's index in the grid.
type Thread struct {
	Idx, Block [3]int
}

func (t Thread) String() string {
	return fmt.Sprintf("thread %v of block %v", t.Idx, t.Block)
}

// A Site is an instruction of the kernel or of a device function it calls,
// with the calls that lead to it from the kernel, outermost first (none
// for an instruction of the kernel itself).
type Site struct {
	Instr ssa.Instruction
	Calls []*ssa.Call
}

// A Step is one step of an element path from an object's start: an index
// (into a slice parameter, whose first step it is, or into an array), a
// struct field (Field: Index is the field's number), or Any, every element
// of the array there.
type Step struct {
	Index      int64
	Field, Any bool
}

// A Race is a race witness to replay: in Launch, thread Threads[i] makes
// the access at Sites[i] (a load, a store or an atomic call) to element
// Elems[i] of Object, and the two elements are one. Cross says the
// threads are in different blocks.
type Race struct {
	Launch  Launch
	Object  Object
	Threads [2]Thread
	Sites   [2]Site
	Elems   [2][]Step
	Cross   bool
}

// A Verdict is what a replay found.
type Verdict int

const (
	// Unknown: the replay could not run to the end (an instruction outside
	// the subset, the budget, memory too large).
	Unknown Verdict = iota
	// Happens: the witness happened.
	Happens
	// Refuted: the kernel ran and the witness did not happen.
	Refuted
)

// A Result is a replay's verdict with what it showed: why the witness did
// not happen, or why it could not be run.
type Result struct {
	Verdict Verdict
	Reason  string
	// OutOfBounds is set when a named access did not happen because its
	// index was out of range: Go's bounds check traps first.
	OutOfBounds bool
	// Observed, when the witness's own threads did not collide but two
	// other threads of the same launch did at its two sites, is that
	// collision: a race that happens, to print instead.
	Observed *Collision
}

// A Collision is a race the replay saw: thread Threads[i] made the access
// at the witness's site i to element Elems[i] ("[3]", "[1][2].x", the path
// after the object's name).
type Collision struct {
	Threads [2]Thread
	Elems   [2]string
}

// Name names t as the checks do: "thread 3" or "thread (1,2)" in a kernel
// of dims dimensions, with " of block …" when withBlock.
func (t Thread) Name(dims int, withBlock bool) string {
	name := "thread " + tuple(t.Idx[:dims])
	if withBlock {
		name += " of block " + tuple(t.Block[:dims])
	}
	return name
}

func tuple(xs []int) string {
	if len(xs) == 1 {
		return strconv.Itoa(xs[0])
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// Budget is the number of instructions the replays of one kernel may
// execute, over every launch and every thread of the blocks they run: it
// keeps replay within the checks' time per kernel (a few milliseconds).
const Budget = 1 << 17

// maxLeaves bounds the global memory a replay allocates, in scalars.
const maxLeaves = 1 << 22

// A Runner replays the witnesses of one kernel. Witnesses of one launch
// share one run: a block runs once, recording every access to shared and
// global memory, and each witness is then looked up in what it did.
type Runner struct {
	fn     *ssa.Function
	budget int // instructions left, over every run
	runs   map[string]*machine
	frames *frames // shared by the runs (exec.go)
}

// NewRunner returns a Runner for kernel fn whose runs may execute budget
// instructions in all.
func NewRunner(fn *ssa.Function, budget int) *Runner {
	return &Runner{fn: fn, budget: budget, runs: map[string]*machine{}, frames: newFrames()}
}

// CheckRace runs the kernel under w's launch, for the blocks of w's two
// threads only, and says whether the race happens: both accesses are made
// by their threads, in bounds, on one element, in one barrier interval of
// one block or in different blocks.
func (r *Runner) CheckRace(w Race) (res Result) {
	// A kernel shape the interpreter mishandles must cost the witness its
	// replay, never the check.
	var m *machine
	defer func() {
		if p := recover(); p != nil {
			res = Result{Reason: fmt.Sprintf("the replay failed: %v", p)}
			if m != nil {
				m.err = errors.New(res.Reason) // its events are partial
			}
		}
	}()
	key := launchKey(w.Launch)
	m, ok := r.runs[key]
	if !ok {
		var err error
		if m, err = newMachine(r.fn, w.Launch, &r.budget, r.frames); err != nil {
			return Result{Reason: err.Error()}
		}
		r.runs[key] = m
	}
	for _, t := range w.Threads {
		if err := m.run(t.Block); err != nil {
			return Result{Reason: err.Error()}
		}
	}
	return m.verdict(w)
}

// launchKey encodes launch l exactly.
func launchKey(l Launch) string {
	var b strings.Builder
	fmt.Fprint(&b, l.Grid, l.Block, l.Data)
	for _, m := range []map[int]int64{l.Ints, lensAsInts(l.Lens)} {
		keys := make([]int, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, " %d:%d", k, m[k])
		}
		b.WriteString(";")
	}
	return b.String()
}

func lensAsInts(lens map[int]int) map[int]int64 {
	m := make(map[int]int64, len(lens))
	for k, v := range lens {
		m[k] = int64(v)
	}
	return m
}

// An event is one access to shared or global memory: by which thread, the
// leaves it touched and its barrier phase.
type event struct {
	th     Thread
	obj    *object
	lo, hi int
	phase  int
}

// A siteKey is a site as a run records it: the instruction and the
// interned path of calls to its frame.
type siteKey struct {
	instr ssa.Instruction
	path  int
}

// verdict decides witness w from the events of the run.
func (m *machine) verdict(w Race) Result {
	r := m.named(w)
	if r.Verdict == Refuted {
		r.Observed = m.observed(w)
	}
	return r
}

// eventsAt returns the events at site s of accesses to w's object.
func (m *machine) eventsAt(w Race, s Site) []event {
	path, ok := m.pathOf(s.Calls)
	if !ok {
		return nil
	}
	all := m.events[siteKey{s.Instr, path}]
	for i, e := range all {
		if e.obj.id != w.Object {
			// Some are not: a list of those that are (most sites
			// access one object, and their list is returned as it is).
			es := slices.Clone(all[:i])
			for _, e := range all[i+1:] {
				if e.obj.id == w.Object {
					es = append(es, e)
				}
			}
			return es
		}
	}
	return all
}

// named decides whether the witness's own threads collided.
func (m *machine) named(w Race) Result {
	var want [2][2]int
	var mine [2][]event
	for i := range 2 {
		for _, e := range m.eventsAt(w, w.Sites[i]) {
			if e.th == w.Threads[i] {
				mine[i] = append(mine[i], e)
			}
		}
		if len(mine[i]) == 0 {
			r := Result{Verdict: Refuted, Reason: fmt.Sprintf("%s never made the access at %s", w.Threads[i], m.where(w.Sites[i].Instr))}
			if tr, ok := m.traps[w.Threads[i]]; ok {
				r.Reason += ": it stopped at " + tr.why
				r.OutOfBounds = tr.oob
			}
			return r
		}
		lo, hi, ok := elemRange(mine[i][0].obj, w.Elems[i])
		if !ok {
			return Result{Verdict: Refuted, OutOfBounds: true, Reason: fmt.Sprintf("the element %s names is outside its object", w.Threads[i])}
		}
		want[i] = [2]int{lo, hi}
	}
	for _, a := range mine[0] {
		for _, b := range mine[1] {
			if unordered(w, a, b) && overlap(a.lo, a.hi, want[0][0], want[0][1]) && overlap(b.lo, b.hi, want[1][0], want[1][1]) {
				return Result{Verdict: Happens}
			}
		}
	}
	return Result{Verdict: Refuted, Reason: "the two threads made their accesses, but not to the named element in one barrier interval"}
}

// unordered reports whether events a and b are a race of w's kind: by two
// threads, on one element, in one barrier interval of one block (or, for
// a witness across blocks, in different blocks).
func unordered(w Race, a, b event) bool {
	if a.th == b.th || a.obj != b.obj || !overlap(a.lo, a.hi, b.lo, b.hi) {
		return false
	}
	if w.Cross {
		return a.th.Block != b.th.Block
	}
	return a.th.Block == b.th.Block && a.phase == b.phase
}

// observed returns a collision of any two threads at w's sites, or nil.
// The second site's events are indexed by leaf, so that a block of
// threads each making its accesses in a loop costs the events, not their
// product.
func (m *machine) observed(w Race) *Collision {
	type leaf struct {
		obj *object
		off int
	}
	at := map[leaf][]event{}
	for _, b := range m.eventsAt(w, w.Sites[1]) {
		for off := b.lo; off < b.hi; off++ {
			at[leaf{b.obj, off}] = append(at[leaf{b.obj, off}], b)
		}
	}
	for _, a := range m.eventsAt(w, w.Sites[0]) {
		for off := a.lo; off < a.hi; off++ {
			for _, b := range at[leaf{a.obj, off}] {
				if unordered(w, a, b) {
					return &Collision{Threads: [2]Thread{a.th, b.th}, Elems: [2]string{a.obj.pathText(off), b.obj.pathText(off)}}
				}
			}
		}
	}
	return nil
}

// pathText writes the element path of leaf off of o ("[3]", "[1][2].x").
func (o *object) pathText(off int) string {
	var b strings.Builder
	t := o.typ
	for {
		switch u := t.Underlying().(type) {
		case *types.Slice:
			n := leaves(u.Elem())
			fmt.Fprintf(&b, "[%d]", off/n)
			t, off = u.Elem(), off%n
			continue
		case *types.Array:
			n := leaves(u.Elem())
			fmt.Fprintf(&b, "[%d]", off/n)
			t, off = u.Elem(), off%n
			continue
		case *types.Struct:
			if u.NumFields() == 0 {
				return b.String()
			}
			for i := u.NumFields() - 1; i >= 0; i-- {
				if fo := fieldOffset(u, i); fo <= off {
					b.WriteString("." + u.Field(i).Name())
					t, off = u.Field(i).Type(), off-fo
					break
				}
			}
			continue
		}
		return b.String()
	}
}

func overlap(lo1, hi1, lo2, hi2 int) bool { return lo1 < hi2 && lo2 < hi1 }

// elemRange returns the leaves [lo, hi) of obj that path names; ok is
// false when an index is out of range.
func elemRange(obj *object, path []Step) (lo, hi int, ok bool) {
	t := obj.typ
	n := len(obj.nums)
	for _, s := range path {
		var elem types.Type
		var count int64
		switch u := t.Underlying().(type) {
		case *types.Slice:
			elem, count = u.Elem(), int64(obj.sliceLen)
		case *types.Array:
			elem, count = u.Elem(), u.Len()
		case *types.Struct:
			if !s.Field || int(s.Index) >= u.NumFields() {
				return 0, 0, false
			}
			lo += fieldOffset(u, int(s.Index))
			t = u.Field(int(s.Index)).Type()
			n = leaves(t)
			continue
		default:
			return 0, 0, false
		}
		if s.Any {
			return lo, lo + int(count)*leaves(elem), true
		}
		if s.Field || s.Index < 0 || s.Index >= count {
			return 0, 0, false
		}
		lo += int(s.Index) * leaves(elem)
		t, n = elem, leaves(elem)
	}
	return lo, lo + n, true
}
