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
// where the range prover shows their indices non-negative, and checks on
// the main path at offsets of uniform values from each other by their
// smallest and largest index (shrinkGroups); VersionChecksExact does
// without.
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

// versionRegion versions the region after h's branch in three steps:
// planRegionVersion finds the region (regionWalk) and decides whether it
// is copied; regionTest builds the test of its checks at the end of h;
// splitBranch, copyWithoutChecks and joinCopies give h a branch between
// the region and a copy without checks, joined at the exit.
func versionRegion(f *Func, h *Block, done map[*Block]bool, ranges bool) bool {
	v, ok := planRegionVersion(h)
	if !ok {
		return false
	}
	for _, b := range v.region {
		done[b] = true
	}
	done[h] = true
	test := v.regionTest(f, ranges)
	slow := v.splitBranch(f)
	cp := v.copyWithoutChecks(f, slow)
	h.Term, h.Cond, h.Succs = TermBranch, test, []*Block{cp.bm[slow], slow}
	if len(cp.exits) > 0 && sameBlocks(cp.exits) && cp.exits[0] == v.exit {
		// The region, its copy, h and the traps of the region's checks
		// keep their uses.
		joinCopies(f, v.exit, v.in, cp.vm,
			func(q *Block) bool { return cp.fast[q] },
			func(b *Block) bool {
				return v.in[b] || cp.fast[b] || b == h || b.Term == TermTrap && len(b.Preds) == 1 && v.in[b.Preds[0]]
			})
	}
	return true
}

// regionVersion is what versionRegion decided: the region after h, its
// checks and the block after it.
type regionVersion struct {
	regionWalk
	exit *Block
}

// planRegionVersion finds the region after h and decides whether it is
// copied: it must make two checks or more, and only the region may enter
// the block after it, where one phi per value joins the two copies (not
// so at a loop header, whose latch would see the phi).
func planRegionVersion(h *Block) (regionVersion, bool) {
	w := regionWalk{h: h, in: map[*Block]bool{}}
	exit, ok := w.walk()
	if !ok || len(w.conds) < 2 || exit == h || w.in[exit] || exit.Term == TermTrap {
		return regionVersion{}, false
	}
	for _, p := range exit.Preds {
		if p != h && !w.in[p] {
			return regionVersion{}, false
		}
	}
	return regionVersion{regionWalk: w, exit: exit}, true
}

// regionWalk grows a region from the branch ending h along the main path.
type regionWalk struct {
	h      *Block
	in     map[*Block]bool // the region's blocks (h aside)
	region []*Block        // in order: main path blocks and arms
	conds  []checkCond
}

// walk adds blocks to the region while their terminators are handled,
// and returns the exit E: the first block whose terminator is not, or
// the block after the last handled one when that block may not join (it
// has other predecessors, holds a barrier or traps). It reports false for
// a cycle, which is not straight-line code.
func (w *regionWalk) walk() (exit *Block, ok bool) {
	cur := w.h
	for steps := 0; steps < 64; steps++ {
		next, join, handled := w.add(cur)
		if !handled {
			return cur, true
		}
		if next == w.h || w.in[next] {
			return nil, false
		}
		cur = next
		if !join || firstBarrier(next) >= 0 || next.Term == TermTrap {
			break
		}
	}
	return cur, true
}

// add handles cur's terminator, a check, an `if` body or a jump: cur
// (unless h) and the arm of its `if` join the region, with their checks.
// It returns the block after cur and whether that block may join too, or
// handled false (cur is then no block of the region).
func (w *regionWalk) add(cur *Block) (next *Block, join, handled bool) {
	// cur's values (unless h's) are in the region while its conditions
	// are tested.
	if cur != w.h {
		w.in[cur] = true
	}
	var arm []*Block
	var conds []checkCond
	ok := true
	switch {
	case isCheck(cur):
		ok = w.hoistable(cur.Cond)
		conds = []checkCond{{nil, cur.Cond}}
		next = cur.Succs[0]
		join = len(next.Preds) == 1
	case cur.Term == TermBranch && len(cur.Succs) == 2:
		arm, conds, next, ok = w.ifBody(cur)
		join = true
	case cur.Term == TermJump && cur != w.h:
		next = cur.Succs[0]
		join = len(next.Preds) == 1
	default:
		ok = false
	}
	if !ok {
		// cur, and the arm blocks ifBody walked, leave the region again.
		delete(w.in, cur)
		for _, a := range arm {
			delete(w.in, a)
		}
		return nil, false, false
	}
	if cur != w.h {
		w.region = append(w.region, cur)
	}
	w.region = append(w.region, arm...)
	w.conds = append(w.conds, conds...)
	return next, join, true
}

