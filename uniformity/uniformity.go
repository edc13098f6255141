// Package uniformity computes which values and branches of kernels and device
// functions may differ between the threads of one block.
//
// A value is divergent when two threads of one block may see different values
// for the same dynamic instance of it; a branch is divergent when its
// condition is. The sources of divergence are ThreadIdx and GlobalIdx (each
// component the kernel's dimensionality and block= shape let vary), results of
// atomics, loads from divergent addresses, loads of memory that threads write
// differently and that no barrier separates from the load (local arrays: any
// such write), values merged at a φ-node where the paths from the two sides of
// a divergent branch meet (sync dependence), and values used outside a loop
// that threads may leave at different iterations (temporal divergence).
// Kernel parameters, BlockIdx, BlockDim, GridDim, constants, len of uniform
// slices and pure computations of those are uniform.
//
// Device functions are analysed once, symbolically in their parameters: a
// value may depend on parameters (divergent where a caller passes a divergent
// argument) and on sources of its own. Each device function's [Summary] (which
// parameters flow into its results and memory writes, whether it reaches a
// barrier and on which parameters that depends) is exported as a fact, so
// that callers in other packages know it too.
//
// Loads of shared or global memory assume the program has no data race (the
// races check proves it): a value written by one thread and read by another
// is separated from the read by a barrier, after which every thread reads the
// same value at a uniform address. So a load at a uniform address is uniform
// unless a divergent write to that memory may reach it with no barrier in
// between. "That memory" is decided by the objects and access paths: a store
// whose address may point only into other objects (a φ of two global slices
// swapped each iteration cannot point into a gpu.Shared array), or that
// reaches the same object through another field or another constant index at
// some depth (s.buf[tid] against s.n; s[1][tid] against s[0][0]; s[i].val
// against s[5].key), is no write to it.
package uniformity

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

// Analyzer computes the uniformity of every kernel and device function of a
// package. Its result is a *Result; it reports nothing.
var Analyzer = define.Guarded(&analysis.Analyzer{
	Name:       "uniformity",
	Doc:        "compute which values and branches of kernels and device functions differ between threads of a block (reports nothing)",
	URL:        "https://github.com/gpukvet/gpukvet/tree/main/uniformity",
	Run:        run,
	Requires:   []*analysis.Analyzer{kernels.Analyzer, kernelssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Summary)},
})

// Result holds the analysis of every kernel and device function of a
// package, generic instances included. It is empty (but usable) for a package
// the dialect does not concern.
type Result struct {
	// Funcs maps each analysed function to its analysis.
	Funcs map[*ssa.Function]*Func
	// Order lists the analysed functions in source order (kernels and
	// device functions of the package, then generic instances reached).
	Order []*Func
}

// Of returns the analysis of fn, or nil if fn is not a kernel or device
// function of the package.
func (r *Result) Of(fn *ssa.Function) *Func {
	if r == nil {
		return nil
	}
	return r.Funcs[fn]
}

// Reason says where a divergent value comes from: a source of divergence at a
// position, or a parameter of a device function.
type Reason struct {
	What  string    // e.g. "ThreadIdx", "the result of AtomicAdd", "parameter n"
	Pos   token.Pos // where the source is
	Param int       // the parameter index for a parameter reason, else -1
	// Because is the reason behind this one (for memory written
	// differently, or a loop left at different iterations), or nil.
	Because *Reason
}

// Describe renders the reason as "ThreadIdx at line 12", followed by the
// reasons behind it: "memory that threads write differently (a store) at
// line 20, which depends on ThreadIdx at line 19".
func (r *Reason) Describe(fset *token.FileSet) string {
	if r == nil {
		return "nothing"
	}
	s := r.What
	if r.Pos.IsValid() {
		s = fmt.Sprintf("%s at line %d", r.What, fset.Position(r.Pos).Line)
	}
	if r.Because != nil {
		s += ", which depends on " + r.Because.Describe(fset)
	}
	return s
}

// Dep is what a value depends on for its divergence: a source of its own
// (Src, nil if none), a set of parameters of the function (bit i: parameter i
// of ssa.Function.Params) and a set of pointer or slice parameters whose
// pointed-to memory it was loaded from. A value is uniform iff Dep is zero.
type Dep struct {
	Src    *Reason
	Params uint64
	Mem    uint64
}

// Divergent reports whether the value may differ between threads, whatever
// the arguments (Src) or for some argument (Params, Mem).
func (d Dep) Divergent() bool { return d.Src != nil || d.Params != 0 || d.Mem != 0 }

func (d Dep) join(e Dep) Dep {
	if d.Src == nil {
		d.Src = e.Src
	}
	d.Params |= e.Params
	d.Mem |= e.Mem
	return d
}

func (d Dep) covers(e Dep) bool {
	return (d.Src != nil || e.Src == nil) && d.Params|e.Params == d.Params && d.Mem|e.Mem == d.Mem
}

