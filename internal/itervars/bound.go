package itervars

import (
	"github.com/gpukvet/gpukvet/internal/cmpop"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// A loop is a natural loop: a header that dominates the blocks that jump
// back to it (its latches), and every block that reaches a latch without
// passing the header.
type loop struct {
	header  *ssa.BasicBlock
	blocks  map[*ssa.BasicBlock]bool
	latches []*ssa.BasicBlock
}

// Reasons a loop's number of iterations has no bound.
const (
	whyIrreducible = "a goto jumps into the loop"
	whyNoCount     = "the loop does not count a variable from a constant to a constant bound"
	whyWritten     = "the loop counts a variable whose address is written through, handed to a call, or stored where the function may write through it"
)

// loops returns the natural loops of fn, or false when a cycle of fn has no
// header that dominates it (a goto into a loop), so that natural loops do
// not describe every cycle.
func loops(fn *ssa.Function) ([]*loop, bool) {
	var out []*loop
	for _, h := range fn.Blocks {
		var l *loop
		for _, p := range h.Preds {
			if !h.Dominates(p) {
				continue
			}
			if l == nil {
				l = &loop{header: h, blocks: map[*ssa.BasicBlock]bool{h: true}}
				out = append(out, l)
			}
			l.latches = append(l.latches, p)
			l.collect(p)
		}
	}
	return out, acyclicWithoutBackEdges(fn)
}

// collect adds b and the blocks that reach it without passing the header.
func (l *loop) collect(b *ssa.BasicBlock) {
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if l.blocks[b] {
			continue
		}
		l.blocks[b] = true
		work = append(work, b.Preds...)
	}
}

// acyclicWithoutBackEdges reports whether fn's control flow has no cycle
// once the edges to a dominator are removed: then every cycle runs
// through the header of a natural loop.
func acyclicWithoutBackEdges(fn *ssa.Function) bool {
	const (
		unseen = iota
		open
		done
	)
	state := make([]int, len(fn.Blocks))
	var visit func(b *ssa.BasicBlock) bool
	visit = func(b *ssa.BasicBlock) bool {
		state[b.Index] = open
		for _, s := range b.Succs {
			if s.Dominates(b) {
				continue
			}
			if state[s.Index] == open || state[s.Index] == unseen && !visit(s) {
				return false
			}
		}
		state[b.Index] = done
		return true
	}
	return len(fn.Blocks) == 0 || visit(fn.Blocks[0])
}

// maxCopies caps the product of loop bounds, far above what fits in a
// local variable, so that it cannot overflow.
const maxCopies = 1 << 40

// copies returns how many times block b may run in one call of its
// function: the product of the iteration bounds of the loops around it,
// each counted per entry into the loop. It returns 0 and why when one of
// them has no bound.
func copies(b *ssa.BasicBlock, ls []*loop) (int64, string) {
	n := int64(1)
	for _, l := range ls {
		if !l.blocks[b] {
			continue
		}
		t, why := l.trips()
		if t == 0 {
			return 0, why
		}
		if t > maxCopies/n {
			n = maxCopies // the product would overflow; far too many anyway
		} else {
			n *= t
		}
	}
	return n, ""
}

// An induction is a value that is init in the loop's first iteration and
// grows by step from each iteration to the next: the integer phi of a
// counted loop, or the loop variable a three-clause loop copies into a new
// variable in every iteration (Go 1.22) when its address escapes.
type induction struct {
	typ        *types.Basic
	init, step *big.Int
	// holds reports whether v is the induction's value, or it plus a
	// constant (returned), in any iteration.
	holds func(v ssa.Value) (*big.Int, bool)
}

// trips returns how many times the loop's header may run per entry into
// the loop, or 0 and why when it has no bound.
func (l *loop) trips() (int64, string) {
	why := whyNoCount
	best := int64(0)
	for _, instr := range l.header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		ind, w := l.induction(phi)
		if ind == nil {
			if w != "" {
				why = w
			}
			continue
		}
		if t := l.exitBound(ind); t > 0 && (best == 0 || t < best) {
			best = t
		}
	}
	if best == 0 {
		return 0, why
	}
	return best, ""
}