// hoistable reports whether v can be computed at the end of h.
func (w *regionWalk) hoistable(v *Value) bool { return canHoist(v, w.in, map[*Value]bool{}) }

// ifBody matches an `if` body at cur: a branch on g whose true arm, entered
// from cur alone, is a chain of checks and jumps back to the false target
// j, which cur and the arm alone enter. It returns the arm, its checks
// (guarded by g) and j. It adds the arm's blocks to the region as it walks
// them (its checks' conditions may read their values), and returns those
// it added when cur ends no such body too, for the caller to take out.
func (w *regionWalk) ifBody(cur *Block) (arm []*Block, conds []checkCond, j *Block, ok bool) {
	a, j := cur.Succs[0], cur.Succs[1]
	if a == j || a == cur || j == cur || len(a.Preds) != 1 || len(j.Preds) != 2 || j.Term == TermTrap {
		return nil, nil, nil, false
	}
	for {
		if w.in[a] || a == w.h || len(a.Preds) != 1 || firstBarrier(a) >= 0 {
			return arm, nil, nil, false
		}
		w.in[a] = true
		arm = append(arm, a)
		if isCheck(a) {
			if !w.hoistable(a.Cond) {
				return arm, nil, nil, false
			}
			conds = append(conds, checkCond{cur.Cond, a.Cond})
			a = a.Succs[0]
			continue
		}
		if a.Term != TermJump {
			return arm, nil, nil, false
		}
		if a.Succs[0] == j {
			break
		}
		a = a.Succs[0]
	}
	last := arm[len(arm)-1]
	if !((j.Preds[0] == cur && j.Preds[1] == last) || (j.Preds[1] == cur && j.Preds[0] == last)) {
		return arm, nil, nil, false
	}
	if cur != w.h && !w.hoistable(cur.Cond) {
		return arm, nil, nil, false
	}
	return arm, conds, j, true
}

// regionTest computes, at the end of h from pure operations that cannot
// fault, the conjunction of every check's condition, a guarded one as
// !g || ok, or with ranges a test of uniform values that covers a
// guarded row-major access (guardrange.go).
func (v *regionVersion) regionTest(f *Func, ranges bool) *Value {
	h, in := v.h, v.in
	memo := map[*Value]*Value{}
	t := &conjunction{f: f, b: h}
	var p *prover
	bounds := map[[3]*Value]bool{} // the row-major bounds already tested
	var drop, keep map[*Value]bool
	if ranges {
		p = newProver(f, Dominators(f))
		drop, keep = v.shrinkGroups(f, p, t)
	}
	for _, c := range v.conds {
		if drop[c.ok] {
			continue
		}
		if c.guard != nil && ranges {
			// The uniform test is stronger than the check, which the slow
			// path still makes.
			if r, s, l, ok := rowMajorBound(p, h, c.guard, c.ok); ok {
				if !bounds[[3]*Value{r, s, l}] {
					bounds[[3]*Value{r, s, l}] = true
					t.and(rowMajorTest(f, h, hoistTo(f, h, r, in, memo), hoistTo(f, h, s, in, memo), l))
				}
				continue
			}
		}
		ok := hoistTo(f, h, c.ok, in, memo)
		if keep[c.ok] {
			launchFact(ok)
		}
		if c.guard != nil {
			g := hoistTo(f, h, c.guard, in, memo)
			ng := f.NewValue(h, OpNot, TBool, g)
			ok = f.NewValue(h, OpOr, TBool, ng, ok)
		}
		t.and(ok)
	}
	return t.all
}

// shrinkGroups reduces each group of the region's checks on the main
// path whose indices lie at offsets of uniform values from each other
// to the smallest and largest, as RangeChecks does for a combined test:
// it adds the tests of uniform values that make those two imply the
// rest to t and returns the checks they imply (drop) and the checks of
// the groups that stay (keep), which regionTest makes launch facts like
// CombineChecks' (a variant may prove them through the guards). The
// tests read only values computed before the region.
func (v *regionVersion) shrinkGroups(f *Func, p *prover, t *conjunction) (drop, keep map[*Value]bool) {
	var leaves []*Value
	for _, c := range v.conds {
		if c.guard == nil {
			leaves = append(leaves, c.ok)
		}
	}
	fs := &forms{memo: map[*Value]lform{}, atoms: map[string][]*Value{}, uniform: map[*Value]bool{}}
	drop, tests := shrinkGroups(p, fs, v.h, groupChecks(p, fs, v.h, leaves))
	if len(drop) == 0 {
		return nil, nil
	}
	for _, rt := range tests {
		for m := range rt.form.terms {
			for _, a := range fs.atoms[m] {
				if v.in[a.Block] {
					return nil, nil
				}
			}
		}
	}
	keep = map[*Value]bool{}
	for _, l := range leaves {
		keep[l] = !drop[l]
	}
	m := &materializer{f: f, b: v.h, fs: fs, mono: map[string]*Value{}}
	m.andTests(t, tests)
	return drop, keep
}

