package twothread

import (
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// Atomic slot hand-out. j := gpu.AtomicAdd(&count[0], K) returns the
// counter's value before the add; while every write to the counter adds a
// positive constant, the counter only grows and no two executions of such
// an add, by any threads, get values closer than the smallest addend K. So
// the j of two different threads satisfy |j₁ − j₂| ≥ K, and writes to
// out[j] (K = 1) or out[j], out[j+1] (K = 2) never collide.
//
// A counter that is also written otherwise (a per-block counter in shared
// memory reset by one thread before a barrier, ln[0] = 0) grows only
// between such writes. Two threads' values of the same add are then
// distinct when both come from the same execution of it in one block (the
// same barrier interval instance); a plain write racing with the adds is
// reported as a race on the counter itself. A counter in shared memory
// whose every write stores or adds a non-negative constant is also never
// negative (it is written before it is used). Exchanges, compare-and-swaps,
// min/max and adds of other values to the counter void both facts, except
// a global counter whose every add adds a block's count (counts.go).

// counterInfo is what the writes of a kernel say of one counter element.
type counterInfo struct {
	key      string // the root and constant element path
	global   bool
	minAdd   int64 // the smallest addend of the adds on it (≥ 1)
	onlyAdds bool  // no write but those adds
	nonneg   bool  // shared, and every write keeps it non-negative
	// count is set when every add on the (global) counter adds a block's
	// count instead of a constant (counts.go); minAdd is 0 then.
	count *countInfo
}

// slotVal is one thread's value of an atomic add on a counter.
type slotVal struct {
	info *counterInfo
	fr   *frame
	c    *ssa.Call
	t    int
	v    poly
}

// constPath returns the key of an access's element path when every index is
// a constant.
func constPath(a *Access) (string, bool) {
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(a.root.shared)) + "/" + strconv.Itoa(a.root.param))
	for _, c := range a.comps {
		if c.any {
			return "", false
		}
		k := c.k
		for _, t := range c.terms {
			x, ok := constOf(t.v)
			if !ok {
				return "", false
			}
			k += x
		}
		b.WriteString("," + strconv.FormatInt(k, 10))
	}
	return b.String(), true
}

// counterOf returns the counter facts for the atomic add c in frame fr, or
// nil when there are none.
func (k *Kernel) counterOf(fr *frame, c *ssa.Call) *counterInfo {
	if k.counters == nil {
		k.counters = map[valRef]*counterInfo{}
	}
	ref := valRef{fr, c}
	if info, ok := k.counters[ref]; ok {
		return info
	}
	info := k.counterInfo(fr, c)
	k.counters[ref] = info
	return info
}

func (k *Kernel) counterInfo(fr *frame, c *ssa.Call) *counterInfo {
	self := k.accessOf(fr, c)
	if self == nil {
		return nil
	}
	key, ok := constPath(self)
	if !ok {
		return nil
	}
	info := &counterInfo{key: key, global: self.root.Global(), onlyAdds: true, nonneg: !self.root.Global()}
	for _, a := range k.accesses {
		if !a.write || a.root != self.root {
			continue
		}
		if ak, ok := constPath(a); ok && ak != key {
			continue // another element
		}
		call, _ := a.instr.(*ssa.Call)
		switch {
		case call != nil && gpuapi.Call(&call.Call) == gpuapi.AtomicAdd:
			add, ok := constArg(a.node.fr, call.Call.Args[1])
			if _, exact := constPath(a); !exact {
				return nil
			}
			if !ok && info.global {
				cnt := k.countCell(a.node.fr, call.Call.Args[1])
				if cnt == nil || info.count != nil && info.count.key != cnt.key {
					return nil
				}
				info.count = cnt
				continue
			}
			if !ok || add < 1 {
				return nil
			}
			if info.minAdd == 0 || add < info.minAdd {
				info.minAdd = add
			}
		case call != nil:
			return nil // another atomic may lower it
		default:
			info.onlyAdds = false
			st, _ := a.instr.(*ssa.Store)
			if v, ok := constOf(storedValue(st)); !ok || v < 0 {
				info.nonneg = false
			}
		}
	}
	if info.minAdd == 0 && info.count == nil || info.minAdd != 0 && info.count != nil {
		return nil
	}
	return info
}

