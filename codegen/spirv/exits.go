package spirv

import (
	"slices"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// singleExitLoops gives every loop of f at most one exit that goes on (an
// exit whose code joins other code; one that only runs to a return or a
// trap stays where it is, inside the loop's construct): what SPIR-V's
// OpLoopMerge asks for, one merge block per loop. A loop that leaves to
// several places (a labeled break or continue of an outer loop, a return
// of an inlined function, which jumps to the code after the call) gets a
// new merge block that every such exit branches to, with a phi "exit
// code" saying which exit was taken and phis for what the exits carried,
// and after it a chain of branches on the exit code to the old targets.
// Loops are rerouted innermost first, so an exit that leaves several
// loops at once is passed outwards one loop at a time (the chain after an
// inner loop's merge is an exit of the next loop out). Values defined in
// the loop and used after an exit no longer dominate their uses
// afterwards: repairSSA mends them.
func singleExitLoops(f *kir.Func) {
	for range len(f.Blocks) + 1 {
		loops, _, _, _ := analyze(f)
		var pick *kir.Loop
		var targets []*kir.Block
		for _, l := range loops {
			ts := liveExits(f, l)
			if len(ts) > 1 && (pick == nil || len(l.Blocks) < len(pick.Blocks)) {
				pick, targets = l, ts
			}
		}
		if pick == nil {
			return
		}
		routeEdges(f, pick.Blocks, targets, kir.BlockLoopDone, "loop.exits")
	}
}

// liveExits lists, in block order, the blocks outside loop l that it
// branches to and whose code does not just die (diesAlone).
func liveExits(f *kir.Func, l *kir.Loop) []*kir.Block {
	var out []*kir.Block
	for _, x := range f.Blocks {
		if !l.Blocks[x] {
			continue
		}
		for _, t := range x.Succs {
			if !l.Blocks[t] && !slices.Contains(out, t) && !diesAlone(l, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// routeEdges sends every edge from the blocks of region to one of
// targets (blocks outside it) through a new block of the kind and comment
// given, which joins them with a phi saying which target each edge went
// to and phis for what the edges carried, and a dispatch on that code
// after it: one loop exit (the loop's blocks to its live exits), or one
// continuation of a branch (the branch's region to the places it goes on
// to, dispatchMerge).
func routeEdges(f *kir.Func, region map[*kir.Block]bool, targets []*kir.Block, kind kir.BlockKind, comment string) {
	entry := f.Blocks[0]
	consts := map[int]*kir.Value{}
	code := func(i int) *kir.Value {
		if consts[i] == nil {
			c := f.NewValue(entry, kir.OpConst, kir.TI32)
			c.Imm = uint64(i)
			consts[i] = c
		}
		return consts[i]
	}
	index := func(t *kir.Block) int { return slices.Index(targets, t) }
	m := f.NewBlock(kind, comment)
	sel := f.NewPhi(m, kir.TI32)
	// The targets' phis get a phi of their own in m: the value the exit
	// taken carried (any value of the type on the other exits, where the
	// dispatch does not go to that target).
	type phiMove struct{ old, inM *kir.Value }
	var moves [][]phiMove
	for _, t := range targets {
		var ms []phiMove
		for _, phi := range t.Phis() {
			ms = append(ms, phiMove{phi, f.NewPhi(m, phi.Type)})
		}
		moves = append(moves, ms)
	}
	for _, x := range f.Blocks {
		if !region[x] {
			continue
		}
		var out []int // x.Succs indices that exit to a target
		for i, t := range x.Succs {
			if !region[t] && index(t) >= 0 {
				out = append(out, i)
			}
		}
		if len(out) == 0 {
			continue
		}
		// The exit code on x's edge to m.
		var c *kir.Value
		if len(out) == 2 && x.Succs[0] != x.Succs[1] {
			c = f.NewValue(x, kir.OpSelect, kir.TI32, x.Cond, code(index(x.Succs[0])), code(index(x.Succs[1])))
		} else {
			c = code(index(x.Succs[out[0]]))
		}
		sel.Args = append(sel.Args, c)
		for ti, t := range targets {
			pi := slices.Index(t.Preds, x)
			for _, mv := range moves[ti] {
				if pi >= 0 {
					mv.inM.Args = append(mv.inM.Args, mv.old.Args[pi])
				} else {
					mv.inM.Args = append(mv.inM.Args, kirZero(f, mv.old.Type))
				}
			}
		}
		// x's exits now go to m; the targets lose x as a predecessor.
		for _, i := range out {
			t := x.Succs[i]
			removePred(t, x)
			x.Succs[i] = m
		}
		m.Preds = append(m.Preds, x)
		if x.Term == kir.TermBranch && x.Succs[0] == x.Succs[1] {
			x.Term, x.Cond, x.Succs = kir.TermJump, nil, x.Succs[:1]
		}
	}
	// The dispatch: m tests for the first target, the next block for the
	// second, ...; the last target is what is left.
	d := m
	for ti := 0; ti < len(targets)-1; ti++ {
		els := targets[ti+1]
		if ti < len(targets)-2 {
			els = f.NewBlock(kir.BlockPlain, comment+".dispatch")
		}
		d.Branch(f.NewValue(d, kir.OpEq, kir.TBool, sel, code(ti)), targets[ti], els)
		for _, mv := range moves[ti] {
			mv.old.Args = append(mv.old.Args, mv.inM)
		}
		if els == targets[ti+1] {
			for _, mv := range moves[ti+1] {
				mv.old.Args = append(mv.old.Args, mv.inM)
			}
		}
		d = els
	}
}

// removePred removes every edge from x out of t's predecessors, with its
// phi arguments.
func removePred(t, x *kir.Block) {
	phis := t.Phis()
	for i := len(t.Preds) - 1; i >= 0; i-- {
		if t.Preds[i] != x {
			continue
		}
		t.Preds = slices.Delete(t.Preds, i, i+1)
		for _, phi := range phis {
			phi.Args = slices.Delete(phi.Args, i, i+1)
		}
	}
}

// kirZero returns a new zero of type t in f's entry block: the value a phi
// takes on a path where what it merges was never computed (no use
// reads it there).
func kirZero(f *kir.Func, t kir.Type) *kir.Value {
	return f.NewValue(f.Blocks[0], kir.OpConst, t)
}

// repairSSA puts phis where rerouting edges left a value used in a block
// its definition no longer dominates: the classic SSA construction for
// that one value (phis on the iterated dominance frontier of its block,
// each use reading the nearest definition above it in the dominator tree),
// with a zero on the paths that never computed it, where the original
// program did not use it either.
func repairSSA(f *kir.Func) {
	dom := kir.Dominators(f)
	reachable := func(b *kir.Block) bool { return dom.Idom(b) != nil }
	broken := func(v *kir.Value, use *kir.Block) bool {
		return v != nil && reachable(use) && !dom.Dominates(v.Block, use)
	}
	var bad []*kir.Value
	seen := map[*kir.Value]bool{}
	note := func(v *kir.Value) {
		if !seen[v] {
			seen[v] = true
			bad = append(bad, v)
		}
	}
	for _, b := range f.Blocks {
		for _, u := range b.Values {
			for i, a := range u.Args {
				if u.Op == kir.OpPhi {
					if broken(a, b.Preds[i]) {
						note(a)
					}
				} else if a.Block != b && broken(a, b) {
					note(a)
				}
			}
		}
		for _, a := range []*kir.Value{b.Cond, b.Trap.Args[0], b.Trap.Args[1]} {
			if a != nil && a.Block != b && broken(a, b) {
				note(a)
			}
		}
	}
	if len(bad) == 0 {
		return
	}
	df := dominanceFrontiers(f, dom)
	for _, v := range bad {
		rename(f, dom, df, map[*kir.Block]*kir.Value{v.Block: v}, v.Type)
	}
}

// dominanceFrontiers returns each block's dominance frontier, by index
// (Cooper, Harvey and Kennedy).
func dominanceFrontiers(f *kir.Func, dom *kir.DomTree) [][]*kir.Block {
	reachable := func(b *kir.Block) bool { return dom.Idom(b) != nil }
	df := make([][]*kir.Block, len(f.Blocks))
	for _, b := range f.Blocks {
		if len(b.Preds) < 2 || !reachable(b) {
			continue
		}
		for _, p := range b.Preds {
			for r := p; reachable(r) && r != dom.Idom(b); r = dom.Idom(r) {
				if !slices.Contains(df[r.Index], b) {
					df[r.Index] = append(df[r.Index], b)
				}
				if r == dom.Idom(r) {
					break
				}
			}
		}
	}
	return df
}

// rename makes the definitions defs (one per block: the value a variable
// has at the end of that block) reach their uses: phis on the iterated
// dominance frontier of their blocks, and every use of one of them outside
// its own block reading the nearest definition above it in the dominator
// tree (a zero of type t where none is: a path on which the original
// program did not use the value).
func rename(f *kir.Func, dom *kir.DomTree, df [][]*kir.Block, defs map[*kir.Block]*kir.Value, t kir.Type) {
	reachable := func(b *kir.Block) bool { return dom.Idom(b) != nil }
	isDef := map[*kir.Value]bool{}
	var work []*kir.Block
	for b, v := range defs {
		isDef[v] = true
		work = append(work, b)
	}
	slices.SortFunc(work, func(a, b *kir.Block) int { return a.Index - b.Index })
	phis := map[*kir.Block]*kir.Value{}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, y := range df[x.Index] {
			if phis[y] == nil && defs[y] == nil {
				phis[y] = f.NewPhi(y, t)
				work = append(work, y)
			}
		}
	}
	entry := f.Blocks[0]
	var zero *kir.Value
	memo := map[*kir.Block]*kir.Value{}
	// atEnd is the definition that reaches the end of block b.
	atEnd := func(b *kir.Block) *kir.Value {
		var path []*kir.Block
		var r *kir.Value
		for x := b; ; x = dom.Idom(x) {
			if got, ok := memo[x]; ok {
				r = got
				break
			}
			path = append(path, x)
			if d := defs[x]; d != nil {
				r = d
				break
			}
			if phi := phis[x]; phi != nil {
				r = phi
				break
			}
			if x == entry || !reachable(x) {
				if zero == nil {
					zero = kirZero(f, t)
				}
				r = zero
				break
			}
		}
		for _, x := range path {
			memo[x] = r
		}
		return r
	}
	// atStart is the definition that reaches the start of block b.
	atStart := func(b *kir.Block) *kir.Value {
		if phi := phis[b]; phi != nil {
			return phi
		}
		if b == entry || !reachable(b) {
			return atEnd(entry) // not reached: any value of the type
		}
		return atEnd(dom.Idom(b))
	}
	for y, phi := range phis {
		for _, p := range y.Preds {
			phi.Args = append(phi.Args, atEnd(p))
		}
	}
	for _, b := range f.Blocks {
		for _, u := range b.Values {
			if phis[b] == u {
				continue
			}
			for i, a := range u.Args {
				if !isDef[a] {
					continue
				}
				if u.Op == kir.OpPhi {
					u.Args[i] = atEnd(b.Preds[i])
				} else if a.Block != b {
					u.Args[i] = atStart(b)
				}
			}
		}
		if b.Cond != nil && isDef[b.Cond] && b.Cond.Block != b {
			b.Cond = atStart(b)
		}
		for i, a := range b.Trap.Args {
			if a != nil && isDef[a] && a.Block != b {
				b.Trap.Args[i] = atStart(b)
			}
		}
	}
}

// duplicateFor gives pred x a copy of block t of its own (tail
// duplication): where the arms of a branch join at a block and go on from
// it to different places (a switch case that falls through into one that
// continues the loop), the copy makes each arm's code its own. Values of
// t used after it get phis joining them with their copies.
func duplicateFor(f *kir.Func, t, x *kir.Block) {
	t2 := f.NewBlock(t.Kind, t.Comment)
	vm := map[*kir.Value]*kir.Value{}
	for _, phi := range t.Phis() {
		np := f.NewPhi(t2, phi.Type)
		for i, pr := range t.Preds {
			if pr == x {
				np.Args = append(np.Args, phi.Args[i])
			}
		}
		vm[phi] = np
	}
	var copies []*kir.Value
	for _, v := range t.Values[len(t.Phis()):] {
		nv := f.NewValue(t2, v.Op, v.Type)
		nv.Imm, nv.Index, nv.NoFuse, nv.Pos = v.Imm, v.Index, v.NoFuse, v.Pos
		vm[v] = nv
		copies = append(copies, v)
	}
	mapv := func(v *kir.Value) *kir.Value {
		if nv, ok := vm[v]; ok {
			return nv
		}
		return v
	}
	for _, v := range copies {
		for _, a := range v.Args {
			vm[v].Args = append(vm[v].Args, mapv(a))
		}
	}
	t2.Term = t.Term
	if t.Cond != nil {
		t2.Cond = mapv(t.Cond)
	}
	t2.Trap = t.Trap
	for i, a := range t.Trap.Args {
		if a != nil {
			t2.Trap.Args[i] = mapv(a)
		}
	}
	for _, s := range t.Succs {
		ti := slices.Index(s.Preds, t)
		t2.Succs = append(t2.Succs, s)
		s.Preds = append(s.Preds, t2)
		for _, phi := range s.Phis() {
			phi.Args = append(phi.Args, mapv(phi.Args[ti]))
		}
	}
	phis := t.Phis()
	removePred(t, x)
	for i, s := range x.Succs {
		if s == t {
			x.Succs[i] = t2
			t2.Preds = append(t2.Preds, x)
		}
	}
	// What t defined and is used elsewhere now has a second definition
	// in t2.
	escapes := map[*kir.Value]bool{}
	use := func(a *kir.Value, in *kir.Block) {
		if a != nil && a.Block == t && in != t {
			escapes[a] = true
		}
	}
	for _, b := range f.Blocks {
		for _, u := range b.Values {
			for _, a := range u.Args {
				use(a, b)
			}
		}
		use(b.Cond, b)
		use(b.Trap.Args[0], b)
		use(b.Trap.Args[1], b)
	}
	dom := kir.Dominators(f)
	df := dominanceFrontiers(f, dom)
	for _, v := range append(slices.Clone(phis), copies...) {
		if escapes[v] {
			rename(f, dom, df, map[*kir.Block]*kir.Value{t: v, t2: vm[v]}, v.Type)
		}
	}
}

// splitReturns gives each predecessor of a block that only returns a
// return block of its own. The lowering shares one return block between
// the returns of a kernel; SPIR-V asks that a branch out of a selection
// go only to its merge, and a return block of its own lies inside the
// construct of the branch that reaches it.
func splitReturns(f *kir.Func) {
	for _, b := range slices.Clone(f.Blocks) {
		if b.Term != kir.TermReturn || len(b.Values) > 0 || len(b.Preds) < 2 {
			continue
		}
		preds := b.Preds
		b.Preds = nil
		for i, pr := range preds {
			if slices.Index(preds, pr) != i {
				continue // a second edge from pr, moved with its first
			}
			if i == 0 {
				for _, s := range pr.Succs {
					if s == b {
						b.Preds = append(b.Preds, pr)
					}
				}
				continue
			}
			r := f.NewBlock(b.Kind, b.Comment)
			r.Term = kir.TermReturn
			for i, s := range pr.Succs {
				if s == b {
					pr.Succs[i] = r
					r.Preds = append(r.Preds, pr)
				}
			}
		}
	}
}