// splitBranch moves h's branch into a block of its own, the slow path's
// start, and returns it.
func (v *regionVersion) splitBranch(f *Func) *Block {
	h := v.h
	slow := f.NewBlock(h.Kind, h.Comment)
	slow.Term, slow.Cond, slow.Succs, slow.Preds = h.Term, h.Cond, h.Succs, []*Block{h}
	for _, s := range slow.Succs {
		for i, p := range s.Preds {
			if p == h {
				s.Preds[i] = slow
			}
		}
	}
	v.in[slow] = true
	return slow
}

// regionCopy is the copy of a region without its checks.
type regionCopy struct {
	bm    map[*Block]*Block // each block to its copy
	vm    map[*Value]*Value // each value to its copy
	fast  map[*Block]bool   // the copies
	exits []*Block          // the targets of the copy's edges out of the region
}

// copyWithoutChecks copies slow and the region, with each check a jump to
// its continuation; each block outside the region that the copy enters
// gains the copy's edge, and its phis the copies of their values.
func (v *regionVersion) copyWithoutChecks(f *Func, slow *Block) *regionCopy {
	set := append([]*Block{slow}, v.region...)
	cp := &regionCopy{fast: map[*Block]bool{}}
	cp.bm, cp.vm = cloneBlocks(f, set)
	mapV := func(x *Value) *Value { return mapped(cp.vm, x) }
	mapB := func(b *Block) *Block { return mapped(cp.bm, b) }
	for _, c := range cp.bm {
		cp.fast[c] = true
	}
	for _, b := range set {
		c := cp.bm[b]
		for _, p := range b.Preds {
			c.Preds = append(c.Preds, mapB(p))
		}
		if b == slow {
			c.Preds = []*Block{v.h}
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
			if v.in[s] || cp.fast[s] {
				continue
			}
			// An edge out of the region: s gains c as a predecessor.
			cp.exits = append(cp.exits, s)
			i := predIndex(s, b)
			s.Preds = append(s.Preds, c)
			for _, phi := range s.Phis() {
				phi.Args = append(phi.Args, mapV(phi.Args[i]))
			}
		}
	}
	return cp
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

// joinCopies joins the blocks in and their copy (vm maps each value to its
// copy) at e, where the two meet: each value of in used in a block that
// keep does not report gets a phi at e, whose argument from each
// predecessor of e is the value or, from those fromCopy reports, its
// copy, and those uses point at the phi.
func joinCopies(f *Func, e *Block, in map[*Block]bool, vm map[*Value]*Value, fromCopy, keep func(*Block) bool) {
	phis := map[*Value]*Value{}
	repl := func(x *Value) *Value {
		if x == nil || x.Block == nil || !in[x.Block] {
			return x
		}
		if p, ok := phis[x]; ok {
			return p
		}
		p := f.NewPhi(e, x.Type)
		for _, q := range e.Preds {
			if fromCopy(q) {
				p.Args = append(p.Args, vm[x])
			} else {
				p.Args = append(p.Args, x)
			}
		}
		phis[x] = p
		return p
	}
	for _, b := range f.Blocks {
		if !keep(b) {
			replaceBlockUses(b, b == e, repl)
		}
	}
}

// cloneBlocks copies blocks into new blocks of f, value for value, each
// copy's operands the copies of the original's (mapped), with the copies'
// successors and predecessors left for the caller, which knows where each
// copy leads. It returns the maps from each original block and value to
// its copy.
func cloneBlocks(f *Func, blocks []*Block) (map[*Block]*Block, map[*Value]*Value) {
	bm := map[*Block]*Block{}
	vm := map[*Value]*Value{}
	for _, b := range blocks {
		c := f.NewBlock(b.Kind, b.Comment)
		c.Unrolled = b.Unrolled
		bm[b] = c
		for _, v := range b.Values {
			nv := &Value{ID: f.nextID, Op: v.Op, Type: v.Type, Imm: v.Imm,
				Index: v.Index, NoFuse: v.NoFuse, Fact: v.Fact, Block: c, Pos: v.Pos}
			f.nextID++
			vm[v] = nv
			c.Values = append(c.Values, nv)
		}
	}
	for _, b := range blocks {
		for _, v := range b.Values {
			remapArgs(v, vm[v], vm)
		}
	}
	return bm, vm
}