// constArg returns the constant value of v in frame fr, following a
// device function's parameters to their arguments.
func constArg(fr *frame, v ssa.Value) (int64, bool) {
	for {
		p, ok := v.(*ssa.Parameter)
		if !ok {
			return constOf(v)
		}
		a, pfr, ok := argOf(fr, p)
		if !ok {
			return 0, false
		}
		fr, v = pfr, a
	}
}

func storedValue(st *ssa.Store) ssa.Value {
	if st == nil {
		return nil
	}
	return st.Val
}

// atomicSlot is thread t's value of the atomic add c: a per-thread
// unknown, with the counter facts above against the other thread's values
// of adds on the same counter.
func (p *problem) atomicSlot(fr *frame, c *ssa.Call, t int) poly {
	x := p.opaque(fr, c, t)
	info := p.k.counterOf(fr, c)
	if info == nil || t == 0 {
		return x
	}
	if info.nonneg {
		p.base = append(p.base, ge(x))
	}
	if p.cross && !info.global {
		p.ticketBound(fr, c, t, x)
	}
	p.slotApart(info, fr, c, t, x)
	return x
}

// slotApart adds that x, thread t's value of add c on counter info, and
// the other thread's values of adds on the same counter came from
// different executions of them, and records x as one.
func (p *problem) slotApart(info *counterInfo, fr *frame, c *ssa.Call, t int, x poly) {
	for _, o := range p.slots {
		if o.t == t || o.info.key != info.key {
			continue
		}
		if p.cross && !info.global {
			continue // different blocks' shared counters
		}
		if !info.onlyAdds && (p.cross || o.c != c || o.fr != fr || !p.sameInstance(fr.nodeOf[c])) {
			continue
		}
		ka, kb := constPoly(info.minAdd), constPoly(info.minAdd)
		if info.count != nil {
			// Apart by the count the earlier execution added.
			ka, kb = p.blockCount(info.count.key, o.t), p.blockCount(info.count.key, t)
		}
		p.clauses = append(p.clauses, clause{{le(add(o.v, ka), x)}, {le(add(x, kb), o.v)}})
	}
	p.slots = append(p.slots, slotVal{info: info, fr: fr, c: c, t: t, v: x})
}

// Tickets published through shared memory. A leader thread claims its
// block's range of an output with a global atomic add and stores the
// result in a shared cell, which every thread of the block reads after a
// barrier (`if tx == 0 { base[0] = gpu.AtomicAdd(&count[0], 256) }`). The
// value two threads of different blocks read there came from different
// executions of the add (one by a thread of each block), so it is apart
// like the values of the add itself. This holds when every write to the
// cell stores the result of such an add, the store runs in every block
// (under no branch but tests that the thread index is 0) and the load
// cannot run before it (no path leads from the load to the store; a store
// in the load's barrier interval is a race on the cell, reported as such).

// publishedSlot returns thread t's value of load u when it reads a
// published ticket, in a problem of threads of different blocks.
func (p *problem) publishedSlot(fr *frame, u *ssa.UnOp, t int) (poly, bool) {
	if !p.cross || t == 0 {
		return nil, false
	}
	info, c, cfr := p.k.published(fr, u)
	if info == nil {
		return nil, false
	}
	x := p.opaque(fr, u, t)
	p.slotApart(info, cfr, c, t, x)
	return x, true
}

// published returns the counter whose tickets load u reads from a shared
// cell, and one of the adds stored there, or nil when u reads something
// else.
func (k *Kernel) published(fr *frame, u *ssa.UnOp) (*counterInfo, *ssa.Call, *frame) {
	cell := k.accessOf(fr, u)
	if cell == nil || cell.root.Global() {
		return nil, nil, nil
	}
	key, ok := constPath(cell)
	if !ok {
		return nil, nil, nil
	}
	var info *counterInfo
	var add *ssa.Call
	var addFr *frame
	var stores []*node
	var others []*Access
	for _, a := range k.accesses {
		if !a.write || a.root != cell.root {
			continue
		}
		if ak, ok := constPath(a); ok && ak != key {
			continue // another cell
		}
		cfr, c, ci := k.storedTicket(a)
		if ci == nil {
			others = append(others, a)
			continue
		}
		if info != nil && ci.key != info.key || !k.everyBlock(a.node) || k.reaches(cell.node, a.node) {
			return nil, nil, nil
		}
		info, add, addFr = ci, c, cfr
		stores = append(stores, a.node)
	}
	// The block count's own cell, reused for the base: its resets and
	// ticket adds all ran before the base was stored.
	for _, a := range others {
		if info == nil || info.count == nil || info.count.key != key {
			return nil, nil, nil
		}
		for _, st := range stores {
			if !k.before(a.node, st) {
				return nil, nil, nil
			}
		}
	}
	return info, add, addFr
}

