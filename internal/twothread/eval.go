package twothread

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// Evaluation of SSA values as polynomials over a pair problem's variables.

// eval returns the value of v in frame fr as seen by thread t.
func (p *problem) eval(fr *frame, v ssa.Value, t int) poly {
	if p.curInst != 0 {
		if i := p.instOf(fr, v); i != p.curInst {
			old := p.switchInst(i)
			r := p.eval(fr, v, t)
			p.switchInst(old)
			return r
		}
	}
	if t != 0 && p.curInst == 0 && p.isShared(fr, v) {
		t = 0
	}
	key := memoKey{valRef{fr, v}, t, p.curInst}
	if r, ok := p.memo[key]; ok {
		return r
	}
	r := p.eval1(fr, v, t)
	p.memo[key] = r
	if p.curInst != 0 {
		p.linkPhi(fr, v, t)
	}
	return r
}

func (p *problem) opaque(fr *frame, v ssa.Value, t int) poly {
	if t != 0 {
		if _, isPhi := v.(*ssa.Phi); !isPhi {
			p.approx = true
		}
	}
	return p.v(varKey{kind: vVal, copy: t, ref: valRef{fr, v}, inst: p.curInst})
}

func (p *problem) eval1(fr *frame, v ssa.Value, t int) poly {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil {
			return constPoly(0)
		}
		if isInteger(v.Type()) {
			if x, ok := constant.Int64Val(v.Value); ok {
				return constPoly(x)
			}
		}
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return p.eval(pfr, a, t)
		}
		for i, q := range fr.fn.Params {
			if q == v {
				return p.v(varKey{kind: vParam, dim: i})
			}
		}
	case *ssa.Field:
		if r, ok := p.field(fr, v.X, v.Field, t); ok {
			return r
		}
	case *ssa.Call:
		return p.evalCall(fr, v, t)
	case *ssa.Extract:
		// One result of a device function with several.
		if c, ok := v.Tuple.(*ssa.Call); ok && isInteger(v.Type()) {
			if callee := fr.calls[c]; callee != nil {
				if r, ok := p.calleeResult(callee, v.Index, t); ok {
					return r
				}
			}
		}
	case *ssa.BinOp:
		if isInteger(v.Type()) {
			if r, ok := p.evalBinOp(fr, v, t); ok {
				return r
			}
			if p.curInst == 0 {
				if r, ok := p.evalXor(fr, v, t); ok {
					return r
				}
			}
		}
	case *ssa.Convert:
		if isInteger(v.Type()) && isInteger(v.X.Type()) {
			return p.eval(fr, v.X, t)
		}
	case *ssa.ChangeType:
		return p.eval(fr, v.X, t)
	case *ssa.UnOp:
		if v.Op == token.SUB && isInteger(v.Type()) {
			return scale(p.eval(fr, v.X, t), -1)
		}
		if x, f, ok := localField(v); ok {
			if r, ok := p.field(fr, x, f, t); ok {
				return r
			}
		}
		if v.Op == token.MUL && isInteger(v.Type()) && p.curInst == 0 {
			if r, ok := p.publishedSlot(fr, v, t); ok {
				return r
			}
		}
	case *ssa.Phi:
		if isInteger(v.Type()) {
			return p.evalPhi(fr, v, t)
		}
	}
	return p.opaque(fr, v, t)
}

// field evaluates field f of struct value x: a component of a Thread
// method's Dim3, possibly passed to device functions or kept in a local
// variable.
func (p *problem) field(fr *frame, x ssa.Value, f int, t int) (poly, bool) {
	c, cfr, ok := dim3Call(fr, x)
	if !ok {
		return nil, false
	}
	return p.dim3(cfr, c, f, t)
}

// dim3Call finds the call that made the Dim3 value x, in frame fr: through
// device-function parameters to the arguments of their inlined call sites,
// and through local variables to the value stored in them.
func dim3Call(fr *frame, x ssa.Value) (*ssa.Call, *frame, bool) {
	for {
		switch v := x.(type) {
		case *ssa.Parameter:
			a, pfr, ok := argOf(fr, v)
			if !ok {
				return nil, nil, false
			}
			fr, x = pfr, a
			continue
		case *ssa.UnOp:
			if val, ok := localValue(v); ok {
				x = val
				continue
			}
		case *ssa.Call:
			return v, fr, true
		}
		return nil, nil, false
	}
}

