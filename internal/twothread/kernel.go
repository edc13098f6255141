package twothread

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/uniformity"
)

// Shape is what the model needs to know of a kernel's launch shape.
type Shape struct {
	Block, Grid [3]int // fixed extents (zero: not fixed)
	Dims        int    // 1, 2 or 3: the dimensions the kernel reads
}

// ShapeOf returns the shape of a kernel found by internal/kernels.
func ShapeOf(k *kernels.Kernel) Shape { return Shape{Block: k.Block, Grid: k.Grid, Dims: k.Dims} }

// Kernel is the two-thread model of one kernel: its inlined graph, its
// barrier intervals, its memory accesses and which of its values may
// differ between threads. Its questions (Collide, Guard and Agreement's)
// share one memo of solver answers.
type Kernel struct {
	fn          *ssa.Function
	shape       Shape
	g           *graph
	accesses    []*Access
	written     map[Object]bool
	sharedNames map[token.Pos]string
	params      map[int]string
	div         map[valRef]bool
	regionConds map[regionKey][]ssa.Value
	reach       map[int][]bool // nodes reachable without a barrier from a start
	uni         *uniformity.Result
	skips       map[edge]bool           // loop entries that start a barrier iteration (zerotrip.go)
	phiPick     map[*ssa.Phi]Object     // the array a swap phi is taken to name (phigroup.go)
	counters    map[valRef]*counterInfo // atomic counters (slots.go)
	solved      map[string]solved       // answers of lincon.Solve by problem (solve.go)
	work        int                     // conjunctions the solver decided for this kernel (solve.go)
	guardWork   int                     // of which for the guard search (guards.go)
	apart       map[string]bool         // IndexApart's answers by indexKey (apart.go)
	termKeys    map[valRef]string       // leaves of index forms by identity (apart.go)
	forms       map[*Access][]form      // the form of each access's indices (apart.go)

	cyclic         map[*ssa.BasicBlock]bool // blocks on a cycle of their function (boolconds.go)
	rowMajorMisses int                      // pairs asked again with row-major facts in vain (rowmajor.go)

	// inBounds is set while CollideAgain asks a pair again after a replay:
	// every index is then in bounds, products included (replay.go).
	inBounds bool
}

type regionKey struct {
	fn *ssa.Function
	b  *ssa.BasicBlock
}

// New lays out kernel fn's graph, with the device functions of its package
// inlined at each call, and collects its memory accesses. fn's SSA must
// have been built with debug information. uni, the result of the
// uniformity analysis for fn's package, may be nil; when present, a value
// counts as divergent only if both it and this package's own conservative
// rules say so.
func New(fn *ssa.Function, shape Shape, uni *uniformity.Result) *Kernel {
	k := &Kernel{fn: fn, shape: shape, uni: uni, written: map[Object]bool{},
		sharedNames: map[token.Pos]string{}, params: map[int]string{},
		regionConds: map[regionKey][]ssa.Value{}, reach: map[int][]bool{}}
	if k.shape.Dims == 0 {
		k.shape.Dims = 3
	}
	k.g = &graph{}
	var entry *node
	k.g.root, entry, _ = k.g.build(fn, nil, nil, nil)
	k.g.entry = entry
	k.collectAccesses()
	return k
}

// MultiBlock reports whether a launch of the kernel may have more than one
// block: some grid extent it reads is not fixed to 1.
func (k *Kernel) MultiBlock() bool {
	for d := 0; d < k.shape.Dims; d++ {
		if k.shape.Grid[d] != 1 {
			return true
		}
	}
	return false
}

// ---- uniformity ----

// computeDivergence marks the values that may differ between threads of a
// block, to a fixed point: thread indices, atomics, loads of memory that
// the kernel writes or at divergent addresses, and everything computed
// from them, including phis merging control flow that divergent branches
// decide.
func (k *Kernel) computeDivergence() {
	if k.div != nil {
		return // computed for an earlier question
	}
	k.div = map[valRef]bool{}
	var frames []*frame
	seen := map[*frame]bool{}
	for _, n := range k.g.nodes {
		if !seen[n.fr] {
			seen[n.fr] = true
			frames = append(frames, n.fr)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fr := range frames {
			for _, b := range fr.fn.Blocks {
				for _, in := range b.Instrs {
					v, ok := in.(ssa.Value)
					if !ok {
						continue
					}
					key := valRef{fr, v}
					if !k.div[key] && k.divergentInstr(fr, v) && k.uniDivergent(fr, v) {
						k.div[key] = true
						changed = true
					}
				}
			}
		}
	}
}

// uniDivergent asks the uniformity analysis whether v may differ between
// threads, resolving a device function's dependence on its parameters
// against the arguments of the inlined call. Without an answer it says yes,
// leaving the decision to this package's own rules.
func (k *Kernel) uniDivergent(fr *frame, v ssa.Value) bool {
	f := k.uni.Of(fr.fn)
	if f == nil {
		return true
	}
	d := f.Dep(v)
	if d.Src != nil || d.Mem != 0 {
		return true
	}
	for i := 0; i < 64 && d.Params != 0; i++ {
		if d.Params&(1<<i) == 0 {
			continue
		}
		d.Params &^= 1 << i
		if fr.parent == nil || i >= len(fr.call.Call.Args) || k.divOf(fr.parent, fr.call.Call.Args[i]) {
			return true
		}
	}
	return false
}

func (k *Kernel) divOf(fr *frame, v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const, *ssa.Function, *ssa.Global, *ssa.Builtin:
		return false
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return k.divOf(pfr, a)
		}
		return false
	case *ssa.FreeVar:
		return true
	}
	return k.div[valRef{fr, v}]
}