// storedTicket returns the global atomic add, with its frame and counter,
// whose result write a stores whole (through conversions and the single
// return of inlined device functions).
func (k *Kernel) storedTicket(a *Access) (*frame, *ssa.Call, *counterInfo) {
	st, ok := a.instr.(*ssa.Store)
	if !ok {
		return nil, nil, nil
	}
	fr, v := a.node.fr, st.Val
	for depth := 0; depth < maxInline; depth++ {
		switch x := v.(type) {
		case *ssa.Convert:
			if !isInteger(x.X.Type()) {
				return nil, nil, nil
			}
			v = x.X
			continue
		case *ssa.Call:
			if gpuapi.Call(&x.Call) == gpuapi.AtomicAdd {
				info := k.counterOf(fr, x)
				if info == nil || !info.global || !info.onlyAdds {
					return nil, nil, nil
				}
				return fr, x, info
			}
			callee := fr.calls[x]
			if callee == nil {
				return nil, nil, nil
			}
			r, ok := singleResult(callee.fn)
			if !ok {
				return nil, nil, nil
			}
			fr, v = callee, r
			continue
		}
		return nil, nil, nil
	}
	return nil, nil, nil
}

// singleResult returns the value fn returns when it has one return
// statement with one result.
func singleResult(fn *ssa.Function) (ssa.Value, bool) {
	var res ssa.Value
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if res != nil || len(r.Results) != 1 {
				return nil, false
			}
			res = r.Results[0]
		}
	}
	return res, res != nil
}

// everyBlock reports whether node n runs in every block: the only branches
// it depends on (in its frame and at the call sites leading to it) test
// that the thread index is 0.
func (k *Kernel) everyBlock(n *node) bool {
	fr, b := n.fr, n.block
	for fr != nil && b != nil {
		for _, g := range fr.dom.guardsOf(b) {
			if !g.taken || !isThreadZeroTest(fr, g.cond) {
				return false
			}
		}
		if fr.node == nil {
			break
		}
		b, fr = fr.node.block, fr.parent
	}
	return true
}

// reaches reports whether node to can run after node from (or is it).
func (k *Kernel) reaches(from, to *node) bool {
	all := make([]bool, len(k.g.nodes))
	for i := range all {
		all[i] = true
	}
	return k.reachesWithin(all, []*node{from}, to, nil)
}

// isThreadZeroTest reports whether cond is ThreadIdx().X == 0 (any
// dimension, either side, through a local).
func isThreadZeroTest(fr *frame, cond ssa.Value) bool {
	c, ok := cond.(*ssa.BinOp)
	if !ok || c.Op != token.EQL {
		return false
	}
	x, z := c.X, c.Y
	if v, ok := constOf(x); ok && v == 0 {
		x, z = z, x
	}
	if v, ok := constOf(z); !ok || v != 0 {
		return false
	}
	f, ok := x.(*ssa.Field)
	if !ok {
		return false
	}
	call, _, ok := dim3Call(fr, f.X)
	return ok && gpuapi.Call(&call.Call) == gpuapi.ThreadIdx
}

// phiRange bounds an integer phi by the values that flow into it: the
// phis it is connected to (a flag set in a branch, a counter bumped under
// a condition) form a web whose other inputs are constants c, which bound
// it on both sides, and updates p ± c of a member p by a constant, which
// leave the side they move away from unbounded. Anything else leaves the
// phi unbounded. A counter that starts at 0 and only grows is ≥ 0; a
// flag that is 0 or 1 is in [0, 1].
func phiRange(phi *ssa.Phi) (lo, hi int64, hasLo, hasHi bool) {
	web := map[ssa.Value]bool{}
	var consts []int64
	up, down := false, false
	work := []ssa.Value{phi}
	web[phi] = true
	for len(work) > 0 {
		if len(web) > 64 {
			return 0, 0, false, false
		}
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range v.(*ssa.Phi).Edges {
			if c, ok := constOf(e); ok {
				consts = append(consts, c)
				continue
			}
			switch e := e.(type) {
			case *ssa.Phi:
				if !web[e] {
					web[e] = true
					work = append(work, e)
				}
				continue
			case *ssa.BinOp:
				c, ok := constOf(e.Y)
				x, isPhi := e.X.(*ssa.Phi)
				if ok && isPhi && (e.Op == token.ADD || e.Op == token.SUB) {
					if e.Op == token.SUB {
						c = -c
					}
					if c >= 0 {
						up = true
					} else {
						down = true
					}
					if !web[x] {
						web[x] = true
						work = append(work, x)
					}
					continue
				}
			}
			return 0, 0, false, false
		}
	}
	if len(consts) == 0 {
		return 0, 0, false, false
	}
	lo, hi = consts[0], consts[0]
	for _, c := range consts {
		lo, hi = min(lo, c), max(hi, c)
	}
	return lo, hi, !down, !up
}

