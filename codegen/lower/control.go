package lower

import (
	"go/ast"
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/budget"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// inline lowers fn's body at the current point with the given argument
// leaves, and returns the leaves of its results (all results concatenated).
// The current block afterwards is where the call returns to.
func (b *builder) inline(fn *ssa.Function, args [][]*kir.Value, pos token.Pos) []*kir.Value {
	b.reached[fn] = true
	if len(fn.Blocks) == 0 {
		b.fail(pos, "%s has no Go body to compile for the GPU", fn)
	}
	if len(fn.FreeVars) > 0 {
		b.fail(pos, "closures cannot be used in kernels")
	}
	for fr := b.frame; fr != nil; fr = fr.parent {
		if fr.fn == fn {
			b.fail(pos, "recursive call of %s: kernel code cannot recurse", fn.Name())
		}
	}
	counted := b.spend(fn, pos)
	if counted {
		b.depth++
		defer func() { b.depth-- }()
	}
	fr := &frame{fn: fn, vals: map[ssa.Value][]*kir.Value{}, blocks: map[*ssa.BasicBlock]*kir.Block{},
		exit: map[*kir.Block]*ssa.BasicBlock{}, parent: b.frame, callPos: pos}
	for i, p := range fn.Params {
		fr.vals[p] = args[i]
	}
	fr.iters = b.iterationSlots(fn)
	for _, sb := range fn.Blocks {
		fr.blocks[sb] = b.f.NewBlock(blockKind(sb.Comment), sb.Comment)
	}
	fr.ret = b.f.NewBlock(kir.BlockPlain, "return from "+fn.Name())
	b.cur.Jump(fr.blocks[fn.Blocks[0]])
	saved := b.frame
	b.frame = fr
	for _, sb := range fn.DomPreorder() {
		b.cur = fr.blocks[sb]
		if loopHeader(sb) {
			b.f.LoopPos[b.cur] = b.posText(loopPos(sb))
		}
		for _, instr := range sb.Instrs {
			if pos := instr.Pos(); pos.IsValid() {
				b.at = pos
			} else {
				b.at = blockPos(sb)
			}
			b.instr(instr)
		}
		fr.exit[b.cur] = sb
	}
	b.fillPhis(fr)
	b.frame = saved
	b.cur = fr.ret
	switch len(fr.rets) {
	case 0:
		return b.zeroLeaves(fn.Signature.Results())
	case 1:
		return fr.rets[0]
	}
	out := make([]*kir.Value, len(fr.rets[0]))
	for i := range out {
		phi := b.f.NewPhi(fr.ret, fr.rets[0][i].Type)
		for _, from := range fr.ret.Preds {
			for k, rf := range fr.retFrom {
				if rf == from {
					phi.Args = append(phi.Args, fr.rets[k][i])
				}
			}
		}
		out[i] = phi
	}
	b.unifyPhiSpaces(fr.ret)
	return out
}

// spend charges an inline of fn at pos to the kernel's budget (see
// internal/budget, which memspace checks too) and fails when the inlined
// size or the nesting of calls exceeds it. It reports whether fn counts.
func (b *builder) spend(fn *ssa.Function, pos token.Pos) bool {
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || !budget.Counted(obj.Pkg().Path()) {
		return false
	}
	size, ok := b.sizes[fn]
	if !ok {
		if fd, isDecl := fn.Syntax().(*ast.FuncDecl); isDecl {
			size = budget.Size(fd.Body)
		}
		b.sizes[fn] = size
	}
	b.size += size
	if b.depth+1 > budget.MaxDepth || b.size > budget.MaxSize {
		b.overBudget = true
	}
	if b.depth+1 > budget.MaxDepth {
		b.fail(pos, "%s", budget.DepthError("kernel "+b.kernel, b.depth+1))
	}
	if b.size > budget.MaxSize {
		b.fail(pos, "%s", budget.SizeError("kernel "+b.kernel, b.size))
	}
	return true
}

func blockKind(comment string) kir.BlockKind {
	switch {
	case strings.HasSuffix(comment, ".loop"):
		return kir.BlockLoopHeader
	case strings.HasSuffix(comment, ".body"):
		return kir.BlockLoopBody
	case strings.HasSuffix(comment, ".done") && !strings.HasPrefix(comment, "if"):
		return kir.BlockLoopDone
	case comment == "if.then":
		return kir.BlockIfThen
	case comment == "if.else":
		return kir.BlockIfElse
	case comment == "if.done":
		return kir.BlockIfDone
	}
	return kir.BlockPlain
}

// fillPhis sets the arguments of the kir phis made for fr's SSA phis, in
// the order of the kir predecessors.
func (b *builder) fillPhis(fr *frame) {
	for _, pf := range fr.phis {
		sb := pf.phi.Block()
		for _, kp := range pf.block.Preds {
			from := fr.exit[kp]
			idx := -1
			for i, p := range sb.Preds {
				if p == from {
					idx = i
				}
			}
			if idx < 0 {
				b.fail(pf.phi.Pos(), "internal error: phi predecessor not found")
			}
			edge := pf.phi.Edges[idx]
			saved := b.cur
			b.cur = kp
			in := b.value(edge)
			b.cur = saved
			for i, leaf := range pf.leaves {
				leaf.Args = append(leaf.Args, in[i])
			}
		}
	}
	seen := map[*kir.Block]bool{}
	for _, pf := range fr.phis {
		if !seen[pf.block] {
			seen[pf.block] = true
			b.unifyPhiSpaces(pf.block)
		}
	}
}

// settleSpaces gives each address derived from a pointer phi (a field or
// element of *p) the space its phi settled on: unifyPhiSpaces decides a
// phi's space once its arguments are known, after its users were lowered
// with the phi's first type. A phi that gets such an address or another
// phi as argument is settled again, until nothing changes (a phi settled
// before a later phi of its block that it receives would otherwise keep
// the generic space while that phi moves to another: a per-iteration
// variable's pointer kept from the previous iteration).
func (b *builder) settleSpaces() {
	for changed := true; changed; {
		changed = false
		for _, blk := range b.f.Blocks {
			for _, v := range blk.Values {
				if v.Op == kir.OpPtrAdd && v.Type != v.Args[0].Type {
					v.Type = v.Args[0].Type
					changed = true
				}
			}
		}
		for _, blk := range b.f.Blocks {
			if b.unifyPhiSpaces(blk) {
				changed = true
			}
		}
	}
}

// unifyPhiSpaces gives a pointer phi whose arguments point into different
// address spaces, or that may be nil and otherwise points into shared or
// local memory, the generic space, converting the arguments at the end of
// their predecessors, and reports whether a phi's type changed.
func (b *builder) unifyPhiSpaces(blk *kir.Block) bool {
	changed := false
	for _, phi := range blk.Phis() {
		if phi.Type.Kind != kir.Ptr || len(phi.Args) == 0 {
			continue
		}
		was := phi.Type
		space, first := kir.Generic, true
		same, null := true, false
		for _, a := range phi.Args {
			if a.Op == kir.OpConst {
				null = true
				continue
			}
			if first {
				space, first = a.Type.Space, false
			} else if a.Type.Space != space {
				same = false
			}
		}
		if null && (space == kir.Shared || space == kir.Local) {
			// nil is address 0, which the shared and local windows
			// start at: a variable there may have address 0, and would
			// pass for nil. Generic addresses of variables are never 0.
			same = false
		}
		if same {
			phi.Type = kir.PtrTo(space)
			changed = changed || phi.Type != was
			continue
		}
		phi.Type = kir.PtrTo(kir.Generic)
		changed = changed || phi.Type != was
		for i, a := range phi.Args {
			if a.Type.Space != kir.Generic {
				p := blk.Preds[i]
				phi.Args[i] = b.f.NewValue(p, kir.OpConvert, kir.PtrTo(kir.Generic), a)
			}
		}
	}
	return changed
}

// instr lowers one SSA instruction.
func (b *builder) instr(instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.DebugRef:
	case *ssa.Jump:
		b.cur.Jump(b.frame.blocks[in.Block().Succs[0]])
	case *ssa.If:
		c := b.value(in.Cond)[0]
		b.cur.Branch(c, b.frame.blocks[in.Block().Succs[0]], b.frame.blocks[in.Block().Succs[1]])
	case *ssa.Return:
		var leaves []*kir.Value
		for _, r := range in.Results {
			leaves = append(leaves, b.value(r)...)
		}
		fr := b.frame
		fr.rets = append(fr.rets, leaves)
		fr.retFrom = append(fr.retFrom, b.cur)
		b.cur.Jump(fr.ret)
	case *ssa.Panic:
		b.trap(gpuabi.TrapPanic, in.Pos(), nil, nil)
		if msg, ok := panicMessage(in.X); ok {
			b.m.PanicMessage(b.posID(in.Pos()), msg)
		}
	case *ssa.Store:
		p := b.value(in.Addr)[0]
		b.nilCheck(in.Addr, p, in.Pos())
		b.store(p, in.Val.Type(), b.value(in.Val), in.Pos())
	case *ssa.Phi:
		ls := b.layout(in.Type())
		var leaves []*kir.Value
		for _, l := range ls {
			leaves = append(leaves, b.f.NewPhi(b.cur, kir.Type{Kind: l.kind}))
		}
		b.frame.vals[in] = leaves
		b.frame.phis = append(b.frame.phis, &phiFix{phi: in, leaves: leaves, block: b.cur})
	case ssa.Value:
		if _, ok := in.(*ssa.MakeInterface); ok && onlyPanics(in) {
			return // the argument of panic(...): the trap says "panic"
		}
		b.frame.vals[in] = b.expr(in)
	case *ssa.MapUpdate:
		b.fail(instr.Pos(), "maps cannot be used in kernels")
	case *ssa.Go, *ssa.Defer, *ssa.RunDefers:
		b.fail(instr.Pos(), "go and defer cannot be used in kernels")
	case *ssa.Send:
		b.fail(instr.Pos(), "channels cannot be used in kernels")
	default:
		b.fail(instr.Pos(), "%T statements cannot be used in kernels", instr)
	}
}