// Branch is a two-way branch (an *ssa.If) whose condition may be divergent.
type Branch struct {
	Block *ssa.BasicBlock // the block ending in the If
	Cond  ssa.Value
	Dep   Dep // why the condition is divergent
	// Loop is the innermost loop containing the branch that one of its
	// successors leaves, or nil.
	Loop *ssa.BasicBlock // the loop's header
	// ExitsFunction is true when the branch's immediate post-dominator is
	// the function's exit: threads taking one side return or panic.
	ExitsFunction bool
}

// Func is the analysis of one kernel or device function.
type Func struct {
	Fn     *ssa.Function
	Kernel *kernels.Kernel // nil for a device function
	// Summary is what callers need to know (also exported as a fact).
	Summary *Summary
	// Barriers lists the barrier sites: calls of Thread.Barrier and of
	// device functions that reach a barrier.
	Barriers []*BarrierSite

	g        *cfg
	val      map[ssa.Value]Dep
	branches map[*ssa.BasicBlock]*Branch // divergent branches
	regions  map[*ssa.BasicBlock][]bool  // region of each divergent branch
	ctrl     []Dep                       // control dependence of each block
	tempo    []*loop                     // loops with a divergent exit
	tempoDep map[*loop]Dep
	mem      *memory
	callees  map[*ssa.Call]*Summary // summaries of the device functions called
}

// BarrierSite is a call that makes threads wait at a barrier.
type BarrierSite struct {
	Call *ssa.Call
	// Callee is the device function called, nil for Thread.Barrier.
	Callee *types.Func
	// Under is the divergent branch (innermost first) that decides whether a
	// thread reaches the call, with a source of its own; nil if none.
	Under *Branch
	// Arg is, for a device function whose barrier depends on its
	// parameters, the index (in Call.Common().Args) of an argument that is
	// divergent here with a source of its own, or -1.
	Arg    int
	ArgDep Dep
	// Params (and Mem, for the memory they point to) are the sets of this
	// function's parameters on which it depends whether all threads reach
	// the site (for device functions).
	Params, Mem uint64
}

// Divergent reports whether some threads of a block may not reach the site
// whatever the arguments of the function it sits in.
func (s *BarrierSite) Divergent() bool { return s.Under != nil || s.Arg >= 0 }

// Dep returns what v depends on. Values of other functions, and values the
// analysis did not reach, are divergent.
func (f *Func) Dep(v ssa.Value) Dep {
	switch v := v.(type) {
	case *ssa.Const, *ssa.Function, *ssa.Global:
		return Dep{}
	case *ssa.Parameter:
		if v.Parent() == f.Fn {
			return f.val[v]
		}
	}
	if instr, ok := v.(ssa.Instruction); ok && instr.Parent() == f.Fn {
		return f.val[v]
	}
	return Dep{Src: &Reason{What: "a value of another function", Param: -1}}
}

// IsDivergent reports whether v may differ between threads of a block. In a
// device function a value depending on a parameter counts as divergent
// (callers decide: see Dep and Summary).
func (f *Func) IsDivergent(v ssa.Value) bool { return f.Dep(v).Divergent() }

// Why returns the source that makes v divergent, or nil if it is uniform. For
// a value that depends only on parameters, it names the first one.
func (f *Func) Why(v ssa.Value) *Reason {
	return f.reasonOf(f.Dep(v))
}

func (f *Func) reasonOf(d Dep) *Reason {
	if d.Src != nil {
		return d.Src
	}
	for i, p := range f.Fn.Params {
		if i < 64 && d.Params&(1<<i) != 0 {
			return &Reason{What: "parameter " + p.Name(), Pos: p.Pos(), Param: i}
		}
	}
	for i, p := range f.Fn.Params {
		if i < 64 && d.Mem&(1<<i) != 0 {
			return &Reason{What: "the memory parameter " + p.Name() + " points to", Pos: p.Pos(), Param: i}
		}
	}
	return nil
}

// DivergentBranch returns the divergent branch that block b ends in, or nil.
func (f *Func) DivergentBranch(b *ssa.BasicBlock) *Branch { return f.branches[b] }

// ControlDep returns what decides whether a thread executes block b: the
// join of the conditions of every divergent branch whose region holds b. It
// is zero when all threads that reach the function execute b together.
func (f *Func) ControlDep(b *ssa.BasicBlock) Dep { return f.ctrl[b.Index] }

// DivergentBlock reports whether only some threads of a block may execute b.
func (f *Func) DivergentBlock(b *ssa.BasicBlock) bool { return f.ctrl[b.Index].Divergent() }

// Controlling returns the divergent branches whose region holds b, innermost
// (nearest to b) first.
func (f *Func) Controlling(b *ssa.BasicBlock) []*Branch {
	var out []*Branch
	for h, r := range f.regions {
		if r[b.Index] {
			out = append(out, f.branches[h])
		}
	}
	sort.Slice(out, func(i, j int) bool {
		// A branch dominated by another is nearer to b.
		bi, bj := out[i].Block, out[j].Block
		if bi.Dominates(bj) != bj.Dominates(bi) {
			return bj.Dominates(bi)
		}
		return bi.Index > bj.Index
	})
	return out
}

// PostDominates reports whether every path from b to the function's exit
// passes a.
func (f *Func) PostDominates(a, b *ssa.BasicBlock) bool { return f.g.postDominates(a.Index, b.Index) }