// minus1Of reports whether v is m − 1 and returns m.
func minus1Of(v ssa.Value) (ssa.Value, bool) {
	b, ok := v.(*ssa.BinOp)
	if !ok || b.Op != token.SUB {
		return nil, false
	}
	if c, ok := constOf(b.Y); !ok || c != 1 {
		return nil, false
	}
	return b.X, true
}

// pow2Guarded reports whether a branch that dominates block b of frame fr
// (or the call sites leading to fr) states m & (m−1) == 0: the kernel's
// precondition that m is a power of two (`if m&(m-1) != 0 { panic(…) }`).
func (k *Kernel) pow2Guarded(fr *frame, b *ssa.BasicBlock, m ssa.Value) (pow2, positive bool) {
	for fr != nil && b != nil {
		for _, g := range fr.dom.guardsOf(b) {
			pow2 = pow2 || isPow2Test(g.cond, g.taken, m)
			positive = positive || isPositiveTest(g.cond, g.taken, m)
		}
		if pow2 && positive {
			return
		}
		if fr.node == nil {
			break
		}
		// m may be a parameter of the device function: follow it out.
		if p, ok := m.(*ssa.Parameter); ok {
			if a, _, ok := argOf(fr, p); ok {
				m = a
			}
		}
		b = fr.node.block
		fr = fr.parent
	}
	return
}

// isPositiveTest reports whether cond, taken as pol, says m ≥ 1 (m > 0,
// m >= 1, or the negation of m <= 0, m < 1).
func isPositiveTest(cond ssa.Value, pol bool, m ssa.Value) bool {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		return isPositiveTest(u.X, !pol, m)
	}
	c, ok := cond.(*ssa.BinOp)
	if !ok || c.X != m {
		return false
	}
	y, ok := constOf(c.Y)
	if !ok {
		return false
	}
	switch {
	case c.Op == token.GTR && pol, c.Op == token.LEQ && !pol:
		return y >= 0
	case c.Op == token.GEQ && pol, c.Op == token.LSS && !pol:
		return y >= 1
	}
	return false
}

// isPow2Test reports whether cond, taken as pol, says m & (m−1) == 0.
func isPow2Test(cond ssa.Value, pol bool, m ssa.Value) bool {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		return isPow2Test(u.X, !pol, m)
	}
	c, ok := cond.(*ssa.BinOp)
	if !ok || !(c.Op == token.EQL && pol || c.Op == token.NEQ && !pol) {
		return false
	}
	x, z := c.X, c.Y
	if zc, ok := constOf(x); ok && zc == 0 {
		x, z = z, x
	}
	if zc, ok := constOf(z); !ok || zc != 0 {
		return false
	}
	and, ok := x.(*ssa.BinOp)
	if !ok || and.Op != token.AND {
		return false
	}
	for _, o := range [][2]ssa.Value{{and.X, and.Y}, {and.Y, and.X}} {
		if mm, ok := minus1Of(o[1]); ok && o[0] == m && mm == m {
			return true
		}
	}
	return false
}

// guardedMod returns x & (m−1) for m a power of two or 0: x mod m when
// m ≥ 1, x when m = 0.
func (p *problem) guardedMod(x, m poly, t int) (poly, bool) {
	sh := p.isSharedPoly(x) && p.isSharedPoly(m)
	q, r := p.aux(sh, t), p.aux(sh, t)
	mq, ok := mulPoly(m, q)
	if !ok {
		return nil, false
	}
	p.clauses = append(p.clauses, clause{
		{eq(m), eq(sub(r, x))},
		{le(constPoly(1), m), eq(sub(x, add(mq, r))), ge(r), lt(r, m)},
	})
	return r, true
}
