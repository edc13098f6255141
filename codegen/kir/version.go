package kir

// VersionChecks gives a straight-line region holding several bounds
// checks, some of them inside `if` bodies, a second copy without the
// checks, entered when all of them hold. A check inside an `if` body is
// a branch in that body, so the assembler cannot predicate the body, and
// each guarded load waits for the store before it (a tiled transpose's
// four row copies run one memory latency each). The copy without checks
// is a run of plain `if` bodies that the assembler if-converts and
// schedules together, as it does nvcc's.
//
// The region starts at the branch ending a block H and follows the main
// path: blocks ending in a check or a jump, and `if` bodies (a branch on
// g whose true arm is a chain of checks and jumps back to the false
// target). At the end of H the pass computes, from pure operations that
// cannot fault (no load, no integer division), the conjunction of every
// check's condition, a guarded one as !g || ok; when it holds, the copy
// runs, which is exact: none of its checks could have failed. Otherwise
// the original region runs and traps at the first failing check with
// every effect before it done, as Go says. A region ends before a block
// holding a barrier (two copies of a barrier are two barriers) and before
// a check whose condition needs a load; it is copied only when the block
// after it is entered from the region alone (not a loop header), where
// one phi per value joins the two copies. It returns how many regions it
// copied.
//
// Guarded row-major accesses are covered by one test of uniform values
// where the range prover shows their indices non-negative (guardrange.go);
// VersionChecksExact does without.
func VersionChecks(f *Func) int { return versionChecks(f, true) }

// VersionChecksExact is VersionChecks without the tests that rest on value
// ranges (what OptOptions.KeepBoundsChecks runs).
func VersionChecksExact(f *Func) int { return versionChecks(f, false) }

func versionChecks(f *Func, ranges bool) int {
	n := 0
	done := map[*Block]bool{}
	for _, h := range ReversePostorder(f) {
		if done[h] || h.Term != TermBranch || len(h.Succs) != 2 {
			continue
		}
		if versionRegion(f, h, done, ranges) {
			n++
		}
	}
	if n > 0 {
		RemoveUnreachable(f)
	}
	return n
}

// checkCond is one check of a region: ok must hold when guard (nil: the
// check is on the main path) does.
type checkCond struct{ guard, ok *Value }