// ImmediatePostDominator returns b's immediate post-dominator, or nil if it
// is the function's exit.
func (f *Func) ImmediatePostDominator(b *ssa.BasicBlock) *ssa.BasicBlock {
	if p := f.g.ipdom[b.Index]; p < f.g.n {
		return f.Fn.Blocks[p]
	}
	return nil
}

// Summary is what callers need to know about a device function. Parameter
// sets are bit masks over ssa.Function.Params (bit i: parameter i).
type Summary struct {
	// Results[i] is what result i depends on. Src is set (with a
	// description) when the result is divergent whatever the arguments.
	Results []Dep
	// Writes[i] describes stores through pointer or slice parameter i: what
	// the stored values, addresses and the control flow around them depend
	// on. Zero when the function does not write through it divergently.
	Writes []Dep
	// Barrier is true when the function may reach a barrier.
	Barrier bool
	// BarrierParams is the set of parameters that decide whether all
	// threads reach its barriers (a divergent argument for one of them makes
	// the call divergent).
	BarrierParams uint64
	// BarrierMem is the same for the memory that pointer or slice
	// parameters point to.
	BarrierMem uint64
	// BarrierDivergent is true when the function reaches a barrier that only
	// some threads may reach whatever the arguments (reported inside it).
	BarrierDivergent bool
}

func (*Summary) AFact() {}

func (s *Summary) String() string {
	return fmt.Sprintf("uniformity(results=%v writes=%v barrier=%v barrierParams=%#x barrierMem=%#x)", s.Results, s.Writes, s.Barrier, s.BarrierParams, s.BarrierMem)
}

// String renders a dependence as {src: ...; params 0b..; mem 0b..}.
func (d Dep) String() string {
	var parts []string
	if d.Src != nil {
		parts = append(parts, "src: "+d.Src.What)
	}
	if d.Params != 0 {
		parts = append(parts, fmt.Sprintf("params %#b", d.Params))
	}
	if d.Mem != 0 {
		parts = append(parts, fmt.Sprintf("mem %#b", d.Mem))
	}
	return "{" + strings.Join(parts, "; ") + "}"
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{Funcs: map[*ssa.Function]*Func{}}
	kres := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	s := pass.ResultOf[kernelssa.Analyzer].(*kernelssa.SSA)
	if !kres.Relevant || s == nil {
		return res, nil
	}
	a := &analyser{pass: pass, kres: kres, res: res, busy: map[*ssa.Function]bool{}}
	var roots []*ssa.Function
	for _, k := range kres.Kernels {
		if fn := s.Func(k.Func); fn != nil {
			roots = append(roots, fn)
		}
	}
	var devs []*types.Func
	for fn := range kres.Device {
		devs = append(devs, fn)
	}
	sort.Slice(devs, func(i, j int) bool { return devs[i].Pos() < devs[j].Pos() })
	for _, d := range devs {
		if fn := s.Func(d); fn != nil {
			roots = append(roots, fn)
		}
	}
	sort.SliceStable(roots, func(i, j int) bool { return roots[i].Pos() < roots[j].Pos() })
	for _, fn := range roots {
		a.analyse(fn)
	}
	for _, d := range devs {
		if fn := s.Func(d); fn != nil {
			if f := res.Funcs[fn]; f != nil {
				pass.ExportObjectFact(d, f.Summary.portable(fn))
			}
		}
	}
	return res, nil
}

// analyser analyses the functions of one package on demand, callees first.
type analyser struct {
	pass *analysis.Pass
	kres *kernels.Result
	res  *Result
	busy map[*ssa.Function]bool
}

// summaryOf returns the summary of a callee: analysed here when it has a
// body in this package, else from its fact; nil for a function with neither
// (treated as pure).
func (a *analyser) summaryOf(fn *ssa.Function) *Summary {
	pkg := fn.Pkg
	if o := fn.Origin(); pkg == nil && o != nil {
		pkg = o.Pkg // a generic instance
	}
	if len(fn.Blocks) > 0 && pkg != nil && pkg.Pkg == a.pass.Pkg {
		if f := a.analyse(fn); f != nil {
			return f.Summary
		}
		return nil
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		return nil
	}
	var s Summary
	if a.pass.ImportObjectFact(obj.Origin(), &s) {
		return &s
	}
	return nil
}

// analyse returns the analysis of fn, computing it if needed. A function
// already being analysed (recursion, which the dialect forbids) gets nil.
func (a *analyser) analyse(fn *ssa.Function) *Func {
	if f := a.res.Funcs[fn]; f != nil {
		return f
	}
	if a.busy[fn] || len(fn.Blocks) == 0 {
		return nil
	}
	a.busy[fn] = true
	defer delete(a.busy, fn)
	f := &Func{Fn: fn}
	if obj, ok := fn.Object().(*types.Func); ok {
		f.Kernel = a.kres.Kernel(obj)
	}
	f.solve(a)
	a.res.Funcs[fn] = f
	a.res.Order = append(a.res.Order, f)
	return f
}