func (k *Kernel) divergentInstr(fr *frame, v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Call:
		switch k := gpuapi.Call(&v.Call); {
		case k.PerThread(), k.IsAtomic():
			return true
		case k.IsThreadIndex(), k == gpuapi.Shared:
			return false
		}
		if sub := fr.calls[v]; sub != nil {
			for _, b := range sub.fn.Blocks {
				if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
					for _, r := range ret.Results {
						if k.divOf(sub, r) {
							return true
						}
					}
				}
			}
			// Returns under divergent conditions merge divergent values.
			for _, b := range sub.fn.Blocks {
				if ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && k.divOf(sub, ifi.Cond) {
					return true
				}
			}
		}
	case *ssa.UnOp:
		if val, _, ok := localField(v); ok {
			return k.divOf(fr, val)
		}
		if val, ok := localValue(v); ok {
			return k.divOf(fr, val)
		}
		if v.Op == token.MUL {
			if k.divOf(fr, v.X) {
				return true
			}
			root, _, ok := k.resolveAddr(fr, v.X)
			return !ok || k.written[root]
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if k.divOf(fr, e) {
				return true
			}
		}
		for _, c := range k.regionCondsOf(fr.fn, v.Block()) {
			if k.divOf(fr, c) {
				return true
			}
		}
		return false
	}
	var ops []*ssa.Value
	for _, op := range v.(ssa.Instruction).Operands(ops) {
		if *op != nil && k.divOf(fr, *op) {
			return true
		}
	}
	return false
}

// regionCondsOf returns the branch conditions that decide which
// predecessor control reaches join block j from (or whether it leaves the
// join's region, for a loop header): the If blocks between j's immediate
// dominator and j whose two successors reach different predecessors of j,
// or of which only one leaves the region. A branch that rejoins before j
// (an if inside a loop body) does not count.
func (k *Kernel) regionCondsOf(fn *ssa.Function, j *ssa.BasicBlock) []ssa.Value {
	key := regionKey{fn, j}
	if cs, ok := k.regionConds[key]; ok {
		return cs
	}
	idom := j.Idom()
	region := map[*ssa.BasicBlock]bool{j: true}
	var work []*ssa.BasicBlock
	for _, p := range j.Preds {
		if !region[p] {
			region[p] = true
			work = append(work, p)
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == idom {
			continue
		}
		for _, p := range b.Preds {
			if !region[p] {
				region[p] = true
				work = append(work, p)
			}
		}
	}
	// where returns the predecessors of j that succ reaches without
	// passing j, and whether it leaves the region.
	where := func(from, succ *ssa.BasicBlock) (map[*ssa.BasicBlock]bool, bool) {
		preds := map[*ssa.BasicBlock]bool{}
		if succ == j {
			preds[from] = true
			return preds, false
		}
		leaves := false
		seen := map[*ssa.BasicBlock]bool{succ: true}
		work := []*ssa.BasicBlock{succ}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if !region[b] {
				leaves = true
				continue
			}
			for _, s := range b.Succs {
				if s == j {
					preds[b] = true
				} else if !seen[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
		return preds, leaves
	}
	var cs []ssa.Value
	for _, b := range fn.Blocks {
		if !region[b] {
			continue
		}
		ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		p0, l0 := where(b, b.Succs[0])
		p1, l1 := where(b, b.Succs[1])
		differ := l0 != l1 || len(p0) != len(p1)
		for p := range p0 {
			differ = differ || !p1[p]
		}
		if differ {
			cs = append(cs, ifi.Cond)
		}
	}
	k.regionConds[key] = cs
	return cs
}

// ---- barrier intervals ----

// An Interval is a barrier interval of the kernel: the nodes that some
// barrier-free path reaches from the kernel's entry or from after one
// barrier. Threads of one block are ordered only across its ends.
type Interval struct {
	start *node // the barrier it begins after; nil: the kernel's entry
}

// Intervals returns the kernel's barrier intervals: the one from its entry
// first, then the one after each barrier, in the order of the graph.
func (k *Kernel) Intervals() []Interval {
	ivs := []Interval{{}}
	for _, n := range k.g.nodes {
		if n.barrier != nil {
			ivs = append(ivs, Interval{n})
		}
	}
	return ivs
}

// AccessesIn lists the kernel's accesses in interval iv, in program order.
func (k *Kernel) AccessesIn(iv Interval) []*Access {
	r := k.region(iv.start)
	var in []*Access
	for _, a := range k.accesses {
		if r[a.node.id] {
			in = append(in, a)
		}
	}
	return in
}

// region returns the nodes that some barrier-free path from start reaches:
// from the kernel's entry when start is nil, else from after barrier start.
func (k *Kernel) region(start *node) []bool {
	id := -1
	if start != nil {
		id = start.id
	}
	if r, ok := k.reach[id]; ok {
		return r
	}
	in := make([]bool, len(k.g.nodes))
	var work []*node
	if start == nil {
		work = []*node{k.g.entry}
	} else {
		work = append(work, start.succs...)
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if in[n.id] || n.barrier != nil {
			continue
		}
		in[n.id] = true
		work = append(work, n.succs...)
	}
	k.reach[id] = in
	return in
}

// reachesWithin reports whether to is reachable from the successors of
// from inside region r, not passing avoid.
func (k *Kernel) reachesWithin(r []bool, from []*node, to, avoid *node) bool {
	seen := make([]bool, len(k.g.nodes))
	work := append([]*node(nil), from...)
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if !r[n.id] || seen[n.id] || n == avoid {
			continue
		}
		if n == to {
			return true
		}
		seen[n.id] = true
		work = append(work, n.succs...)
	}
	return false
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
