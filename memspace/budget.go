package memspace

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/gpukvet/gpukvet/internal/budget"
	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/kernels"
)

// budgetAnalyzer measures the inlined size and call depth of the package's
// kernels and device functions (internal/budget) and exports them as an
// InlineFact for each exported device function. memspace reports what it
// finds over the budget. It is an analyzer of its own so that its facts,
// which every exported device function has, stay out of memspace's.
var budgetAnalyzer = define.Guarded(&analysis.Analyzer{
	Name:       "inlinebudget",
	Doc:        "measure the inlined size and call depth of kernels and device functions (reports nothing; memspace reports what exceeds the budget)",
	URL:        "https://github.com/gpukvet/gpukvet/tree/main/memspace",
	Run:        runBudget,
	Requires:   []*analysis.Analyzer{kernels.Analyzer},
	FactTypes:  []analysis.Fact{new(InlineFact)},
	ResultType: reflect.TypeFor[*budgetResult](),
})

// budgetResult holds, for each kernel or device function of the package
// over the budget whose callees are within it, the violation to report.
type budgetResult struct {
	over map[*types.Func]violation
}

// A budgetFunc is a kernel or device function of the package.
type budgetFunc struct {
	fn       *types.Func
	decl     *ast.FuncDecl
	isKernel bool
}

// InlineFact is the inlined size and call depth (internal/budget) of an
// exported device function, so that the budget of a kernel of another
// package that calls it counts what the call inlines.
type InlineFact struct {
	Size  int // syntax nodes, its own and those of every call it inlines
	Depth int // the function itself is depth 1
}

func (*InlineFact) AFact() {}

func (f *InlineFact) String() string {
	return fmt.Sprintf("inlines %d nodes, %d deep", f.Size, f.Depth)
}

// The states of a function in runBudget's walk of the call graph.
const (
	unseen = iota
	open
	done
)

// A budgetCall is a call in a kernel or device function of a function that
// counts towards the budget: one of this package (local) or, through its
// InlineFact, of another.
type budgetCall struct {
	pos   token.Pos
	local *budgetFunc
	ext   *InlineFact
}

// runBudget finds where a kernel or device function inlines
// more code, or nests calls deeper, than internal/budget allows (the
// lowering refuses the same kernels), and exports an InlineFact for each
// exported device function. A function over the budget is reported at the
// call that pushes it over, and only where the functions it calls are
// within it themselves: the diagnostic sits where the code grows past the
// limit, and the functions above it are refused through their calls.
// A call that closes a cycle adds nothing (recursion is reported apart).
func runBudget(pass *analysis.Pass) (any, error) {
	res := &budgetResult{over: map[*types.Func]violation{}}
	kres := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	if !kres.Relevant {
		return res, nil
	}
	funcs := map[*types.Func]*budgetFunc{}
	var order []*budgetFunc
	add := func(fn *types.Func, fd *ast.FuncDecl, isKernel bool) {
		bf := &budgetFunc{fn: fn, decl: fd, isKernel: isKernel}
		funcs[fn] = bf
		order = append(order, bf)
	}
	for _, k := range kres.Kernels {
		add(k.Func, k.Decl, true)
	}
	for fn, fd := range kres.Device {
		add(fn, fd, false)
	}
	sort.Slice(order, func(i, j int) bool { return order[i].decl.Pos() < order[j].decl.Pos() })
	calls := map[*budgetFunc][]budgetCall{}
	for _, cf := range order {
		calls[cf] = budgetCalls(pass, funcs, cf)
	}
	size := map[*budgetFunc]int{}
	depth := map[*budgetFunc]int{}
	// Post-order over the call graph with an explicit stack: a chain of
	// calls is as long as the user writes it.
	state := map[*budgetFunc]int{}
	type item struct {
		cf   *budgetFunc
		next int
	}
	for _, root := range order {
		if state[root] != unseen {
			continue
		}
		state[root] = open
		stack := []item{{cf: root}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			cs := calls[top.cf]
			if top.next < len(cs) {
				c := cs[top.next]
				top.next++
				if c.local != nil && state[c.local] == unseen {
					state[c.local] = open
					stack = append(stack, item{cf: c.local})
				}
				continue
			}
			cf := top.cf
			stack = stack[:len(stack)-1]
			state[cf] = done
			s, d := budget.Size(cf.decl.Body), 0
			for _, c := range cs {
				cs, cd := c.costs(state, size, depth)
				s = saturatingAdd(s, cs)
				d = max(d, cd)
			}
			size[cf], depth[cf] = s, d+1
		}
	}
	for _, cf := range order {
		if v, ok := overBudget(cf, calls[cf], state, size, depth); ok {
			res.over[cf.fn] = v
		}
		if !cf.isKernel && kres.DeviceFact(cf.fn) != nil {
			pass.ExportObjectFact(cf.fn, &InlineFact{Size: size[cf], Depth: depth[cf]})
		}
	}
	return res, nil
}