// induction recognizes phi as a counter of the loop, or says why a loop
// variable is not one ("" when phi is not a loop variable at all).
func (l *loop) induction(phi *ssa.Phi) (*induction, string) {
	if t, ok := phi.Type().Underlying().(*types.Basic); ok && t.Info()&types.IsInteger != 0 {
		return l.phiCounter(phi, t), ""
	}
	return l.memoryCounter(phi)
}

// phiCounter recognizes phi = [init from outside the loop, phi+step from
// every latch].
func (l *loop) phiCounter(phi *ssa.Phi, t *types.Basic) *induction {
	var init, step *big.Int
	for i, e := range phi.Edges {
		from := l.header.Preds[i]
		if !l.blocks[from] {
			c := constInt(e)
			if c == nil || init != nil && init.Cmp(c) != 0 {
				return nil
			}
			init = c
			continue
		}
		s := offset(e, phi)
		if s == nil || s.Sign() == 0 || step != nil && step.Cmp(s) != 0 {
			return nil
		}
		step = s
	}
	if init == nil || step == nil {
		return nil
	}
	return &induction{typ: t, init: init, step: step, holds: func(v ssa.Value) (*big.Int, bool) {
		if v == phi {
			return new(big.Int), true
		}
		d := offset(v, phi)
		return d, d != nil
	}}
}

// memoryCounter recognizes the variable of a three-clause loop whose
// address escapes: Go's SSA gives it an Alloc per iteration,
//
//	entry:  a0 = new T; *a0 = init
//	header: phi = [a0, a1]; ... *phi < bound ...
//	post:   a1 = new T; *a1 = *phi; *a1 = *a1 + step
//
// and the count holds only if nothing else writes any iteration's
// variable: its address may be read through, never written through or
// handed to a call, and stored only where the function writes through no
// pointer it reads back from memory.
func (l *loop) memoryCounter(phi *ssa.Phi) (*induction, string) {
	ptr, ok := phi.Type().Underlying().(*types.Pointer)
	if !ok || len(phi.Edges) != 2 || len(l.latches) != 1 {
		return nil, ""
	}
	t, ok := ptr.Elem().Underlying().(*types.Basic)
	if !ok || t.Info()&types.IsInteger == 0 {
		return nil, ""
	}
	var a0, a1 *ssa.Alloc
	for i, e := range phi.Edges {
		a, ok := e.(*ssa.Alloc)
		if !ok {
			return nil, ""
		}
		if l.blocks[l.header.Preds[i]] {
			a1 = a
		} else {
			a0 = a
		}
	}
	if a0 == nil || a1 == nil || l.blocks[a0.Block()] || !l.blocks[a1.Block()] {
		return nil, ""
	}
	init, initStore := storedConst(a0)
	step, ok := copyAndStep(a1, phi)
	if init == nil || !ok {
		return nil, ""
	}
	ok, stored := readOnly([]ssa.Value{a0, a1}, map[ssa.Instruction]bool{initStore: true}, a1)
	if !ok || stored && writesThroughMemory(phi.Parent()) {
		return nil, whyWritten
	}
	return &induction{typ: t, init: init, step: step, holds: func(v ssa.Value) (*big.Int, bool) {
		u, ok := v.(*ssa.UnOp)
		return new(big.Int), ok && u.Op == token.MUL && u.X == phi
	}}, ""
}

// storedConst returns the constant stored in a right after it is
// allocated, in its block, and that store.
func storedConst(a *ssa.Alloc) (*big.Int, ssa.Instruction) {
	instrs := a.Block().Instrs
	for i := index(a) + 1; i < len(instrs); i++ {
		if s, ok := instrs[i].(*ssa.Store); ok && s.Addr == a {
			return constInt(s.Val), s
		}
	}
	return nil, nil
}

// copyAndStep recognizes the post statement's stores into a1, the first
// the copy of the previous iteration's variable (*phi), the next its
// increment, and returns the step.
func copyAndStep(a1 *ssa.Alloc, phi *ssa.Phi) (*big.Int, bool) {
	var stores []*ssa.Store
	for _, r := range *a1.Referrers() {
		if s, ok := r.(*ssa.Store); ok && s.Addr == a1 {
			stores = append(stores, s)
		}
	}
	if len(stores) != 2 || stores[0].Block() != a1.Block() || stores[1].Block() != a1.Block() || index(stores[0]) > index(stores[1]) {
		return nil, false
	}
	cp, ok := stores[0].Val.(*ssa.UnOp)
	if !ok || cp.Op != token.MUL || cp.X != phi {
		return nil, false
	}
	ld, ok := stores[1].Val.(*ssa.BinOp)
	if !ok {
		return nil, false
	}
	var step *big.Int
	for _, x := range []ssa.Value{ld.X, ld.Y} {
		if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL && u.X == a1 {
			step = offset(ld, u)
		}
	}
	return step, step != nil && step.Sign() != 0
}