func versionRegion(f *Func, h *Block, done map[*Block]bool, ranges bool) bool {
	in := map[*Block]bool{}
	var region []*Block // in order: main path blocks and arms
	var conds []checkCond
	hoistable := func(v *Value) bool { return canHoist(v, in, map[*Value]bool{}) }
	cur := h
	var add []*Block
	for steps := 0; steps < 64; steps++ {
		var next *Block
		join := false // whether next may join the region
		var add2 []checkCond
		add = nil
		// cur's values (unless h's) are in the region while its
		// conditions are tested; a failure takes them out again at end.
		if cur != h {
			in[cur] = true
		}
		switch {
		case isCheck(cur):
			if !hoistable(cur.Cond) {
				goto end
			}
			add2 = append(add2, checkCond{nil, cur.Cond})
			next = cur.Succs[0]
			join = len(next.Preds) == 1
		case cur.Term == TermBranch && len(cur.Succs) == 2:
			arm, j := cur.Succs[0], cur.Succs[1]
			if arm == j || arm == cur || j == cur || len(arm.Preds) != 1 || len(j.Preds) != 2 || j.Term == TermTrap {
				goto end
			}
			a := arm
			for {
				if in[a] || a == h || len(a.Preds) != 1 || hasBarrier(a) {
					goto end
				}
				in[a] = true
				add = append(add, a)
				if isCheck(a) {
					if !hoistable(a.Cond) {
						goto end
					}
					add2 = append(add2, checkCond{cur.Cond, a.Cond})
					a = a.Succs[0]
					continue
				}
				if a.Term == TermJump {
					if a.Succs[0] == j {
						break
					}
					a = a.Succs[0]
					continue
				}
				goto end
			}
			last := add[len(add)-1]
			if !((j.Preds[0] == cur && j.Preds[1] == last) || (j.Preds[1] == cur && j.Preds[0] == last)) {
				goto end
			}
			if cur != h && !hoistable(cur.Cond) {
				goto end
			}
			next, join = j, true
		case cur.Term == TermJump && cur != h:
			next = cur.Succs[0]
			join = len(next.Preds) == 1
		default:
			goto end
		}
		// cur's terminator is handled: cur (unless h) and its arm join.
		if cur != h {
			region = append(region, cur)
		}
		region = append(region, add...)
		add = nil
		conds = append(conds, add2...)
		if next == h || in[next] {
			return false // a cycle: not straight-line code
		}
		if !join || hasBarrier(next) || next.Term == TermTrap {
			cur = next
			break
		}
		cur = next
	}
end:
	// cur is the exit E: the first block whose terminator is not handled
	// (or nil when the region ends in an edge to a block with other
	// predecessors; then E is the successor of the last handled block).
	for _, a := range add {
		delete(in, a)
	}
	if cur != nil && cur != h && (len(region) == 0 || region[len(region)-1] != cur) {
		delete(in, cur)
	}
	exit := cur
	if len(conds) < 2 || exit == nil || exit == h || in[exit] || exit.Term == TermTrap {
		return false
	}
	// A value of the region used after it needs a phi at the exit, which
	// is right only when every way into the exit comes from the region
	// (not so at a loop header, whose latch would see the phi).
	for _, p := range exit.Preds {
		if p != h && !in[p] {
			return false
		}
	}
	for _, b := range region {
		done[b] = true
	}
	done[h] = true

	// The test at the end of h.
	memo := map[*Value]*Value{}
	var all *Value
	var p *prover
	bounds := map[[3]*Value]bool{} // the row-major bounds already tested
	for _, c := range conds {
		if c.guard != nil && ranges {
			// A guarded row-major access may be covered by a test of
			// uniform values (guardrange.go): stronger than the check,
			// which the slow path still makes.
			if p == nil {
				p = &prover{f: f, dom: Dominators(f), memo: map[rangeKey]interval{}, busy: map[rangeKey]bool{}}
			}
			if r, s, l, ok := rowMajorBound(p, h, c.guard, c.ok); ok {
				if !bounds[[3]*Value{r, s, l}] {
					bounds[[3]*Value{r, s, l}] = true
					t := rowMajorTest(f, h, hoistTo(f, h, r, in, memo), hoistTo(f, h, s, in, memo), l)
					if all == nil {
						all = t
					} else {
						all = f.NewValue(h, OpAnd, TBool, all, t)
					}
				}
				continue
			}
		}
		t := hoistTo(f, h, c.ok, in, memo)
		if c.guard != nil {
			g := hoistTo(f, h, c.guard, in, memo)
			ng := f.NewValue(h, OpNot, TBool, g)
			t = f.NewValue(h, OpOr, TBool, ng, t)
		}
		if all == nil {
			all = t
		} else {
			all = f.NewValue(h, OpAnd, TBool, all, t)
		}
	}

	// h's branch moves into a block of its own, the slow path's start.
	slow := f.NewBlock(h.Kind, h.Comment)
	slow.Term, slow.Cond, slow.Succs, slow.Preds = h.Term, h.Cond, h.Succs, []*Block{h}
	for _, s := range slow.Succs {
		for i, p := range s.Preds {
			if p == h {
				s.Preds[i] = slow
			}
		}
	}
	in[slow] = true
	set := append([]*Block{slow}, region...)

	// The copy without checks.
	bm, vm := cloneBlocks(f, set)
	mapV := func(v *Value) *Value { return mapped(vm, v) }
	mapB := func(b *Block) *Block { return mapped(bm, b) }
	fast := map[*Block]bool{}
	for _, c := range bm {
		fast[c] = true
	}
	var exits []*Block
	for _, b := range set {
		c := bm[b]
		for _, v := range c.Values {
			for i, a := range v.Args {
				v.Args[i] = mapV(a)
			}
		}
		for _, p := range b.Preds {
			c.Preds = append(c.Preds, mapB(p))
		}
		if b == slow {
			c.Preds = []*Block{h}
		}
		if isCheck(b) {
			c.Term, c.Succs = TermJump, []*Block{mapB(b.Succs[0])}
		} else {
			c.Term, c.Cond, c.Trap = b.Term, mapV(b.Cond), b.Trap
			for _, s := range b.Succs {
				c.Succs = append(c.Succs, mapB(s))
			}
		}
		for _, s := range c.Succs {
			if in[s] || fast[s] {
				continue
			}
			// An edge out of the region: s gains c as a predecessor.
			exits = append(exits, s)
			i := predIndex(s, b)
			s.Preds = append(s.Preds, c)
			for _, phi := range s.Phis() {
				phi.Args = append(phi.Args, mapV(phi.Args[i]))
			}
		}
	}
	h.Term, h.Cond, h.Succs = TermBranch, all, []*Block{bm[slow], slow}

	// Values of the region used after it now have two definitions: a phi
	// at the exit joins them.
	if len(exits) > 0 && sameBlocks(exits) && exits[0] == exit {
		e := exit
		phis := map[*Value]*Value{}
		repl := func(v *Value) *Value {
			if v == nil || v.Block == nil || !in[v.Block] {
				return v
			}
			if p, ok := phis[v]; ok {
				return p
			}
			p := f.NewPhi(e, v.Type)
			for _, q := range e.Preds {
				if fast[q] {
					p.Args = append(p.Args, vm[v])
				} else {
					p.Args = append(p.Args, v)
				}
			}
			phis[v] = p
			return p
		}
		for _, b := range f.Blocks {
			if in[b] || fast[b] || b == h || b.Term == TermTrap && len(b.Preds) == 1 && in[b.Preds[0]] {
				continue
			}
			replaceBlockUses(b, b == e, repl)
		}
	}
	return true
}


