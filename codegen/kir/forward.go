package kir

// ForwardStores replaces a load that reads back what the thread itself
// just stored by the stored value. A reduction into an element, PolyBench's
// `for j := 0; j < n; j++ { tmp[i] += a[i*n+j] * x[j] }`, otherwise
// reloads tmp[i] in every iteration after storing it, and since the
// assembler keeps that load after the store, every iteration, and every
// copy of an unrolled one, waits a memory latency for a value the thread
// has in a register; nvcc forwards it.
//
// Two cases, both exact for a thread's own memory operations (another
// thread writing the element between them would be a data race):
//
//   - In one block, a load of the address a store wrote, with no store,
//     atomic or barrier between them, reads the stored value.
//   - Across a loop's back edge (forwardAcrossLatch): a load of a
//     loop-invariant address that every iteration makes before any
//     write, in a loop whose only writes are stores to that address with
//     the last of them in the latch, reads in each iteration after the
//     first what the previous one stored last; the first iteration's value
//     is loaded once before the loop, where the loop's test says the first
//     iteration runs, so the load runs exactly when it ran before.
//
// Stores stay: other threads read them after a barrier, and the host after
// the launch. It returns how many loads it replaced.
func ForwardStores(f *Func) int {
	n := 0
	for _, l := range innermostLoops(NaturalLoops(f, Dominators(f))) {
		if forwardAcrossLatch(f, l) {
			n++
		}
	}
	repl := forwarding{}
	for _, b := range f.Blocks {
		n += forwardInBlock(b, repl)
	}
	if n > 0 {
		replaceUses(f, repl.find)
		RemoveDead(f)
	}
	return n
}

// writes says whether v may change memory another load reads.
func writes(v *Value) bool {
	return v.Op == OpStore || v.Op == OpAtomic || v.Op == OpBarrier
}

// forwardInBlock records in repl, for each load of b that follows a store
// to its address with no write between them, the stored value.
func forwardInBlock(b *Block, repl forwarding) int {
	n := 0
	var last *Value // the last write so far in b
	for _, v := range b.Values {
		switch {
		case v.Op == OpLoad && last != nil && last.Op == OpStore && last.Args[0] == v.Args[0] && last.Args[1].Type == v.Type:
			repl[v] = last.Args[1]
			n++
		case writes(v):
			last = v
		}
	}
	return n
}

// forwardAcrossLatch forwards, in innermost loop l, the stored value of an address
// from one iteration to the next (ForwardStores).
func forwardAcrossLatch(f *Func, l *Loop) bool {
	h := l.Header
	if len(l.Latches) != 1 || len(h.Preds) != 2 || h.Term != TermBranch || h.Cond == nil || h.Cond.Block != h {
		return false
	}
	latch := l.Latches[0]
	pi := 0
	if h.Preds[0] == latch {
		pi = 1
	}
	pre := h.Preds[pi]
	if l.Blocks[pre] || h.Preds[1-pi] != latch {
		return false
	}
	entry := h.Succs[0] // the first block of an iteration's body
	bodyIfTrue := true
	if !l.Blocks[entry] {
		entry, bodyIfTrue = h.Succs[1], false
	}
	if entry == h || !l.Blocks[entry] || len(entry.Preds) != 1 {
		return false
	}
	for _, v := range h.Values {
		if !pure(v) {
			return false // loadFirst copies the header's values
		}
	}
	// The only writes of the loop: stores to one address.
	var addr *Value
	for b := range l.Blocks {
		for _, v := range b.Values {
			if v.Op == OpAtomic || v.Op == OpBarrier {
				return false
			}
			if v.Op == OpStore {
				if addr != nil && v.Args[0] != addr {
					return false
				}
				addr = v.Args[0]
			}
		}
	}
	if addr == nil || !invariantIn(l, addr, 0) {
		return false
	}
	// The last write of the latch stores the value the next iteration reads.
	var last *Value
	for _, v := range latch.Values {
		if v.Op == OpStore {
			last = v
		}
	}
	if last == nil {
		return false
	}
	// The load: in the header or the body's first block, before any write.
	var load *Value
	for _, b := range []*Block{h, entry} {
		for _, v := range b.Values {
			if load == nil && v.Op == OpLoad && v.Args[0] == addr && v.Type == last.Args[1].Type {
				load = v
			}
			if writes(v) && load == nil {
				return false
			}
		}
	}
	if load == nil {
		return false
	}
	first := loadFirst(f, l, pre, pi, load, bodyIfTrue)
	cur := f.NewPhi(h, load.Type)
	cur.Args = make([]*Value, 2)
	cur.Args[pi], cur.Args[1-pi] = first, last.Args[1]
	replaceUses(f, forwarding{load: cur}.find)
	return true
}

// loadFirst puts before the header h of loop l, entered from pre (h's
// pi-th predecessor), the load of the first iteration: a copy of h's test on
// the values the loop starts with, the load where it holds, and a join
// whose phi is the loaded value (or zero, unused, where the loop does not
// run), which it returns.
func loadFirst(f *Func, l *Loop, pre *Block, pi int, load *Value, bodyIfTrue bool) *Value {
	h := l.Header
	test := &Block{Kind: BlockPlain, Comment: h.Comment + " (first load)"}
	ld := &Block{Kind: BlockPlain, Comment: h.Comment + " (first load)"}
	join := &Block{Kind: BlockPlain, Comment: h.Comment + " (first load)"}
	m := map[*Value]*Value{}
	for _, phi := range h.Phis() {
		m[phi] = phi.Args[pi]
	}
	cloneNonPhis(f, h, test, m)
	v0 := f.NewValue(ld, OpLoad, load.Type, copyInvariant(f, ld, load.Args[0], l, map[*Value]*Value{}))
	v0.Pos = load.Pos
	zero := f.NewConst(test, load.Type, 0)
	phi := f.NewPhi(join, load.Type)
	// pre → test → (ld →) join → h.
	for i, s := range pre.Succs {
		if s == h {
			pre.Succs[i] = test
		}
	}
	test.Preds = []*Block{pre}
	test.Term, test.Cond = TermBranch, m[h.Cond]
	if bodyIfTrue {
		test.Succs = []*Block{ld, join}
		join.Preds = []*Block{ld, test}
		phi.Args = []*Value{v0, zero}
	} else {
		test.Succs = []*Block{join, ld}
		join.Preds = []*Block{test, ld}
		phi.Args = []*Value{zero, v0}
	}
	ld.Preds, ld.Term, ld.Succs = []*Block{test}, TermJump, []*Block{join}
	join.Term, join.Succs = TermJump, []*Block{h}
	h.Preds[pi] = join
	var blocks []*Block
	for _, b := range f.Blocks {
		if b == h {
			blocks = append(blocks, test, ld, join)
		}
		blocks = append(blocks, b)
	}
	for i, b := range blocks {
		b.Index = i
	}
	f.Blocks = blocks
	return phi
}

// copyInvariant returns v (invariant in l, invariantIn) for use in block b outside l:
// v itself when defined outside l, else a copy in b of its computation.
func copyInvariant(f *Func, b *Block, v *Value, l *Loop, m map[*Value]*Value) *Value {
	if !l.Blocks[v.Block] {
		return v
	}
	if c, ok := m[v]; ok {
		return c
	}
	args := make([]*Value, len(v.Args))
	for i, a := range v.Args {
		args[i] = copyInvariant(f, b, a, l, m)
	}
	c := cloneValue(f, b, v, m)
	c.Args = args
	b.Values = append(b.Values, c)
	return c
}