// readOnly reports whether the addresses roots, and every pointer that
// may hold one of them, are only read through, compared, stored in memory
// (which it also reports), or written by the stores allowed (and by the
// two stores copyAndStep recognized in post, the Alloc of the loop's next
// iteration).
func readOnly(roots []ssa.Value, allowed map[ssa.Instruction]bool, post *ssa.Alloc) (ok, stored bool) {
	work := append([]ssa.Value(nil), roots...)
	seen := map[ssa.Value]bool{}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.Phi:
				work = append(work, r)
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false, false
				}
			case *ssa.BinOp:
				if r.Op != token.EQL && r.Op != token.NEQ {
					return false, false
				}
			case *ssa.Store:
				switch {
				case r.Val == v && r.Addr != v:
					stored = true
				case r.Val == v || !allowed[r] && v != post:
					return false, false
				}
			default:
				return false, false
			}
		}
	}
	return true, stored
}

// writesThroughMemory reports whether fn may write through a pointer it
// read from memory (an address stored there coming back), or hands a
// pointer to a call, which could: a loop variable whose address fn stores
// is then no counter.
func writesThroughMemory(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				if fromMemory(instr.Addr, map[ssa.Value]bool{}) {
					return true
				}
			case ssa.CallInstruction:
				for _, a := range instr.Common().Args {
					if holdsPointer(a.Type(), map[types.Type]bool{}) {
						return true
					}
				}
			}
		}
	}
	return false
}

// fromMemory reports whether address a may be, or point into, a pointer
// read from memory.
func fromMemory(a ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[a] {
		return false
	}
	seen[a] = true
	switch a := a.(type) {
	case *ssa.UnOp:
		_, ptr := a.Type().Underlying().(*types.Pointer)
		return a.Op == token.MUL && ptr
	case *ssa.FieldAddr:
		return fromMemory(a.X, seen)
	case *ssa.IndexAddr:
		return fromMemory(a.X, seen)
	case *ssa.Phi:
		for _, e := range a.Edges {
			if fromMemory(e, seen) {
				return true
			}
		}
		return false
	case *ssa.Alloc, *ssa.Parameter, *ssa.Const:
		return false
	}
	return true // a call's result, a conversion: not followed
}

