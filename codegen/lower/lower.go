// Package lower turns the go/ssa form of a checked kernel, with the device
// functions it calls, into one kir.Func. Device functions are inlined at
// their call sites (the dialect has no recursion), aggregates are flattened
// into scalar leaves, and every run-time panic Go defines becomes an explicit
// bounds, division or shift check ending in a trap block.
//
// As in TinyGo's compiler, each Go construct has its own source file:
// arithmetic, conversions, memory (locals, fields, indexing, slicing),
// calls (device functions and inlining), intrinsics (package gpu and
// math), control flow (blocks, phis, branches, returns, panics) and
// fused multiply-adds (which products must not be fused).
package lower

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// Kernel describes one kernel to lower.
type Kernel struct {
	Fn    *ssa.Function
	Entry string // entry-point name
	Block [3]int
	Dims  int
}

// Env is what the lowering needs from the program around the kernels.
type Env struct {
	Fset *token.FileSet
	// DevMath is the SSA package of codegen/devmath, whose functions
	// implement math.Exp, math.Log, ... (nil: those calls are errors).
	DevMath *ssa.Package
	// NoFuse holds the positions of float products that an explicit
	// conversion rounds (see FindNoFuse).
	NoFuse map[token.Pos]bool
	// RelPos turns a position into the "file:line:col" kept in traps.
	RelPos func(token.Position) string
	// KeepBoundsChecks turns the optimizations that rest on value ranges
	// off: bounds-check elimination and 32-bit index arithmetic (tests
	// compare kernels with and without them).
	KeepBoundsChecks bool
	// DisableOptimizer skips the kernel-IR optimizer (gpukvet build -O0).
	DisableOptimizer bool
	// VerifyPasses checks the IR after every optimization pass (tests).
	VerifyPasses bool
	// SkipPasses are optimizer passes to leave out (kir.OptOptions.Skip).
	SkipPasses []string
}

// Error is a construct the lowering cannot compile, at a source position.
type Error struct {
	Pos token.Position
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%v: %s", e.Pos, e.Msg) }

var sizes = types.SizesFor("gc", "amd64")

// builder lowers one kernel.
type builder struct {
	env    *Env
	m      *kir.Module
	f      *kir.Func
	kernel string // the kernel's Go name, for errors
	cur    *kir.Block
	frame  *frame
	depth  int // nesting of inlined calls that count towards the budget
	size   int // inlined size so far (internal/budget)
	sizes  map[*ssa.Function]int
	// overBudget is set when the lowering stops at the budget.
	overBudget bool
	shared     map[string]int // gpu.Shared call site (and type) → module variable
	layouts    map[types.Type][]leaf
	reached    map[*ssa.Function]bool
	// at is the position of what is being lowered, for errors about
	// operands that have none of their own.
	at token.Pos
}

// frame is one inlined activation of an SSA function.
type frame struct {
	fn *ssa.Function
	// vals holds the leaves of every SSA value lowered so far.
	vals   map[ssa.Value][]*kir.Value
	blocks map[*ssa.BasicBlock]*kir.Block
	// exit maps the kir block each SSA block's lowering ended in (the
	// predecessor its successors' phis see) back to that SSA block.
	exit map[*kir.Block]*ssa.BasicBlock
	ret  *kir.Block
	// rets are the result leaves of each return, retFrom the block it
	// jumps to ret from.
	rets    [][]*kir.Value
	retFrom []*kir.Block
	phis    []*phiFix
	// iters are the variables that get a slot per execution (Go 1.22's
	// per-iteration variables whose address outlives the iteration).
	iters   map[*ssa.Alloc]*iterSlots
	parent  *frame
	callPos token.Pos
}

type phiFix struct {
	phi    *ssa.Phi
	leaves []*kir.Value
	block  *kir.Block
}

// LowerReached lowers kernel k into module m and returns the SSA functions
// the kernel reached (itself and every device function inlined into it),
// also when the lowering fails, so that a driver can relate check
// diagnostics to kernels.
func LowerReached(env *Env, m *kir.Module, k Kernel) (f *kir.Func, reached []*ssa.Function, err error) {
	b := &builder{env: env, m: m, shared: map[string]int{}, layouts: map[types.Type][]leaf{},
		reached: map[*ssa.Function]bool{}, sizes: map[*ssa.Function]int{}, kernel: k.Fn.Name()}
	defer func() {
		if b.overBudget {
			// The checks report a kernel over the budget where it grows
			// past it, which may lie in code not inlined yet.
			b.reachAll(k.Fn)
		}
		for fn := range b.reached {
			reached = append(reached, fn)
		}
		if r := recover(); r != nil {
			f = nil
			if e, ok := r.(*Error); ok {
				err = e
				return
			}
			err = fmt.Errorf("internal error lowering %s: %v", k.Fn, r)
		}
	}()
	f = &kir.Func{Name: k.Entry, Block: k.Block, Dims: k.Dims, LoopPos: map[*kir.Block]string{}}
	b.f = f
	f.Pos = b.posText(k.Fn.Pos())
	entry := f.NewBlock(kir.BlockPlain, "entry")
	b.cur = entry
	sig := k.Fn.Signature
	b.reached[k.Fn] = true // the checks' diagnostics on its signature refuse it
	if sig.Params().Len() == 0 || !gpuapi.IsThread(sig.Params().At(0).Type()) || isPointer(sig.Params().At(0).Type()) {
		// memspace reports this; without the checks it is an error here.
		b.fail(k.Fn.Pos(), "the first parameter of a kernel must be a gpu.Thread")
	}
	var args [][]*kir.Value
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		b.at = p.Pos()
		args = append(args, b.param(p))
	}
	b.inline(k.Fn, args, k.Fn.Pos())
	b.cur.Return()
	b.settleSpaces()
	kir.RemoveUnreachable(f)
	kir.RemoveDead(f)
	if err := kir.Optimize(f, kir.OptOptions{Disable: env.DisableOptimizer, KeepBoundsChecks: env.KeepBoundsChecks, Verify: env.VerifyPasses, Skip: env.SkipPasses}); err != nil {
		return nil, nil, fmt.Errorf("internal error optimizing %s: %v\n%s", k.Fn, err, kir.Format(f))
	}
	placeTraps(m, f)
	if err := kir.Verify(f); err != nil {
		return nil, nil, fmt.Errorf("internal error lowering %s: %v\n%s", k.Fn, err, kir.Format(f))
	}
	return f, nil, nil
}