// dim3 evaluates component d of a Thread method's Dim3 result.
func (p *problem) dim3(fr *frame, c *ssa.Call, d int, t int) (poly, bool) {
	switch gpuapi.Call(&c.Call) {
	case gpuapi.ThreadIdx:
		return p.tid(t, d), true
	case gpuapi.BlockIdx:
		return p.bid(t, d), true
	case gpuapi.BlockDim:
		return p.bdim(d), true
	case gpuapi.GridDim:
		return p.gdim(d), true
	case gpuapi.GlobalIdx:
		return p.gid(t, d), true
	}
	return nil, false
}

func (p *problem) evalCall(fr *frame, c *ssa.Call, t int) poly {
	if b, ok := c.Call.Value.(*ssa.Builtin); ok {
		args := c.Call.Args
		switch b.Name() {
		case "len":
			if len(args) == 1 {
				if root, pre, off, ok := p.k.resolveSeq(fr, args[0]); ok && root.Global() && len(pre) == 0 && len(off.terms) == 0 {
					return p.v(varKey{kind: vLen, dim: root.param})
				}
			}
		case "min", "max":
			if len(args) == 2 && isInteger(c.Type()) {
				x, y := p.eval(fr, args[0], t), p.eval(fr, args[1], t)
				m := p.aux(false, t)
				if b.Name() == "min" {
					p.clauses = append(p.clauses, clause{{eq(sub(m, x)), le(x, y)}, {eq(sub(m, y)), le(y, x)}})
				} else {
					p.clauses = append(p.clauses, clause{{eq(sub(m, x)), le(y, x)}, {eq(sub(m, y)), le(x, y)}})
				}
				return m
			}
		}
		return p.opaque(fr, c, t)
	}
	if callee := fr.calls[c]; callee != nil && isInteger(c.Type()) {
		if r, ok := p.calleeResult(callee, 0, t); ok {
			return r
		}
	}
	if gpuapi.Call(&c.Call) == gpuapi.AtomicAdd && p.curInst == 0 {
		return p.atomicSlot(fr, c, t)
	}
	return p.opaque(fr, c, t)
}

// calleeResult evaluates result i of an inlined device function: the
// returned value when it has one return, else one of the returned values
// under the branch conditions that lead to its return.
func (p *problem) calleeResult(callee *frame, i int, t int) (poly, bool) {
	var rets []*ssa.Return
	for _, b := range callee.fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(r.Results) > i {
			rets = append(rets, r)
		}
	}
	switch {
	case len(rets) == 1:
		return p.eval(callee, rets[0].Results[i], t), true
	case len(rets) > 1 && len(rets) <= 8:
		m := p.aux(false, t)
		var cl clause
		for _, r := range rets {
			alt := []cons{eq(sub(m, p.eval(callee, r.Results[i], t)))}
			for _, g := range callee.dom.guardsOf(r.Block()) {
				if gc := p.cond(callee, g.cond, t, g.taken); len(gc) == 1 {
					alt = append(alt, gc[0]...)
				}
			}
			cl = append(cl, alt)
		}
		p.clauses = append(p.clauses, cl)
		return m, true
	}
	return nil, false
}

