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
// min/max and adds of other values to the counter void both facts.

// counterInfo is what the writes of a kernel say of one counter element.
type counterInfo struct {
	key      string // the root and constant element path
	global   bool
	minAdd   int64 // the smallest addend of the adds on it (≥ 1)
	onlyAdds bool  // no write but those adds
	nonneg   bool  // shared, and every write keeps it non-negative
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
	var self *Access
	for _, a := range k.accesses {
		if a.instr == ssa.Instruction(c) && a.node.fr == fr {
			self = a
			break
		}
	}
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
			add, ok := constOf(call.Call.Args[1])
			if _, exact := constPath(a); !ok || add < 1 || !exact {
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
	if info.minAdd == 0 {
		return nil
	}
	return info
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
		kk := constPoly(info.minAdd)
		p.clauses = append(p.clauses, clause{{le(add(o.v, kk), x)}, {le(add(x, kk), o.v)}})
	}
	p.slots = append(p.slots, slotVal{info: info, fr: fr, c: c, t: t, v: x})
	return x
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
