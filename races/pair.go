package races

import (
	"fmt"
	"go/constant"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/races/internal/lincon"
)

// A problem is the question "can two distinct threads make accesses a and
// b to the same element?" as polynomial constraints over symbolic
// variables. Thread a's values are copy 1, thread b's copy 2; values that
// both threads share (uniform values at the same dynamic instance) are
// copy 0.
type problem struct {
	k      *kernelAn
	cross  bool   // the threads are in different blocks
	r      []bool // the barrier interval (same-block problems)
	starts []*node
	na, nb *node

	vars     []varInfo
	varIdx   map[varKey]lincon.Var
	base     []cons
	clauses  []clause
	memo     map[memoKey]poly
	instance map[*node]bool
	xors     map[valRef]*xorPair // x ^ j per thread (xor.go)
	slots    []slotVal           // atomic counter values (slots.go)
	divs     map[string][2]poly  // quotient and remainder of x/m, x%m by x and m
	// approx is set when a per-thread value outside the model takes part,
	// so that a model is an example of the constraints, not of a run.
	approx bool
}

type varKind int

const (
	vTid varKind = iota
	vBid
	vBdim
	vGdim
	vParam
	vLen
	vVal
	vAux
	vGid
)

type varKey struct {
	kind varKind
	copy int
	dim  int
	ref  valRef
}

type varInfo struct {
	name   string
	shared bool
}

type memoKey struct {
	ref valRef
	t   int
}

func (p *problem) newVar(info varInfo) lincon.Var {
	p.vars = append(p.vars, info)
	return lincon.Var(len(p.vars) - 1)
}

// v returns the variable for key, creating it (with its range facts).
func (p *problem) v(key varKey) poly {
	if x, ok := p.varIdx[key]; ok {
		return varPoly(x)
	}
	x := p.newVar(varInfo{shared: key.copy == 0})
	p.varIdx[key] = x
	xp := varPoly(x)
	switch key.kind {
	case vTid:
		p.base = append(p.base, ge(xp), lt(xp, p.bdim(key.dim)))
	case vBid:
		gd := p.gdim(key.dim)
		p.base = append(p.base, ge(xp), lt(xp, gd))
		// BlockIdx·BlockDim + BlockDim ≤ GridDim·BlockDim: with a free block
		// shape this product bound is what keeps global indices of
		// different blocks apart in grid-stride loops.
		bd := p.bdim(key.dim)
		if _, c := bd.constant(); !c {
			lhs, ok1 := mulPoly(bd, add(xp, constPoly(1)))
			rhs, ok2 := mulPoly(bd, gd)
			if ok1 && ok2 {
				p.base = append(p.base, le(lhs, rhs))
			}
		}
	case vBdim:
		maxv := int64(1024)
		if key.dim == 2 {
			maxv = 64
		}
		p.base = append(p.base, le(constPoly(1), xp), le(xp, constPoly(maxv)))
	case vGdim:
		p.base = append(p.base, le(constPoly(1), xp))
	case vLen:
		p.base = append(p.base, ge(xp))
	}
	return xp
}

func (p *problem) aux(shared bool, t int) poly {
	if shared {
		t = 0
	}
	return varPoly(p.newVar(varInfo{name: "aux", shared: t == 0}))
}

func (p *problem) tid(t, d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(0)
	}
	return p.v(varKey{kind: vTid, copy: t, dim: d})
}

func (p *problem) bid(t, d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(0)
	}
	if g := p.k.shape.Grid[d]; g == 1 {
		return constPoly(0)
	}
	if !p.cross {
		t = 0
	}
	return p.v(varKey{kind: vBid, copy: t, dim: d})
}

// gid is component d of thread t's GlobalIdx, a variable G with
// G = BlockIdx·BlockDim + ThreadIdx. Keeping G whole lets a product such as
// w·G (a row-major index) be split on the sign of G₁ − G₂ in one piece.
func (p *problem) gid(t, d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(0)
	}
	key := varKey{kind: vGid, copy: t, dim: d}
	if x, ok := p.varIdx[key]; ok {
		return varPoly(x)
	}
	g := p.v(key)
	prod, _ := mulPoly(p.bid(t, d), p.bdim(d))
	p.base = append(p.base, ge(g), eq(sub(g, add(prod, p.tid(t, d)))))
	return g
}