func onlyPanics(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.Panic); !ok {
			return false
		}
	}
	return true
}

// trap ends the current block with a trap of the given cause at pos and
// continues in a fresh, unreachable block (which RemoveUnreachable drops).
func (b *builder) trap(code gpuabi.TrapCode, pos token.Pos, a0, a1 *kir.Value) {
	b.cur.TrapWith(kir.Trap{Code: code, Pos: b.posID(pos), Args: [2]*kir.Value{a0, a1}})
	b.cur = b.f.NewBlock(kir.BlockPlain, "after trap")
}

// check continues in a new block when ok holds and traps otherwise.
func (b *builder) check(ok *kir.Value, code gpuabi.TrapCode, pos token.Pos, a0, a1 *kir.Value) {
	if ok.Op == kir.OpConst && ok.Imm == 1 {
		return
	}
	cont := b.f.NewBlock(kir.BlockPlain, "checked")
	fail := b.f.NewBlock(kir.BlockPlain, "trap: "+code.String())
	b.cur.Branch(ok, cont, fail)
	fail.TrapWith(kir.Trap{Code: code, Pos: b.posID(pos), Args: [2]*kir.Value{a0, a1}})
	b.cur = cont
}

// posID returns the module's id for pos; an unknown position falls back to
// the innermost call site that has one.
func (b *builder) posID(pos token.Pos) int { return b.m.Pos(b.posText(pos)) }