func (p *problem) evalBinOp(fr *frame, v *ssa.BinOp, t int) (poly, bool) {
	x, y := p.eval(fr, v.X, t), p.eval(fr, v.Y, t)
	yc, yconst := y.constant()
	xc, xconst := x.constant()
	if (v.Op == token.OR || v.Op == token.XOR) && disjointBits(v.X, v.Y) {
		return add(x, y), true
	}
	switch v.Op {
	case token.AND_NOT:
		if yconst {
			return p.lowBitsCleared(x, yc, t)
		}
	case token.ADD:
		return add(x, y), true
	case token.SUB:
		return sub(x, y), true
	case token.MUL:
		return mulPoly(x, y)
	case token.SHL:
		if yconst && yc >= 0 && yc < 40 {
			return scale(x, 1<<yc), true
		}
		if !yconst {
			return p.shiftLeft(x, y)
		}
	case token.SHR:
		if yconst && yc >= 0 && yc < 40 {
			q, _ := p.floorDiv(x, 1<<yc, t)
			return q, true
		}
		if !yconst {
			return p.shiftRight(x, y, t)
		}
	case token.QUO, token.REM:
		if !yconst && p.isSharedPoly(y) {
			q, r, ok := p.divMod(x, y, t)
			if v.Op == token.QUO {
				return q, ok
			}
			return r, ok
		}
		if yconst && yc > 0 {
			q, r := p.truncDiv(x, yc, t)
			if v.Op == token.QUO {
				return q, true
			}
			return r, true
		}
	case token.AND:
		if xconst && !yconst {
			x, xc, yc, yconst = y, yc, xc, true
		}
		if yconst && yc >= 0 && yc&(yc+1) == 0 {
			_, r := p.floorDiv(x, yc+1, t)
			return r, true
		}
		// x & (m−1) for a power of two m that is not a constant (a
		// loop counter doubled from 1: tid & (2*s−1) == 0) is x mod m.
		for _, o := range [][2]ssa.Value{{v.X, v.Y}, {v.Y, v.X}} {
			if m, ok := pow2Minus1(o[1]); ok {
				return p.floorMod(p.eval(fr, o[0], t), p.eval(fr, m, t), t)
			}
		}
		// x & (m−1) where a guard states m & (m−1) == 0 (m is a power of
		// two or 0): x mod m, or x itself when m = 0.
		for _, o := range [][2]ssa.Value{{v.X, v.Y}, {v.Y, v.X}} {
			m, ok := minus1Of(o[1])
			if !ok {
				continue
			}
			if isPow2OrZero(m, map[ssa.Value]bool{}) {
				return p.guardedMod(p.eval(fr, o[0], t), p.eval(fr, m, t), t)
			}
			if p.pow2Assumed(fr, m) {
				return p.guardedMod(p.eval(fr, o[0], t), p.eval(fr, m, t), t)
			}
			if pow2, positive := p.k.pow2Guarded(fr, v.Block(), m); pow2 && positive {
				return p.floorMod(p.eval(fr, o[0], t), p.eval(fr, m, t), t)
			} else if pow2 {
				return p.guardedMod(p.eval(fr, o[0], t), p.eval(fr, m, t), t)
			}
		}
	case token.XOR:
		if phi, iv, c, ok := xorToggle(v); ok {
			// A ping-pong toggle: the phi's other value (involution).
			return sub(constPoly(iv+(iv^c)), p.eval(fr, phi, t)), true
		}
		fallthrough
	case token.OR:
		if xconst && !yconst {
			x, xc, yc, yconst = y, yc, xc, true
		}
		if yconst && yc > 0 && yc < 1<<30 {
			// Below the bits of c, x | c and x ^ c change only the low
			// bits r of x = m·q + r (m the power of two above c): they
			// become some r' < m with r' ≥ max(r, c) and r' ≤ r + c for
			// |, and r' ≠ r within c of r for ^.
			m := int64(1)
			for m <= yc {
				m <<= 1
			}
			q, r := p.floorDiv(x, m, t)
			r2 := p.aux(p.isSharedPoly(x), t)
			p.base = append(p.base, ge(r2), le(r2, constPoly(m-1)),
				le(sub(r, constPoly(yc)), r2), le(r2, add(r, constPoly(yc))))
			if v.Op == token.OR {
				p.base = append(p.base, le(r, r2), le(constPoly(yc), r2))
			} else {
				p.clauses = append(p.clauses, clause{{lt(r2, r)}, {lt(r, r2)}})
			}
			return add(scale(q, m), r2), true
		}
	}
	return nil, false
}

// pow2Minus1 reports whether v is m−1 for an integer m that is a power of
// two (see isPow2), and returns m.
func pow2Minus1(v ssa.Value) (ssa.Value, bool) {
	b, ok := v.(*ssa.BinOp)
	if !ok || b.Op != token.SUB {
		return nil, false
	}
	if c, ok := b.Y.(*ssa.Const); !ok || c.Value == nil || c.Int64() != 1 {
		return nil, false
	}
	if !isPow2(b.X, map[ssa.Value]bool{}) {
		return nil, false
	}
	return b.X, true
}

// isPow2 reports whether integer v is a power of two on every path: a
// constant power of two, a product of two, one shifted left, or a phi
// (a loop counter) all of whose incoming values are (the loop's own
// update counts by induction).
func isPow2(v ssa.Value, seen map[ssa.Value]bool) bool {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil || !isInteger(v.Type()) {
			return false
		}
		c := v.Int64()
		return c > 0 && c&(c-1) == 0
	case *ssa.BinOp:
		switch v.Op {
		case token.MUL:
			return isPow2(v.X, seen) && isPow2(v.Y, seen)
		case token.SHL:
			return isPow2(v.X, seen)
		}
	case *ssa.Phi:
		return phiAll(v, seen, isPow2)
	}
	return false
}