func sameBlocks(bs []*Block) bool {
	for _, b := range bs {
		if b != bs[0] {
			return false
		}
	}
	return true
}

func predIndex(s, p *Block) int {
	for i, q := range s.Preds {
		if q == p {
			return i
		}
	}
	return -1
}

func hasBarrier(b *Block) bool {
	for _, v := range b.Values {
		if v.Op == OpBarrier {
			return true
		}
	}
	return false
}

// canHoist reports whether v can be computed at the end of the block
// before the region in: defined outside it, or a pure operation that
// cannot fault on operands that can.
func canHoist(v *Value, in map[*Block]bool, seen map[*Value]bool) bool {
	work := []*Value{v}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if v == nil || !in[v.Block] || seen[v] {
			continue
		}
		seen[v] = true
		switch {
		case v.Op == OpPhi || v.Op == OpLoad || v.Op == OpLocal || !pure(v):
			return false
		case (v.Op == OpDiv || v.Op == OpRem) && !v.Type.Kind.IsFloat():
			return false
		}
		work = append(work, v.Args...)
	}
	return true
}

// hoistTo returns v computed at the end of h: v itself when defined
// outside the region, else a copy (canHoist has said it can be).
func hoistTo(f *Func, h *Block, v *Value, in map[*Block]bool, memo map[*Value]*Value) *Value {
	if v == nil || !in[v.Block] {
		return v
	}
	// Copies operands before their users, in the order the recursive
	// definition would, with its own stack (chains are as long as the
	// loop body).
	type frame struct {
		v *Value
		i int // next operand to copy
	}
	stack := []frame{{v: v}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if _, ok := memo[top.v]; ok {
			stack = stack[:len(stack)-1]
			continue
		}
		if top.i < len(top.v.Args) {
			a := top.v.Args[top.i]
			top.i++
			if a != nil && in[a.Block] {
				if _, ok := memo[a]; !ok {
					stack = append(stack, frame{v: a})
				}
			}
			continue
		}
		u := top.v
		stack = stack[:len(stack)-1]
		args := make([]*Value, len(u.Args))
		for i, a := range u.Args {
			args[i] = a
			if a != nil && in[a.Block] {
				args[i] = memo[a]
			}
		}
		nv := f.NewValue(h, u.Op, u.Type, args...)
		nv.Imm, nv.Index, nv.NoFuse, nv.Pos = u.Imm, u.Index, u.NoFuse, u.Pos
		memo[u] = nv
	}
	return memo[v]
}

// cloneBlocks copies blocks into new blocks of f, value for value, with
// the copies' arguments, successors and predecessors still naming the
// originals: the caller remaps them once it knows where each copy leads.
// It returns the maps from each original block and value to its copy.
func cloneBlocks(f *Func, blocks []*Block) (map[*Block]*Block, map[*Value]*Value) {
	bm := map[*Block]*Block{}
	vm := map[*Value]*Value{}
	for _, b := range blocks {
		c := f.NewBlock(b.Kind, b.Comment)
		bm[b] = c
		for _, v := range b.Values {
			nv := &Value{ID: f.nextID, Op: v.Op, Type: v.Type, Args: append([]*Value(nil), v.Args...), Imm: v.Imm,
				Index: v.Index, NoFuse: v.NoFuse, Fact: v.Fact, Block: c, Pos: v.Pos}
			f.nextID++
			vm[v] = nv
			c.Values = append(c.Values, nv)
		}
	}
	return bm, vm
}
