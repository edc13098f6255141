package twothread

import (
	"cmp"
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/replay"
	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// From a collision to a concrete launch that package replay runs, and
// back: the question asked again with what a replay showed.

// A Fill says how Replay fills in what a model leaves free: Int is every
// integer parameter's value, Data the value global memory starts with,
// and Long, when set, makes every slice at least as long as the lengths
// Replay gives slices the model does not bound.
type Fill struct {
	Int, Data int64
	Long      bool
}

// Replay returns the witness of collision c of pair pr as a race package
// replay can run: the launch of c's model (block and grid extents,
// integer parameters, slice lengths), the two threads, the two accesses'
// sites and elements. A value the model leaves free gets fill's, the
// smallest extent that holds the threads (block and grid), or a length
// that holds the witness's element and every thread's. ok is false when c
// has no model.
func (k *Kernel) Replay(pr Pair, c Collision, fill Fill) (w replay.Race, ok bool) {
	if c.model == nil {
		return replay.Race{}, false
	}
	p, m := c.p, c.model
	val := func(key varKey) (int64, bool) {
		x, ok := p.varIdx[key]
		if !ok || int(x) >= len(m) {
			return 0, false
		}
		return m[x], true
	}
	for t := range 2 {
		bcopy := 0
		if pr.Cross {
			bcopy = t + 1
		}
		for d := 0; d < k.shape.Dims; d++ {
			x, _ := val(varKey{kind: vTid, copy: t + 1, dim: d})
			b, _ := val(varKey{kind: vBid, copy: bcopy, dim: d})
			w.Threads[t].Idx[d], w.Threads[t].Block[d] = int(x), int(b)
		}
	}
	w.Launch = k.replayLaunch(val, w.Threads, fill.Int)
	w.Launch.Data = fill.Data
	for i, a := range [2]*Access{pr.A, pr.B} {
		w.Sites[i] = a.site()
		w.Elems[i] = a.path(c.idx[i], m)
	}
	w.Object = replay.Object{Shared: pr.A.root.shared, Param: pr.A.root.param}
	w.Cross = pr.Cross
	k.replayLens(&w, fill.Long)
	return w, true
}

// replayLaunch returns the launch of a model whose values val gives.
func (k *Kernel) replayLaunch(val func(varKey) (int64, bool), threads [2]replay.Thread, fill int64) replay.Launch {
	l := replay.Launch{Ints: map[int]int64{}, Lens: map[int]int{}}
	for d := range 3 {
		l.Block[d], l.Grid[d] = 1, 1
		if d >= k.shape.Dims {
			continue
		}
		l.Block[d] = extentOf(k.shape.Block[d], val, varKey{kind: vBdim, dim: d}, max(threads[0].Idx[d], threads[1].Idx[d])+1)
		l.Grid[d] = extentOf(k.shape.Grid[d], val, varKey{kind: vGdim, dim: d}, max(threads[0].Block[d], threads[1].Block[d])+1)
	}
	for i, prm := range k.fn.Params {
		if b, ok := prm.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			l.Ints[i] = fill
		}
		if v, ok := val(varKey{kind: vParam, dim: i}); ok {
			l.Ints[i] = v
		}
		if v, ok := val(varKey{kind: vLen, dim: i}); ok {
			l.Lens[i] = int(v)
		}
	}
	return l
}

// extentOf is a block or grid extent: the one the kernel fixes, the
// model's, or else def.
func extentOf(fixed int, val func(varKey) (int64, bool), key varKey, def int) int {
	if fixed > 0 {
		return fixed
	}
	if v, ok := val(key); ok {
		return int(v)
	}
	return def
}

// replayLens gives every slice parameter the model left free (with long,
// every one) a length that holds the witness's elements and one element
// per thread of the grid (twice over, for kernels that index past their
// thread), at least 64.
func (k *Kernel) replayLens(w *replay.Race, long bool) {
	threads := 1
	for d := range 3 {
		threads *= w.Launch.Block[d] * w.Launch.Grid[d]
	}
	for i, prm := range k.fn.Params {
		if _, ok := prm.Type().Underlying().(*types.Slice); !ok {
			continue
		}
		given, ok := w.Launch.Lens[i]
		if ok && !long {
			continue
		}
		n := max(64, 2*threads)
		for j := range 2 {
			if w.Object.Shared.IsValid() || w.Object.Param != i || len(w.Elems[j]) == 0 {
				continue
			}
			n = max(n, int(w.Elems[j][0].Index)+1)
		}
		w.Launch.Lens[i] = max(n, given)
	}
}

