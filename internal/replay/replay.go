package replay

import (
	"fmt"
	"go/token"
	"go/types"

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
}

// Budget is the number of instructions a replay may execute, over every
// thread of the blocks it runs.
const Budget = 1 << 20

// maxLeaves bounds the global memory a replay allocates, in scalars.
const maxLeaves = 1 << 22

// CheckRace runs kernel fn under w's launch, for the blocks of w's two
// threads only, and says whether the race happens: both accesses are made
// by their threads, in bounds, on one element, in one barrier interval of
// one block or in different blocks.
func CheckRace(fn *ssa.Function, w Race, budget int) Result {
	m, err := newMachine(fn, w.Launch, budget)
	if err != nil {
		return Result{Reason: err.Error()}
	}
	m.watch = &raceWatch{w: w}
	blocks := [][3]int{w.Threads[0].Block}
	if w.Threads[1].Block != w.Threads[0].Block {
		blocks = append(blocks, w.Threads[1].Block)
	}
	for _, b := range blocks {
		if err := m.runBlock(b); err != nil {
			return Result{Reason: err.Error()}
		}
	}
	return m.watch.verdict(m)
}

// A raceWatch records the accesses of a race witness's two threads at its
// two sites.
type raceWatch struct {
	w      Race
	events [2][]event
	traps  [2]string // why each thread stopped early, if it did
	oob    [2]bool   // whether that was an index out of range
}

// An event is one access by a watched thread at its site: the leaves it
// touched and its barrier phase.
type event struct {
	obj    *object
	lo, hi int
	phase  int
}

// note records an access of thread th at its top frame's current
// instruction to leaves [lo, hi) of obj, if it is one the witness names.
func (rw *raceWatch) note(th *thread, obj *object, lo, hi int) {
	if !obj.named || obj.id != rw.w.Object {
		return
	}
	for i := range 2 {
		if th.id() == rw.w.Threads[i] && th.at(rw.w.Sites[i]) {
			rw.events[i] = append(rw.events[i], event{obj, lo, hi, th.phase})
		}
	}
}

// trapped records why a watched thread stopped.
func (rw *raceWatch) trapped(th *thread, why string, oob bool) {
	for i := range 2 {
		if th.id() == rw.w.Threads[i] && rw.traps[i] == "" {
			rw.traps[i], rw.oob[i] = why, oob
		}
	}
}

// verdict decides the witness from the recorded events.
func (rw *raceWatch) verdict(m *machine) Result {
	var want [2][2]int
	for i := range 2 {
		if len(rw.events[i]) == 0 {
			r := Result{Verdict: Refuted, Reason: fmt.Sprintf("%s never made the access at %s", rw.w.Threads[i], m.where(rw.w.Sites[i].Instr))}
			if rw.traps[i] != "" {
				r.Reason += ": it stopped at " + rw.traps[i]
				r.OutOfBounds = rw.oob[i]
			}
			return r
		}
		lo, hi, ok := elemRange(rw.events[i][0].obj, rw.w.Elems[i])
		if !ok {
			return Result{Verdict: Refuted, OutOfBounds: true, Reason: fmt.Sprintf("the element %s names is outside its object", rw.w.Threads[i])}
		}
		want[i] = [2]int{lo, hi}
	}
	for _, a := range rw.events[0] {
		for _, b := range rw.events[1] {
			if a.obj == b.obj && (rw.w.Cross || a.phase == b.phase) &&
				overlap(a.lo, a.hi, want[0][0], want[0][1]) && overlap(b.lo, b.hi, want[1][0], want[1][1]) &&
				overlap(a.lo, a.hi, b.lo, b.hi) {
				return Result{Verdict: Happens}
			}
		}
	}
	return Result{Verdict: Refuted, Reason: "the two threads made their accesses, but not to the named element in one barrier interval"}
}

func overlap(lo1, hi1, lo2, hi2 int) bool { return lo1 < hi2 && lo2 < hi1 }

// elemRange returns the leaves [lo, hi) of obj that path names; ok is
// false when an index is out of range.
func elemRange(obj *object, path []Step) (lo, hi int, ok bool) {
	t := obj.typ
	n := len(obj.leaves)
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