// checkBudget adds to the package's kernels and device functions the
// violations of the budget that budgetAnalyzer found.
func checkBudget(pass *analysis.Pass, order []*codeFunc) {
	over := pass.ResultOf[budgetAnalyzer].(*budgetResult).over
	for _, cf := range order {
		if v, ok := over[cf.fn]; ok {
			cf.breaks = append(cf.breaks, v)
			sort.SliceStable(cf.breaks, func(i, j int) bool { return cf.breaks[i].pos < cf.breaks[j].pos })
		}
	}
}

// costs returns the size and depth that call c adds to its caller; a call
// of a function still open on the walk's stack closes a cycle and adds
// nothing.
func (c budgetCall) costs(state, size, depth map[*budgetFunc]int) (int, int) {
	if c.ext != nil {
		return c.ext.Size, c.ext.Depth
	}
	if state[c.local] != done { // open: a cycle
		return 0, 0
	}
	return size[c.local], depth[c.local]
}

// overBudget returns the violation of cf's budget, if cf exceeds it and
// the functions it calls do not.
func overBudget(cf *budgetFunc, cs []budgetCall, state, size, depth map[*budgetFunc]int) (violation, bool) {
	if size[cf] <= budget.MaxSize && depth[cf] <= budget.MaxDepth {
		return violation{}, false
	}
	for _, c := range cs {
		if s, d := c.costs(state, size, depth); s > budget.MaxSize || d > budget.MaxDepth {
			return violation{}, false // reported in the callee
		}
	}
	kind := "device function " + cf.fn.Name()
	if cf.isKernel {
		kind = "kernel " + cf.fn.Name()
	}
	if depth[cf] > budget.MaxDepth {
		for _, c := range cs {
			if _, d := c.costs(state, size, depth); d+1 > budget.MaxDepth {
				return violation{pos: c.pos, msg: budget.DepthError(kind, d+1), what: "nests calls too deep to inline"}, true
			}
		}
	}
	running := budget.Size(cf.decl.Body)
	for _, c := range cs {
		s, _ := c.costs(state, size, depth)
		running += s
		if running > budget.MaxSize {
			return violation{pos: c.pos, msg: budget.SizeError(kind, running), what: "inlines more code than the budget"}, true
		}
	}
	// Its own body is over the budget.
	return violation{pos: cf.decl.Pos(), msg: budget.SizeError(kind, running), what: "inlines more code than the budget"}, true
}

func saturatingAdd(a, b int) int {
	if s := a + b; s >= a && s >= b {
		return s
	}
	return int(^uint(0) >> 1)
}

// budgetCalls returns, in source order, the calls in cf's body that count
// towards the budget: every static call of a kernel or device function of
// this package and of an exported device function of another package with
// an InlineFact. (Calls that break a rule are reported as such.)
func budgetCalls(pass *analysis.Pass, funcs map[*types.Func]*budgetFunc, cf *budgetFunc) []budgetCall {
	var out []budgetCall
	if cf.decl.Body == nil {
		return nil
	}
	ast.Inspect(cf.decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := typeutil.StaticCallee(pass.TypesInfo, call)
		if fn == nil || fn.Pkg() == nil {
			return true
		}
		fn = fn.Origin()
		if local := funcs[fn]; local != nil {
			out = append(out, budgetCall{pos: call.Pos(), local: local})
		} else if fn.Pkg() != pass.Pkg && budget.Counted(fn.Pkg().Path()) {
			var f InlineFact
			if pass.ImportObjectFact(fn, &f) {
				out = append(out, budgetCall{pos: call.Pos(), ext: &f})
			}
		}
		return true
	})
	return out
}