// placeTraps enters the positions of the traps the optimizer made (the
// deadline traps of kir.PollLoops) in m's table.
func placeTraps(m *kir.Module, f *kir.Func) {
	for _, b := range f.Blocks {
		if b.Term == kir.TermTrap && b.Trap.Where != "" {
			b.Trap.Pos, b.Trap.Where = m.Pos(b.Trap.Where), ""
		}
	}
}

// reachAll adds to b.reached every function that fn calls, directly or
// through other calls.
func (b *builder) reachAll(fn *ssa.Function) {
	seen := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		b.reached[fn] = true
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					if callee := c.Common().StaticCallee(); callee != nil && !seen[callee] {
						seen[callee] = true
						work = append(work, callee)
					}
				}
			}
		}
	}
}

// fail aborts the lowering with an error at pos.
func (b *builder) fail(pos token.Pos, format string, args ...any) {
	if !pos.IsValid() {
		pos = b.at
	}
	if !pos.IsValid() && b.frame != nil {
		pos = b.frame.callPos
	}
	panic(&Error{Pos: b.env.Fset.Position(pos), Msg: fmt.Sprintf(format, args...)})
}

// param adds the kernel parameter p and returns its leaves.
func (b *builder) param(p *types.Var) []*kir.Value {
	t := p.Type()
	if gpuapi.IsThread(t) {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		iptr := len(b.f.Params)
		b.f.Params = append(b.f.Params, kir.Param{Name: p.Name() + "_ptr", Type: kir.PtrTo(kir.Global)},
			kir.Param{Name: p.Name() + "_len", Type: kir.TI64, Len: true})
		ptr := b.val(kir.OpParam, kir.PtrTo(kir.Global))
		ptr.Index = iptr
		n := b.val(kir.OpParam, kir.TI64)
		n.Index = iptr + 1
		return []*kir.Value{ptr, n, n}
	case *types.Struct:
		ls := b.layout(t)
		idx := len(b.f.Params)
		b.f.Params = append(b.f.Params, kir.Param{Name: p.Name(), Bytes: int(sizes.Sizeof(t)), Align: int(sizes.Alignof(t))})
		var out []*kir.Value
		for _, l := range ls {
			v := b.val(kir.OpParam, kir.Type{Kind: l.kind})
			v.Index = idx
			v.Imm = uint64(l.off)
			out = append(out, v)
		}
		return out
	case *types.Basic:
		k := leafKind(b, u)
		idx := len(b.f.Params)
		b.f.Params = append(b.f.Params, kir.Param{Name: p.Name(), Type: kir.Type{Kind: k}})
		v := b.val(kir.OpParam, kir.Type{Kind: k})
		v.Index = idx
		return []*kir.Value{v}
	}
	b.fail(p.Pos(), "kernel parameter %s has type %s, which kernels cannot take", p.Name(), t)
	return nil
}

// val adds a value to the current block at the position of what is being
// lowered, which the emitters' errors and the PTX position comments name.
func (b *builder) val(op kir.Op, t kir.Type, args ...*kir.Value) *kir.Value {
	v := b.f.NewValue(b.cur, op, t, args...)
	v.Pos = b.at
	return v
}

func (b *builder) konst(t kir.Type, bits uint64) *kir.Value {
	v := b.val(kir.OpConst, t)
	v.Imm = bits
	return v
}

func (b *builder) i64(n int64) *kir.Value { return b.konst(kir.TI64, uint64(n)) }

func (b *builder) boolConst(x bool) *kir.Value {
	if x {
		return b.konst(kir.TBool, 1)
	}
	return b.konst(kir.TBool, 0)
}

func isPointer(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}