func (p *problem) bdim(d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(1)
	}
	if b := p.k.shape.Block[d]; b > 0 {
		return constPoly(int64(b))
	}
	return p.v(varKey{kind: vBdim, dim: d})
}

func (p *problem) gdim(d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(1)
	}
	if g := p.k.shape.Grid[d]; g > 0 {
		return constPoly(int64(g))
	}
	return p.v(varKey{kind: vGdim, dim: d})
}

// ---- symbolic evaluation ----

// eval returns the value of v in frame fr as seen by thread t.
func (p *problem) eval(fr *frame, v ssa.Value, t int) poly {
	if t != 0 && p.isShared(fr, v) {
		t = 0
	}
	key := memoKey{valRef{fr, v}, t}
	if r, ok := p.memo[key]; ok {
		return r
	}
	r := p.eval1(fr, v, t)
	p.memo[key] = r
	return r
}

func (p *problem) opaque(fr *frame, v ssa.Value, t int) poly {
	if t != 0 {
		if _, isPhi := v.(*ssa.Phi); !isPhi {
			p.approx = true
		}
	}
	return p.v(varKey{kind: vVal, copy: t, ref: valRef{fr, v}})
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
			if r, ok := p.evalXor(fr, v, t); ok {
				return r
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
	for {
		switch v := x.(type) {
		case *ssa.Parameter:
			a, pfr, ok := argOf(fr, v)
			if !ok {
				return nil, false
			}
			fr, x = pfr, a
			continue
		case *ssa.UnOp:
			if val, ok := localValue(v); ok {
				x = val
				continue
			}
		case *ssa.Call:
			return p.dim3(fr, v, f, t)
		}
		return nil, false
	}
}

// dim3 evaluates component d of a Thread method's Dim3 result.
func (p *problem) dim3(fr *frame, c *ssa.Call, d int, t int) (poly, bool) {
	if !isThreadMethod(c, gpuFunc(c)) {
		return nil, false
	}
	switch gpuFunc(c) {
	case "ThreadIdx":
		return p.tid(t, d), true
	case "BlockIdx":
		return p.bid(t, d), true
	case "BlockDim":
		return p.bdim(d), true
	case "GridDim":
		return p.gdim(d), true
	case "GlobalIdx":
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
				if root, pre, off, ok := p.k.resolveSeq(fr, args[0]); ok && root.global() && len(pre) == 0 && len(off.terms) == 0 {
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
	if gpuFunc(c) == "AtomicAdd" {
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
	switch v.Op {
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
	case token.SHR:
		if yconst && yc >= 0 && yc < 40 {
			q, _ := p.floorDiv(x, 1<<yc, t)
			return q, true
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
			if pow2, positive := p.k.pow2Guarded(fr, v.Block(), m); pow2 && positive {
				return p.floorMod(p.eval(fr, o[0], t), p.eval(fr, m, t), t)
			} else if pow2 {
				return p.guardedMod(p.eval(fr, o[0], t), p.eval(fr, m, t), t)
			}
		}
	case token.OR, token.XOR:
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
		if seen[v] {
			return true
		}
		if len(seen) > 64 {
			return false
		}
		seen[v] = true
		for _, e := range v.Edges {
			if !isPow2(e, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// isSharedPoly reports whether every variable of x is shared.
func (p *problem) isSharedPoly(x poly) bool {
	for _, tm := range x {
		for _, v := range tm.vars {
			if !p.vars[v].shared {
				return false
			}
		}
	}
	return true
}

// floorDiv returns q, r with x = m·q + r and 0 ≤ r < m (m > 0), as for
// x >> k and x & (m−1).
func (p *problem) floorDiv(x poly, m int64, t int) (poly, poly) {
	if c, ok := x.constant(); ok {
		q := c / m
		if c%m < 0 {
			q--
		}
		return constPoly(q), constPoly(c - q*m)
	}
	key := "floor" + itoa(m) + "/" + polyKey(x)
	if qr, ok := p.divs[key]; ok {
		return qr[0], qr[1]
	}
	sh := p.isSharedPoly(x)
	q, r := p.aux(sh, t), p.aux(sh, t)
	p.base = append(p.base, eq(sub(x, add(scale(q, m), r))), ge(r), le(r, constPoly(m-1)))
	p.divs[key] = [2]poly{q, r}
	return q, r
}

// polyKey is a canonical text of x, so that x/m and x%m of one x (two SSA
// values) share their quotient and remainder: a guard n%32 == 0 then
// speaks of the n/32 that an index uses.
func polyKey(x poly) string {
	var b strings.Builder
	for _, tm := range x.sorted() {
		b.WriteString(monoKey(tm.vars) + ":" + itoa(tm.coef) + ";")
	}
	return b.String()
}

// truncDiv returns q, r with x = m·q + r, Go's truncated division (m > 0).
func (p *problem) truncDiv(x poly, m int64, t int) (poly, poly) {
	if c, ok := x.constant(); ok {
		return constPoly(c / m), constPoly(c % m)
	}
	key := "trunc" + itoa(m) + "/" + polyKey(x)
	if qr, ok := p.divs[key]; ok {
		return qr[0], qr[1]
	}
	sh := p.isSharedPoly(x)
	q, r := p.aux(sh, t), p.aux(sh, t)
	p.base = append(p.base, eq(sub(x, add(scale(q, m), r))))
	p.clauses = append(p.clauses, clause{
		{ge(x), ge(r), le(r, constPoly(m-1))},
		{lt(x, constPoly(0)), le(r, constPoly(0)), le(constPoly(1-m), r)},
	})
	p.divs[key] = [2]poly{q, r}
	return q, r
}

// floorMod returns r = x mod m (0 ≤ r < m) for a divisor m ≥ 1 that is
// not a constant, as x & (m−1) is for a power of two m.
func (p *problem) floorMod(x, m poly, t int) (poly, bool) {
	sh := p.isSharedPoly(x) && p.isSharedPoly(m)
	q, r := p.aux(sh, t), p.aux(sh, t)
	mq, ok := mulPoly(m, q)
	if !ok {
		return nil, false
	}
	p.base = append(p.base, eq(sub(x, add(mq, r))), ge(r), lt(r, m), le(constPoly(1), m))
	return r, true
}

// divMod returns q, r with x = m·q + r for a divisor m that both threads
// share, with Go's truncated remainder: 0 ≤ r < m for x ≥ 0 and m ≥ 1.
func (p *problem) divMod(x, m poly, t int) (poly, poly, bool) {
	key := "divmod" + polyKey(m) + "/" + polyKey(x)
	if qr, ok := p.divs[key]; ok {
		return qr[0], qr[1], true
	}
	sh := p.isSharedPoly(x)
	q, r := p.aux(sh, t), p.aux(sh, t)
	mq, ok := mulPoly(m, q)
	if !ok {
		return nil, nil, false
	}
	p.divs[key] = [2]poly{q, r}
	one := constPoly(1)
	p.base = append(p.base, eq(sub(x, add(mq, r))))
	p.clauses = append(p.clauses, clause{
		{le(one, m), ge(x), ge(r), lt(r, m)},
		{le(one, m), lt(x, constPoly(0)), le(r, constPoly(0)), lt(scale(m, -1), r)},
		{le(m, constPoly(-1)), lt(r, scale(m, -1)), lt(m, r)},
	})
	return q, r, true
}

// evalPhi models a phi as a variable, with what its loop tells: an
// induction variable init + k·step (k ≥ 0) for an additive loop-invariant
// step, and bounds for geometric ones (s *= 2, s >>= 1).
func (p *problem) evalPhi(fr *frame, phi *ssa.Phi, t int) poly {
	if t != 0 {
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
		k := p.aux(p.vars[x.single()].shared, t)
		p.base = append(p.base, ge(k))
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

func (x poly) single() lincon.Var {
	for _, t := range x {
		return t.vars[0]
	}
	return 0
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
		switch gpuFunc(v) {
		case "BlockDim", "GridDim", "BlockIdx":
			return true
		}
	}
	return false
}

// nonneg reports whether v is never negative, by its structure.
func (k *kernelAn) nonneg(fr *frame, v ssa.Value) bool {
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
			return gpuFunc(c) != ""
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

// isShared reports whether v has one value for both threads: it is uniform
// and both accesses see the same dynamic instance of it.
func (p *problem) isShared(fr *frame, v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return p.isShared(pfr, a)
		}
		return true
	}
	if p.cross || p.k.divOf(fr, v) {
		return false
	}
	in, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	d := fr.nodeOf[in]
	if d == nil {
		return false
	}
	return p.sameInstance(d)
}

// sameInstance reports whether both accesses see the same execution of
// node d: d lies outside the interval (it ran before the barrier both
// threads passed), or inside it on no barrier-free cycle and both
// accesses are before it or both after it.
func (p *problem) sameInstance(d *node) bool {
	if r, ok := p.instance[d]; ok {
		return r
	}
	res := true
	if p.r[d.id] {
		if p.onCycle(d) {
			res = false
		} else {
			ia, ib := p.inst(d, p.na), p.inst(d, p.nb)
			res = ia >= 0 && ia == ib
		}
	}
	p.instance[d] = res
	return res
}

// onCycle reports whether d lies on a barrier-free cycle of the interval.
func (p *problem) onCycle(d *node) bool { return p.k.reachesWithinSkip(p.r, d, d) }

// inst tells which execution of node d (in the interval) access node x
// sees: 0 the one before the interval's barrier, 1 the one after it, −1
// either.
func (p *problem) inst(d, x *node) int {
	if x == d {
		return 1
	}
	pre := !p.k.reachesWithin(p.r, d.succs, x, nil)
	post := !p.k.reachesWithin(p.r, p.starts, x, d)
	switch {
	case pre:
		return 0
	case post:
		return 1
	}
	return -1
}

// linkedPhi handles a uniform phi that one thread sees before the
// interval's barrier and the other after it (one iteration later, or on
// a fresh entry to its loop). The first sees an unknown shared value x;
// the second sees the loop's update of x when only the back edge leads
// from the barrier to the phi, or the phi's initial value when only the
// entry edge does. It returns false when neither holds.
func (p *problem) linkedPhi(fr *frame, phi *ssa.Phi, t int) (poly, bool) {
	if p.cross || p.k.divOf(fr, phi) {
		return nil, false
	}
	d := fr.nodeOf[phi]
	if d == nil || !p.r[d.id] || p.onCycle(d) {
		return nil, false
	}
	ia, ib := p.inst(d, p.na), p.inst(d, p.nb)
	if ia < 0 || ib < 0 || ia == ib {
		return nil, false
	}
	mine := ia
	if t == 2 {
		mine = ib
	}
	if mine == 0 {
		return p.eval(fr, phi, 0), true
	}
	blk := phi.Block()
	var back, init []int
	for i, pred := range blk.Preds {
		ln := fr.last[pred]
		if ln == nil || !p.k.reachesWithin(p.r, p.starts, ln, d) {
			continue
		}
		if blk.Dominates(pred) {
			back = append(back, i)
		} else {
			init = append(init, i)
		}
	}
	switch {
	case len(back) == 1 && len(init) == 0:
		return p.eval(fr, phi.Edges[back[0]], 0), true
	case len(init) == 1 && len(back) == 0:
		return p.eval(fr, phi.Edges[init[0]], t), true
	}
	return nil, false
}

// ---- conditions ----

// cond returns the clause that branch condition v (taken when pol) adds
// for thread t, or nil when it is outside the model.
func (p *problem) cond(fr *frame, v ssa.Value, t int, pol bool) clause {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.NOT {
			return p.cond(fr, v.X, t, !pol)
		}
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return p.cond(pfr, a, t, pol)
		}
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Bool && constant.BoolVal(v.Value) != pol {
			return clause{}
		}
	case *ssa.BinOp:
		if !isInteger(v.X.Type()) {
			return nil
		}
		op := v.Op
		if !pol {
			op = map[token.Token]token.Token{token.LSS: token.GEQ, token.GEQ: token.LSS,
				token.LEQ: token.GTR, token.GTR: token.LEQ, token.EQL: token.NEQ, token.NEQ: token.EQL}[op]
		}
		x, y := p.eval(fr, v.X, t), p.eval(fr, v.Y, t)
		switch op {
		case token.LSS:
			return clause{{lt(x, y)}}
		case token.LEQ:
			return clause{{le(x, y)}}
		case token.GTR:
			return clause{{lt(y, x)}}
		case token.GEQ:
			return clause{{le(y, x)}}
		case token.EQL:
			return clause{{eq(sub(x, y))}}
		case token.NEQ:
			return clause{{lt(x, y)}, {lt(y, x)}}
		}
	}
	return nil
}

// addPathConds adds the branch conditions known to hold at node n for
// thread t, through the call sites of its inlined frames.
func (p *problem) addPathConds(n *node, t int) {
	fr, b := n.fr, n.block
	for fr != nil && b != nil {
		for _, g := range fr.dom.guardsOf(b) {
			if cl := p.cond(fr, g.cond, t, g.taken); cl != nil && !p.sharedNonlinear(cl) {
				p.clauses = append(p.clauses, cl)
			}
		}
		if fr.node == nil {
			break
		}
		b = fr.node.block
		fr = fr.parent
	}
}

// sharedNonlinear reports whether clause cl speaks only of values both
// threads share and has a product of them (n*n <= len(a), a size check):
// such a fact rarely separates two threads, and its case splits cost more
// than the rest of the problem, so path conditions of this kind are left
// out (which only widens what the solver may find).
func (p *problem) sharedNonlinear(cl clause) bool {
	nonlinear := false
	for _, alt := range cl {
		for _, c := range alt {
			if !p.isSharedPoly(c.p) {
				return false
			}
			nonlinear = nonlinear || c.p.degree() > 1
		}
	}
	return nonlinear
}

// ---- the pair question ----

func (p *problem) compValue(c comp, t int) poly {
	if c.any {
		p.approx = true
		return p.aux(false, t)
	}
	v := constPoly(c.k)
	for _, r := range c.terms {
		v = add(v, p.eval(r.fr, r.v, t))
	}
	// An index in range: the access would have trapped otherwise.
	if !c.field {
		if c.n > 0 {
			p.base = append(p.base, ge(v), lt(v, constPoly(c.n)))
		}
		// The length of a global slice only when the index is linear: with
		// products it costs more than it separates.
		if c.lenParam >= 0 && v.degree() <= 1 {
			p.base = append(p.base, ge(v), lt(v, p.v(varKey{kind: vLen, dim: c.lenParam})))
		}
	}
	return v
}

// outcome of one pair question.
type outcome struct {
	race    bool
	witness string // a concrete collision, when one was found
	threads [2]string
	elems   [2]string
	params  string   // scalar parameter values of the witness (witness.go)
	guard   []string // integer parameters that must be ≥ 1 to exclude it (witness.go)
}

func (k *kernelAn) checkPair(a, b *access, start *node, cross bool) outcome {
	p := &problem{k: k, cross: cross, na: a.node, nb: b.node, varIdx: map[varKey]lincon.Var{},
		memo: map[memoKey]poly{}, instance: map[*node]bool{}, divs: map[string][2]poly{}}
	if !cross {
		p.r = k.region(start)
		if start == nil {
			p.starts = []*node{k.g.entry}
		} else {
			p.starts = start.succs
		}
	}
	// Two phis of one pointer swap name different arrays at one execution
	// of their block (phigroup.go).
	if !cross && a.via != nil && b.via != nil && a.via != b.via && a.viaAt != nil &&
		a.via.Block() == b.via.Block() && a.viaAt == b.viaAt && p.sameInstance(a.viaAt) {
		return outcome{}
	}
	// Distinct threads: in one block, different thread indices; across
	// blocks, different block indices. An access paired with itself
	// builds the same constraints for either thread (same node, same
	// index, same path), so the problem is symmetric in the two threads
	// and a collision with the second thread first is the mirror of one
	// with the first thread first: only thread 1 < thread 2
	// (lexicographically over the dimensions) needs deciding, which
	// halves the search for a self pair.
	var distinct clause
	var same []cons // the earlier dimensions, equal in a lexicographic order
	for d := 0; d < k.shape.Dims; d++ {
		var x, y poly
		if cross {
			if k.shape.Grid[d] == 1 {
				continue
			}
			x, y = p.bid(1, d), p.bid(2, d)
		} else {
			if k.shape.Block[d] == 1 {
				continue
			}
			x, y = p.tid(1, d), p.tid(2, d)
		}
		if a == b {
			distinct = append(distinct, append(slices.Clip(same), lt(x, y)))
			same = append(same, eq(sub(x, y)))
		} else {
			distinct = append(distinct, []cons{lt(x, y)}, []cons{lt(y, x)})
		}
	}
	if len(distinct) == 0 {
		return outcome{}
	}
	p.clauses = append(p.clauses, distinct)
	if cross {
		for d := 0; d < k.shape.Dims; d++ {
			p.tid(1, d)
			p.tid(2, d)
		}
	}
	p.addPathConds(a.node, 1)
	p.addPathConds(b.node, 2)
	p.addBranchConds(a.node, 1)
	p.addBranchConds(b.node, 2)
	n := min(len(a.comps), len(b.comps))
	ia := make([]poly, n)
	ib := make([]poly, n)
	for i := 0; i < n; i++ {
		ia[i] = p.compValue(a.comps[i], 1)
		ib[i] = p.compValue(b.comps[i], 2)
		p.base = append(p.base, eq(sub(ia[i], ib[i])))
	}
	if debugHook != nil {
		debugHook(p)
	}
	lp := p.linearize()
	verdict, model := p.k.solve(lp)
	if verdict == lincon.Infeasible {
		return outcome{}
	}
	out := outcome{race: true}
	if verdict == lincon.Feasible && p.genuine(model) {
		out.witness = "exact"
		if p.approx {
			out.witness = "example"
		}
		out.threads[0] = p.threadName(model, 1)
		out.threads[1] = p.threadName(model, 2)
		out.elems[0] = k.elemText(a, ia, model)
		out.elems[1] = k.elemText(b, ib, model)
		out.params = p.paramText(model)
		if out.witness == "exact" {
			out.guard = p.degenerateGuard(model)
		}
	}
	return out
}

func (p *problem) linearize() *lincon.Problem {
	lz := &linearizer{pb: p, atoms: map[string]lincon.Var{}}
	lp := &lincon.Problem{}
	for _, c := range p.base {
		lp.Base = append(lp.Base, lz.lin(c))
	}
	for _, cl := range p.clauses {
		var alts [][]lincon.Constraint
		for _, alt := range cl {
			var cs []lincon.Constraint
			for _, c := range alt {
				cs = append(cs, lz.lin(c))
			}
			alts = append(alts, cs)
		}
		lp.Clauses = append(lp.Clauses, alts)
	}
	lp.Clauses = append(lp.Clauses, lz.clauses...)
	lp.Base = append(lp.Base, lz.base...)
	lp.NumVars = len(p.vars)
	return lp
}

// genuine reports whether model satisfies the polynomial constraints
// themselves, not only their linear relaxation.
func (p *problem) genuine(m []int64) bool {
	for _, c := range p.base {
		if !c.holds(m) {
			return false
		}
	}
	for _, cl := range p.clauses {
		if !cl.holds(m) {
			return false
		}
	}
	return true
}

func (p *problem) threadName(m []int64, t int) string {
	var xs []string
	for d := 0; d < p.k.shape.Dims; d++ {
		xs = append(xs, strconv.FormatInt(p.tid(t, d).eval(m), 10))
	}
	name := "thread " + xs[0]
	if len(xs) > 1 {
		name = "thread (" + strings.Join(xs, ",") + ")"
	}
	if p.cross {
		var bs []string
		for d := 0; d < p.k.shape.Dims; d++ {
			bs = append(bs, strconv.FormatInt(p.bid(t, d).eval(m), 10))
		}
		if len(bs) == 1 {
			name += " of block " + bs[0]
		} else {
			name += " of block (" + strings.Join(bs, ",") + ")"
		}
	}
	return name
}

func (k *kernelAn) elemText(a *access, idx []poly, m []int64) string {
	var b strings.Builder
	b.WriteString(k.rootName(a.root))
	for i, c := range a.comps {
		switch {
		case c.field && c.fname != "":
			b.WriteString("." + c.fname)
		case c.field:
			fmt.Fprintf(&b, ".field%d", c.k)
		case c.any || i >= len(idx):
			b.WriteString("[…]")
		default:
			fmt.Fprintf(&b, "[%d]", idx[i].eval(m))
		}
	}
	return b.String()
}

// debugHook, when set by a test, sees every pair problem.
var debugHook func(*problem)

func itoa(x int64) string { return strconv.FormatInt(x, 10) }