// phiAll reports whether every edge of phi has property ok (isPow2,
// isPow2OrZero); a phi met again on the walk adds nothing (a value that
// goes around a cycle entered it by another edge), and a walk over more
// than 64 phis gives up.
func phiAll(phi *ssa.Phi, seen map[ssa.Value]bool, ok func(ssa.Value, map[ssa.Value]bool) bool) bool {
	if seen[phi] {
		return true
	}
	if len(seen) > 64 {
		return false
	}
	seen[phi] = true
	for _, e := range phi.Edges {
		if !ok(e, seen) {
			return false
		}
	}
	return true
}

// evalPhi models a phi as a variable, with what its loop tells: an
// induction variable init + k·step (k ≥ 0) for an additive loop-invariant
// step, bounds for geometric ones (s *= 2, s += s, s >>= 1), the two
// values of an involution (first = NT − first), the highest bit kept
// by x &= x − 1, and the test every edge into it passed (entryTest).
func (p *problem) evalPhi(fr *frame, phi *ssa.Phi, t int) poly {
	x := p.phiValue(fr, phi, t)
	p.entryTest(fr, phi, x, t)
	return x
}

// phiValue is evalPhi but for the entry test.
func (p *problem) phiValue(fr *frame, phi *ssa.Phi, t int) poly {
	if t != 0 && p.curInst == 0 {
		if v, ok := p.linkedPhi(fr, phi, t); ok {
			return v
		}
	}
	x := p.opaque(fr, phi, t)
	if lo, hi, okLo, okHi := phiRange(phi); okLo || okHi {
		if okLo {
			p.base = append(p.base, le(constPoly(lo), x))
		}
		if okHi {
			p.base = append(p.base, le(x, constPoly(hi)))
		}
	}
	p.joinValue(fr, phi, x, t)
	if len(phi.Edges) != 2 {
		return x
	}
	blk := phi.Block()
	var init, update ssa.Value
	for i, pred := range blk.Preds {
		if blk.Dominates(pred) {
			update = phi.Edges[i]
		} else {
			init = phi.Edges[i]
		}
	}
	bin, ok := update.(*ssa.BinOp)
	if init == nil || !ok {
		return x
	}
	if v, ok := p.involution(fr, phi, init, bin, x, t); ok {
		return v
	}
	if clearsLowestBit(bin, phi) {
		if t != 0 && floorPow2Loop(phi, bin) && p.isSharedPoly(p.eval(fr, init, t)) {
			// Both threads see its exit value, a function of init.
			return p.eval(fr, phi, 0)
		}
		p.highestBit(fr, phi, init, x, t)
		return x
	}
	if bin.Op == token.ADD && bin.X == phi && bin.Y == phi {
		// x += x doubles: geometric, as x *= 2.
		if p.k.nonneg(fr, init) {
			p.base = append(p.base, ge(x), le(p.eval(fr, init, t), x))
		}
		return x
	}
	var step ssa.Value
	switch {
	case bin.X == phi:
		step = bin.Y
	case bin.Y == phi && (bin.Op == token.ADD || bin.Op == token.MUL):
		step = bin.X
	default:
		return x
	}
	if !invariantIn(step, blk, 0) {
		return x
	}
	iv := p.eval(fr, init, t)
	sv := p.eval(fr, step, t)
	sc, sconst := sv.constant()
	switch bin.Op {
	case token.ADD, token.SUB:
		var k poly
		if fr == p.k.g.root && p.inStep[blk] && p.curInst == 0 {
			k = p.iter(blk) // both threads at one iteration (agree.go)
		} else {
			k = p.aux(p.vars[x.single()].shared, t)
			p.base = append(p.base, ge(k))
		}
		prod, ok := mulPoly(sv, k)
		if !ok {
			return x
		}
		if bin.Op == token.SUB {
			prod = scale(prod, -1)
		}
		return add(iv, prod)
	case token.MUL, token.SHL:
		if sconst && (bin.Op == token.SHL && sc >= 0 || sc >= 1) && p.k.nonneg(fr, init) {
			p.base = append(p.base, ge(x), le(iv, x))
		}
	case token.SHR, token.QUO:
		if sconst && sc >= 1 && p.k.nonneg(fr, init) {
			p.base = append(p.base, ge(x), le(x, iv))
		}
	}
	return x
}

