package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/uniformity"
)

// A Race is a pair of accesses that two threads may make to one element
// with nothing ordering them.
type Race struct {
	Pos     token.Pos // the first access, where the race is reported
	Message string
	// Possible is set when the analysis could not prove the accesses
	// apart but found no concrete collision (the indices depend on values
	// it does not track): a "possible data race".
	Possible bool
	// Guard, when set, is a condition on the kernel's integer parameters
	// ("n < 1") under which alone the race happens: a guard
	// `if Guard { panic(…) }` at the kernel's top excludes it.
	Guard string
	// Require says what the guard requires ("n must be a multiple of
	// t.BlockDim().X"), for its panic message.
	Require string
}

// Shape is what the analysis needs to know of a kernel's launch shape.
type Shape struct {
	Block, Grid [3]int // fixed extents (zero: not fixed)
	Dims        int    // 1, 2 or 3: the dimensions the kernel reads
}

// ShapeOf returns the shape of a kernel found by internal/kernels.
func ShapeOf(k *kernels.Kernel) Shape { return Shape{Block: k.Block, Grid: k.Grid, Dims: k.Dims} }

// kernelAn is the analysis of one kernel.
type kernelAn struct {
	fset        *token.FileSet
	fn          *ssa.Function
	shape       Shape
	g           *graph
	accesses    []*access
	written     map[rootKey]bool
	sharedNames map[token.Pos]string
	params      map[int]string
	div         map[valRef]bool
	regionConds map[regionKey][]ssa.Value
	reach       map[int][]bool // nodes reachable without a barrier from a start
	uni         *uniformity.Result
	skips       map[edge]bool           // loop entries that start a barrier iteration (zerotrip.go)
	phiPick     map[*ssa.Phi]rootKey    // the array a swap phi is taken to name (phigroup.go)
	counters    map[valRef]*counterInfo // atomic counters (slots.go)
	solved      map[string]solved       // answers of lincon.Solve by problem (solve.go)
	work        int                     // conjunctions the solver decided for this kernel (solve.go)
	guardWork   int                     // of which for the guard search (guards.go)
}

type regionKey struct {
	fn *ssa.Function
	b  *ssa.BasicBlock
}

// Check returns the races of kernel fn, whose SSA was built with debug
// information, in source order of their first access. uni, the result of
// the uniformity analysis for fn's package, may be nil; when present, a
// value counts as divergent only if both it and this package's own
// conservative rules say so.
func Check(fset *token.FileSet, fn *ssa.Function, shape Shape, uni *uniformity.Result) []Race {
	k := newKernelAn(fset, fn, shape, uni)
	if len(k.accesses) == 0 {
		return nil
	}
	k.computeDivergence()
	return k.findRaces()
}

// newKernelAn lays out kernel fn's inlined graph and collects its
// accesses.
func newKernelAn(fset *token.FileSet, fn *ssa.Function, shape Shape, uni *uniformity.Result) *kernelAn {
	k := &kernelAn{fset: fset, fn: fn, shape: shape, uni: uni, written: map[rootKey]bool{},
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

// ---- uniformity ----

// computeDivergence marks the values that may differ between threads of a
// block, to a fixed point: thread indices, atomics, loads of memory that
// the kernel writes or at divergent addresses, and everything computed
// from them, including phis merging control flow that divergent branches
// decide.
func (k *kernelAn) computeDivergence() {
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
func (k *kernelAn) uniDivergent(fr *frame, v ssa.Value) bool {
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

func (k *kernelAn) divOf(fr *frame, v ssa.Value) bool {
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

func (k *kernelAn) divergentInstr(fr *frame, v ssa.Value) bool {
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
func (k *kernelAn) regionCondsOf(fn *ssa.Function, j *ssa.BasicBlock) []ssa.Value {
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

// region returns the nodes that some barrier-free path from start reaches:
// from the kernel's entry when start is nil, else from after barrier start.
func (k *kernelAn) region(start *node) []bool {
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
func (k *kernelAn) reachesWithin(r []bool, from []*node, to, avoid *node) bool {
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