// site returns a's instruction and the calls that lead to it.
func (a *Access) site() replay.Site {
	var calls []*ssa.Call
	for fr := a.node.fr; fr.parent != nil; fr = fr.parent {
		calls = append([]*ssa.Call{fr.call}, calls...)
	}
	return replay.Site{Instr: a.instr, Calls: calls}
}

// path returns a's element path with the index values idx take in model m.
func (a *Access) path(idx []poly, m []int64) []replay.Step {
	steps := make([]replay.Step, len(a.comps))
	for i, c := range a.comps {
		switch {
		case c.field:
			steps[i] = replay.Step{Field: true, Index: c.k}
		case c.any || i >= len(idx):
			steps[i] = replay.Step{Any: true}
		default:
			steps[i] = replay.Step{Index: idx[i].eval(m)}
		}
	}
	return steps
}

// CollideAgain asks the question of pair pr again after a replay refuted
// the witnesses of the collisions refuted (of this pair): with every index
// in bounds, products of values included (a replay that found an index out
// of range shows what the first question left out), and without the
// launches and threads of those witnesses. Its answer is Collide's.
func (k *Kernel) CollideAgain(pr Pair, refuted []Collision) (Collision, bool) {
	k.computeDivergence()
	k.inBounds = true
	defer func() { k.inBounds = false }()
	p, ia, ib, trivial := k.pairProblem(pr, nil, false)
	if trivial {
		return Collision{}, false
	}
	for _, c := range refuted {
		if cl := p.excludeModel(c); len(cl) > 0 {
			p.clauses = append(p.clauses, cl)
		}
	}
	return k.answer(p, pr.A, pr.B, ia, ib)
}

// excludeModel returns a clause that c's witness violates: one of the
// launch's values or the threads' indices differs from c's model.
func (p *problem) excludeModel(c Collision) clause {
	if c.model == nil {
		return nil
	}
	// The alternatives in the order of c's variables, not of the map:
	// the solver tries them in order, so the witness it finds next (and
	// the problem's key in the kernel's memo) must not change from run
	// to run.
	keys := make([]varKey, 0, len(c.p.varIdx))
	for key, old := range c.p.varIdx {
		if key.kind == vVal || key.kind == vAux || int(old) >= len(c.model) {
			continue
		}
		keys = append(keys, key)
	}
	slices.SortFunc(keys, func(a, b varKey) int { return cmp.Compare(c.p.varIdx[a], c.p.varIdx[b]) })
	var cl clause
	for _, key := range keys {
		x, ok := p.varIdx[key]
		if !ok {
			continue
		}
		v := c.model[c.p.varIdx[key]]
		cl = append(cl, []cons{lt(varPoly(x), constPoly(v))}, []cons{lt(constPoly(v), varPoly(x))})
	}
	return cl
}

// Untracked names a value outside the model that took part in c's
// question ("the value of `computed` at line 12"), for a finding that
// could not be proven either way; empty when none did.
func (c Collision) Untracked() string {
	if c.p == nil {
		return ""
	}
	best := lincon.Var(-1)
	var what string
	for key, x := range c.p.varIdx {
		if key.kind != vVal || best >= 0 && x > best {
			continue
		}
		if s := describe(key.ref.v); s != "" {
			best, what = x, s
		}
	}
	return what
}

// describe names SSA value v by its source variable and line, or by what
// it is and its line.
func describe(v ssa.Value) string {
	pos := v.Pos()
	fn := v.Parent()
	if fn == nil {
		return ""
	}
	name := ""
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if ref, ok := in.(*ssa.DebugRef); ok && ref.X == v && name == "" {
				if obj := ref.Object(); obj != nil {
					name, pos = obj.Name(), ref.Pos()
				}
			}
		}
	}
	if !pos.IsValid() {
		return ""
	}
	line := fn.Prog.Fset.Position(pos).Line
	if name != "" {
		return fmt.Sprintf("the value of `%s` at line %d", name, line)
	}
	return fmt.Sprintf("the value computed at line %d", line)
}