// entryTest adds, for a phi x whose every incoming edge is taken only
// when one comparison of the edge's value holds (a loop tested at its
// bottom, as Go compiles `for k := range n`: `0 < n` on entry and `k+1 <
// n` on the back edge), that the comparison holds of x.
func (p *problem) entryTest(fr *frame, phi *ssa.Phi, x poly, t int) {
	blk := phi.Block()
	var op token.Token
	var bound poly
	for i, pred := range blk.Preds {
		ifi, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
		if !ok || pred.Succs[0] != blk || pred.Succs[1] == blk {
			return
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || !sameValue(cmp.X, phi.Edges[i]) || !isInteger(cmp.X.Type()) {
			return
		}
		b := p.eval(fr, cmp.Y, t)
		if i == 0 {
			op, bound = cmp.Op, b
		} else if d, c := sub(b, bound).constant(); cmp.Op != op || !c || d != 0 {
			return
		}
	}
	switch op {
	case token.LSS:
		p.base = append(p.base, lt(x, bound))
	case token.LEQ:
		p.base = append(p.base, le(x, bound))
	case token.GTR:
		p.base = append(p.base, lt(bound, x))
	case token.GEQ:
		p.base = append(p.base, le(bound, x))
	}
}

// sameValue reports whether a and b are one SSA value or equal constants.
func sameValue(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ca, okA := constOf(a)
	cb, okB := constOf(b)
	return okA && okB && ca == cb
}

// involution models a loop phi whose update undoes itself: c − x, or
// x ^ c for a constant c and initial value (xorToggle). A ping-pong offset
// (first = NT − first, pout = 1 − pout, buf ^= 1) takes only its initial
// value v and the other, w = c − v (v ^ c), in alternate iterations: x =
// v + b·(w − v) with b ∈ {0, 1}, one b for both threads when they are at
// one iteration (x shared).
func (p *problem) involution(fr *frame, phi *ssa.Phi, init ssa.Value, bin *ssa.BinOp, x poly, t int) (poly, bool) {
	iv := p.eval(fr, init, t)
	var other poly
	switch {
	case bin.Op == token.SUB && bin.Y == phi && invariantIn(bin.X, phi.Block(), 0):
		other = p.eval(fr, bin.X, t)
	default:
		tp, v, c, ok := xorToggle(bin)
		if !ok || tp != phi {
			return x, false
		}
		other = constPoly(v ^ c)
	}
	b := p.aux(p.vars[x.single()].shared, t)
	prod, ok := mulPoly(sub(other, iv), b)
	if !ok {
		return x, false
	}
	p.base = append(p.base, ge(b), le(b, constPoly(1)))
	return add(iv, prod), true
}

// clearsLowestBit reports whether v is x & (x − 1) for phi x: x with its
// lowest set bit cleared.
func clearsLowestBit(v ssa.Value, phi *ssa.Phi) bool {
	and, ok := v.(*ssa.BinOp)
	if !ok || and.Op != token.AND {
		return false
	}
	minus1 := func(o ssa.Value) bool {
		s, ok := o.(*ssa.BinOp)
		if !ok || s.Op != token.SUB || s.X != phi {
			return false
		}
		c, isConst := constOf(s.Y)
		return isConst && c == 1
	}
	return and.X == phi && minus1(and.Y) || and.Y == phi && minus1(and.X)
}

// highestBit adds what a loop x &= x − 1 tells of its phi x, from a
// non-negative v: x only loses bits, 0 ≤ x ≤ v; and when the loop runs
// while x&(x−1) != 0 (floorPow2Loop), x keeps v's highest bit, v < 2x for
// v ≥ 1: its exit value is the largest power of two not above v.
func (p *problem) highestBit(fr *frame, phi *ssa.Phi, init ssa.Value, x poly, t int) {
	if !p.k.nonneg(fr, init) {
		return
	}
	iv := p.eval(fr, init, t)
	p.base = append(p.base, ge(x), le(x, iv))
	if cond := loopCond(phi); cond != nil && clearsLowestBit(cond, phi) {
		p.clauses = append(p.clauses, clause{{le(iv, constPoly(0))}, {lt(iv, scale(x, 2))}})
	}
}

// loopCond returns a when phi's block ends in `if a != 0`, else nil.
func loopCond(phi *ssa.Phi) ssa.Value {
	blk := phi.Block()
	cond, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	ne, ok := cond.Cond.(*ssa.BinOp)
	if !ok || ne.Op != token.NEQ {
		return nil
	}
	if c, ok := constOf(ne.Y); !ok || c != 0 {
		return nil
	}
	return ne.X
}

// floorPow2Loop reports whether phi heads the CUDA Handbook's floorPow2
// loop, `for x&(x-1) != 0 { x &= x - 1 }`, and nothing else: its header
// and the block of update bin (x & (x−1)) compute integers only. Every
// thread past it sees x = the largest power of two not above the initial
// value, and no access can see another.
func floorPow2Loop(phi *ssa.Phi, bin *ssa.BinOp) bool {
	cond := loopCond(phi)
	if cond == nil || !clearsLowestBit(cond, phi) {
		return false
	}
	body := bin.Block()
	if phi.Block().Succs[0] != body || len(body.Succs) != 1 || body.Succs[0] != phi.Block() {
		return false
	}
	for _, b := range []*ssa.BasicBlock{phi.Block(), body} {
		for _, in := range b.Instrs {
			switch in.(type) {
			case *ssa.Phi, *ssa.BinOp, *ssa.If, *ssa.Jump, *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

// xorToggle reports whether bin is x ^ c for a constant c, x a loop phi
// with a constant initial value v whose update is bin: x is v or v ^ c,
// and bin the other, v + (v ^ c) − x.
func xorToggle(bin *ssa.BinOp) (phi *ssa.Phi, v, c int64, ok bool) {
	if bin.Op != token.XOR {
		return nil, 0, 0, false
	}
	phi, okX := bin.X.(*ssa.Phi)
	c, okC := constOf(bin.Y)
	if !okX {
		phi, okX = bin.Y.(*ssa.Phi)
		c, okC = constOf(bin.X)
	}
	if !okX || !okC || len(phi.Edges) != 2 {
		return nil, 0, 0, false
	}
	blk := phi.Block()
	var init ssa.Value
	for i, pred := range blk.Preds {
		switch {
		case blk.Dominates(pred) && phi.Edges[i] != bin:
			return nil, 0, 0, false
		case !blk.Dominates(pred):
			init = phi.Edges[i]
		}
	}
	v, okV := constOf(init)
	return phi, v, c, okV
}

// invariantIn reports whether v has the same value in every iteration of
// the loop headed by b: it is computed before the loop, or inside it from
// such values only (no phi, no load).
func invariantIn(v ssa.Value, b *ssa.BasicBlock, depth int) bool {
	switch v := v.(type) {
	case *ssa.Const, *ssa.Parameter:
		return true
	case ssa.Instruction:
		if vb := v.Block(); vb != b && vb.Dominates(b) {
			return true
		}
	}
	if depth > 8 {
		return false
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		return invariantIn(v.X, b, depth+1) && invariantIn(v.Y, b, depth+1)
	case *ssa.Convert:
		return invariantIn(v.X, b, depth+1)
	case *ssa.ChangeType:
		return invariantIn(v.X, b, depth+1)
	case *ssa.Field:
		return invariantIn(v.X, b, depth+1)
	case *ssa.Call:
		if k := gpuapi.Call(&v.Call); k.IsThreadIndex() && !k.PerThread() {
			return true
		}
	}
	return false
}

// nonneg reports whether v is never negative, by its structure.
func (k *Kernel) nonneg(fr *frame, v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		if x, ok := constant.Int64Val(v.Value); ok {
			return x >= 0
		}
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return k.nonneg(pfr, a)
		}
	case *ssa.Field:
		if c, ok := v.X.(*ssa.Call); ok {
			return gpuapi.Call(&c.Call) != gpuapi.None
		}
	case *ssa.Call:
		if b, ok := v.Call.Value.(*ssa.Builtin); ok {
			return b.Name() == "len" || b.Name() == "cap"
		}
	case *ssa.Convert:
		return k.nonneg(fr, v.X)
	case *ssa.BinOp:
		switch v.Op {
		case token.ADD, token.MUL, token.QUO, token.SHR, token.SHL, token.REM:
			return k.nonneg(fr, v.X) && k.nonneg(fr, v.Y)
		case token.AND:
			return k.nonneg(fr, v.X) || k.nonneg(fr, v.Y)
		}
	}
	return false
}