// holdsPointer reports whether a value of type t holds a pointer, or a
// slice of values that do. A gpu.Thread's pointer is the runtime's, never
// one to kernel memory.
func holdsPointer(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] || gpuapi.IsThread(t) {
		return false
	}
	seen[t] = true
	switch t := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Slice:
		return holdsPointer(t.Elem(), seen)
	case *types.Array:
		return holdsPointer(t.Elem(), seen)
	case *types.Struct:
		for i := range t.NumFields() {
			if holdsPointer(t.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// exitBound returns how many times the loop's header may run per entry,
// from a test of ind against a constant that every iteration reaching a
// latch passes and whose other branch leaves the loop (0 for none). The
// test must not see ind wrap around its type.
func (l *loop) exitBound(ind *induction) int64 {
	best := int64(0)
	for b := range l.blocks {
		if !l.dominatesLatches(b) {
			continue
		}
		t, ok := l.testBound(b, ind)
		if ok && (best == 0 || t < best) {
			best = t
		}
	}
	return best
}

func (l *loop) dominatesLatches(b *ssa.BasicBlock) bool {
	for _, p := range l.latches {
		if !b.Dominates(p) {
			return false
		}
	}
	return true
}

// testBound reads b's branch as "stay while ind+d op k" and returns the
// header's runs: one more than the iterations that stay.
func (l *loop) testBound(b *ssa.BasicBlock, ind *induction) (int64, bool) {
	br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || len(b.Succs) != 2 || l.blocks[b.Succs[0]] == l.blocks[b.Succs[1]] {
		return 0, false
	}
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok {
		return 0, false
	}
	op, x, y := cmp.Op, cmp.X, cmp.Y
	if _, isConst := x.(*ssa.Const); isConst {
		op, x, y = cmpop.Swap(op), y, x
	}
	d, ok := ind.holds(x)
	k := constInt(y)
	if !ok || k == nil {
		return 0, false
	}
	if !l.blocks[b.Succs[0]] {
		op = cmpop.Negate(op)
	}
	return stays(ind, d, op, k)
}

// stays returns one more than the number of leading iterations j with
// (init + j*step + d) op k, when that is finite and no value of the
// induction or of the tested sum up to there leaves the type's range.
func stays(ind *induction, d *big.Int, op token.Token, k *big.Int) (int64, bool) {
	w0 := new(big.Int).Add(ind.init, d)
	up := ind.step.Sign() > 0
	// Normalize to "w < lim" for growing and "w > lim" for shrinking w.
	lim := new(big.Int).Set(k)
	switch {
	case op == token.LSS && up, op == token.GTR && !up:
	case op == token.LEQ && up:
		lim.Add(lim, big.NewInt(1))
	case op == token.GEQ && !up:
		lim.Sub(lim, big.NewInt(1))
	case op == token.NEQ:
		// Stays until w meets k exactly.
		diff := new(big.Int).Sub(k, w0)
		if diff.Sign() != 0 && diff.Sign() != ind.step.Sign() || new(big.Int).Rem(diff, ind.step).Sign() != 0 {
			return 0, false
		}
	default:
		// A test that fails at once bounds the loop to its first run;
		// one that holds at first holds until the induction wraps.
		if holdsAt(op, w0, k) {
			return 0, false
		}
		return 1, true
	}
	dist := new(big.Int).Sub(lim, w0)
	if !up {
		dist.Neg(dist)
	}
	abs := new(big.Int).Abs(ind.step)
	j := new(big.Int)
	if dist.Sign() > 0 {
		j.Add(dist, new(big.Int).Sub(abs, big.NewInt(1)))
		j.Quo(j, abs) // ceil(dist/|step|) iterations stay
	}
	last := new(big.Int).Add(ind.init, new(big.Int).Mul(j, ind.step))
	for _, v := range []*big.Int{ind.init, last, w0, new(big.Int).Add(last, d)} {
		if !inRange(v, ind.typ) {
			return 0, false
		}
	}
	if !j.IsInt64() || j.Int64() >= maxCopies {
		return maxCopies, true
	}
	return j.Int64() + 1, true
}

// holdsAt evaluates w op k.
func holdsAt(op token.Token, w, k *big.Int) bool {
	c := w.Cmp(k)
	switch op {
	case token.LSS:
		return c < 0
	case token.LEQ:
		return c <= 0
	case token.GTR:
		return c > 0
	case token.GEQ:
		return c >= 0
	case token.EQL:
		return c == 0
	case token.NEQ:
		return c != 0
	}
	return true // not a comparison: assume it may hold
}

// offset returns c when v is base + c or base - (-c) for a constant c.
func offset(v, base ssa.Value) *big.Int {
	bin, ok := v.(*ssa.BinOp)
	if !ok {
		return nil
	}
	switch {
	case bin.Op == token.ADD && bin.X == base:
		return constInt(bin.Y)
	case bin.Op == token.ADD && bin.Y == base:
		return constInt(bin.X)
	case bin.Op == token.SUB && bin.X == base:
		if c := constInt(bin.Y); c != nil {
			return c.Neg(c)
		}
	}
	return nil
}

// constInt is the value of an integer constant, or nil.
func constInt(v ssa.Value) *big.Int {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return nil
	}
	n, ok := new(big.Int).SetString(c.Value.ExactString(), 10)
	if !ok {
		return nil
	}
	return n
}

// inRange reports whether v is a value of integer type t.
func inRange(v *big.Int, t *types.Basic) bool {
	bits := uint(sizes.Sizeof(t) * 8)
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), bits)
	if t.Info()&types.IsUnsigned == 0 {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	return v.Cmp(lo) >= 0 && v.Cmp(hi) < 0
}