// posText is pos as the module's table has it ("file:line:col"), with
// posID's fallback.
func (b *builder) posText(pos token.Pos) string {
	for fr := b.frame; !pos.IsValid() && fr != nil; fr = fr.parent {
		pos = fr.callPos
	}
	p := b.env.Fset.Position(pos)
	if !p.IsValid() {
		return "?"
	}
	if b.env.RelPos != nil {
		return b.env.RelPos(p)
	}
	return p.String()
}

// loopHeader reports whether sb is the header of a loop: the target of a
// back edge from a block it dominates.
func loopHeader(sb *ssa.BasicBlock) bool {
	for _, p := range sb.Preds {
		if sb.Dominates(p) {
			return true
		}
	}
	return false
}

// loopPos is where the loop headed by sb is in the source, as well as SSA
// tells: the first position in the header or in a block of the loop it
// dominates directly, else (for {} has none) the first for statement after
// the code that dominates the loop.
func loopPos(sb *ssa.BasicBlock) token.Pos {
	if pos := blockPos(sb); pos.IsValid() {
		return pos
	}
	for _, d := range sb.Dominees() {
		for _, p := range sb.Preds {
			if pos := blockPos(d); pos.IsValid() && sb.Dominates(p) && d.Dominates(p) {
				return pos
			}
		}
	}
	after := token.NoPos
	for d := sb.Idom(); d != nil && !after.IsValid(); d = d.Idom() {
		for _, in := range d.Instrs {
			if in.Pos().IsValid() {
				after = in.Pos()
			}
		}
	}
	return forAfter(sb.Parent().Syntax(), after)
}

// forAfter is the position of the first for statement in syntax that
// starts after pos (NoPos if none).
func forAfter(syntax ast.Node, pos token.Pos) token.Pos {
	best := token.NoPos
	if syntax == nil {
		return best
	}
	ast.Inspect(syntax, func(n ast.Node) bool {
		var p token.Pos
		switch s := n.(type) {
		case *ast.ForStmt:
			p = s.For
		case *ast.RangeStmt:
			p = s.For
		}
		if p > pos && (!best.IsValid() || p < best) {
			best = p
		}
		return true
	})
	return best
}

// blockPos is the first known position in an SSA block.
func blockPos(sb *ssa.BasicBlock) token.Pos {
	for _, in := range sb.Instrs {
		if in.Pos().IsValid() {
			return in.Pos()
		}
	}
	return token.NoPos
}

// panicMessage returns the text of panic("constant"), or of a constant of
// another basic type, which the manifest keeps for the runtime to print.
func panicMessage(x ssa.Value) (string, bool) {
	mi, ok := x.(*ssa.MakeInterface)
	if !ok {
		return "", false
	}
	c, ok := mi.X.(*ssa.Const)
	if !ok || c.Value == nil {
		return "", false
	}
	if c.Value.Kind() == constant.String {
		return constant.StringVal(c.Value), true
	}
	return c.Value.ExactString(), true
}
