package kir

import (
	"math"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
	"github.com/gpukvet/gpukvet/internal/targets"
)

// EliminateBoundsChecks removes the index checks that the conditions
// dominating them and the ranges of their operands prove: y[i] under
// `if i < len(y)` (or after `if i >= len(y) { return }`), a second y[i]
// after a first, tile[tid] of a [256]T shared array in a kernel with
// block=256, x[i] in `for i := start; i < len(x); i += stride` with start
// and stride non-negative. Every removal is sound: lengths are below 2^48
// (the launch ABI guarantees it), thread and block indices below their
// hardware limits, and arithmetic is checked for overflow.
func EliminateBoundsChecks(f *Func) int {
	p := newProver(f, Dominators(f))
	removed := 0
	for _, b := range f.Blocks {
		idx, length, ok := indexCheck(b)
		if !ok || !p.dom.reachable(b) {
			continue
		}
		if p.provesIndex(idx, length, b) || p.guardsProve(idx, length, b) {
			trap := b.Succs[1]
			b.Term, b.Cond, b.Succs = TermJump, nil, b.Succs[:1]
			trap.Preds = removeBlock(trap.Preds, b)
			removed++
		}
	}
	if removed > 0 {
		RemoveUnreachable(f)
		RemoveDead(f)
	}
	return removed
}

// newProver returns a prover of f's value ranges, with f's dominator tree
// dom.
func newProver(f *Func, dom *DomTree) *prover {
	return &prover{f: f, dom: dom, memo: map[rangeKey]interval{}, busy: map[rangeKey]bool{}}
}

func (t *DomTree) reachable(b *Block) bool { return t.order[b.Index] >= 0 }

func removeBlock(bs []*Block, b *Block) []*Block {
	out := bs[:0]
	for _, x := range bs {
		if x != b {
			out = append(out, x)
		}
	}
	return out
}

// indexCheck matches a block ending in the check the lowering emits for
// an index: branch (u64(idx) < u64(len)) to the access, else to a trap.
func indexCheck(b *Block) (idx, length *Value, ok bool) {
	if b.Term != TermBranch || len(b.Succs) != 2 {
		return nil, nil, false
	}
	t := b.Succs[1]
	if t.Term != TermTrap || t.Trap.Code != gpuabi.TrapIndex || len(t.Preds) != 1 {
		return nil, nil, false
	}
	return unsignedLess(b.Cond)
}

// unsignedLess matches u64(a) < u64(b) of two signed values.
func unsignedLess(c *Value) (a, b *Value, ok bool) {
	if c.Op != OpLt || c.Args[0].Op != OpBitcast || c.Args[1].Op != OpBitcast || c.Args[0].Type.Kind != U64 {
		return nil, nil, false
	}
	return c.Args[0].Args[0], c.Args[1].Args[0], true
}

// interval is an inclusive range of signed values.
type interval struct{ lo, hi int64 }

var full = interval{math.MinInt64, math.MaxInt64}

// MaxLen bounds every slice length at run time (device memory is far below
// 2^48 bytes); the launch code refuses longer slices.
const MaxLen = 1 << 48

type rangeKey struct {
	v *Value
	b *Block
}

type prover struct {
	f     *Func
	dom   *DomTree
	memo  map[rangeKey]interval
	busy  map[rangeKey]bool
	hyp   map[*Value]interval
	depth int
	// exts lists each 32-bit value's sign extensions to 64 bits, built
	// on first use (guardbound.go's widener).
	exts map[*Value][]*Value
	// dims lists each special register's values and their conversions,
	// by register (specials).
	dims map[int][]*Value
}

// fact is a condition known to hold: a < b (strict) or a <= b, signed, or
// unsigned for u64 comparisons of signed values.
type fact struct {
	a, b             *Value
	strict, unsigned bool
}

// facts returns the conditions that hold at the start of b: those of the
// branches whose taken edge dominates b.
func (p *prover) facts(b *Block) []fact {
	var out []fact
	for x := b; ; {
		d := p.dom.Idom(x)
		if d == nil || d == x {
			break
		}
		if d.Term == TermBranch && d.Succs[0] != d.Succs[1] {
			for i, s := range d.Succs {
				if s == x && p.edgeDominates(d, x) {
					out = appendFacts(out, d.Cond, i == 0)
				}
			}
		}
		x = d
	}
	return out
}

// edgeDominates reports whether every path into s comes through d → s (s's
// other predecessors are back edges from blocks s dominates).
func (p *prover) edgeDominates(d, s *Block) bool {
	n := 0
	for _, q := range s.Preds {
		if q == d {
			n++
		} else if !p.dom.Dominates(s, q) {
			return false
		}
	}
	return n == 1
}

// appendFacts appends what condition c says when it holds (or not): the
// facts of each conjunct of an And, left to right. It keeps its own stack:
// a chain of conjunctions is as long as the source writes it.
func appendFacts(out []fact, c *Value, holds bool) []fact {
	type cond struct {
		c     *Value
		holds bool
	}
	work := []cond{{c, holds}}
	for len(work) > 0 {
		c, holds := work[len(work)-1].c, work[len(work)-1].holds
		work = work[:len(work)-1]
		for c.Op == OpNot && c.Type.Kind == Bool {
			c, holds = c.Args[0], !holds
		}
		if c.Op == OpAnd && c.Type.Kind == Bool && holds {
			work = append(work, cond{c.Args[1], true}, cond{c.Args[0], true})
			continue
		}
		out = appendFact(out, c, holds)
	}
	return out
}

// negatedCompare maps a comparison to the one that holds when it does not
// (one map for every call: building it per fact cost the prover most of its
// time on large kernels).
var negatedCompare = map[Op]Op{OpLt: OpGe, OpLe: OpGt, OpGt: OpLe, OpGe: OpLt, OpEq: OpNe, OpNe: OpEq}

// appendFact appends what c, a condition other than a conjunction or a
// negation, says when it holds (or not).
func appendFact(out []fact, c *Value, holds bool) []fact {
	if a, b, ok := unsignedLess(c); ok {
		if holds {
			out = append(out, fact{a: a, b: b, strict: true, unsigned: true})
		}
		return out
	}
	if !c.Op.IsCompare() || !c.Args[0].Type.Kind.IsSigned() {
		return out
	}
	a, b := c.Args[0], c.Args[1]
	op := c.Op
	if !holds {
		op = negatedCompare[op]
	}
	switch op {
	case OpLt:
		out = append(out, fact{a: a, b: b, strict: true})
	case OpLe:
		out = append(out, fact{a: a, b: b})
	case OpGt:
		out = append(out, fact{a: b, b: a, strict: true})
	case OpGe:
		out = append(out, fact{a: b, b: a})
	case OpEq:
		out = append(out, fact{a: a, b: b}, fact{a: b, b: a})
	}
	return out
}

// provesIndex reports whether 0 <= idx < length holds at the end of b.
func (p *prover) provesIndex(idx, length *Value, b *Block) bool {
	for _, f := range p.facts(b) {
		if f.a == idx && f.b == length && f.strict && (f.unsigned || p.rng(idx, b).lo >= 0) {
			return true
		}
	}
	r := p.rng(idx, b)
	if r.lo < 0 {
		return false
	}
	return r.hi < p.rng(length, b).lo || p.atMost(idx, length, 1, b, 0)
}

// atMost reports whether x + k <= y holds at b, for a small constant k,
// from the facts dominating b and the operations x is computed by: in
// ring[i&(n-1)] under the guard n > 0 && len(ring) >= n, i&(n-1) <= n-1
// and n <= len(ring). Every step is exact: a bound it subtracts or adds
// is a small constant and the value it applies to is ranged away from
// the ends of int64, so nothing wraps.
func (p *prover) atMost(x, y *Value, k int64, b *Block, depth int) bool {
	const small = 1 << 20
	if depth > 6 || k > small || k < -small {
		return false
	}
	if x == y && k <= 0 {
		return true
	}
	if rx, ry := p.rng(x, b), p.rng(y, b); rx.hi <= math.MaxInt64-small && ry.lo >= math.MinInt64+small && rx.hi+k <= ry.lo {
		return true
	}
	for _, f := range p.facts(b) {
		if f.a != x || f.unsigned {
			continue
		}
		s := int64(0)
		if f.strict {
			s = 1
		}
		if p.atMost(f.b, y, k-s, b, depth+1) {
			return true
		}
	}
	return p.atMostOp(x, y, k, b, depth)
}

// atMostOp is atMost through the operation that computes x.
func (p *prover) atMostOp(x, y *Value, k int64, b *Block, depth int) bool {
	if x.Type.Kind != I64 || len(x.Args) != 2 {
		return false
	}
	u, v := x.Args[0], x.Args[1]
	switch x.Op {
	case OpAnd: // x <= each non-negative operand
		return p.rng(v, b).lo >= 0 && p.atMost(v, y, k, b, depth+1) ||
			p.rng(u, b).lo >= 0 && p.atMost(u, y, k, b, depth+1)
	case OpRem: // 0 <= u % v < v for u >= 0 and v > 0
		return p.rng(u, b).lo >= 0 && p.rng(v, b).lo > 0 && p.atMost(v, y, k-1, b, depth+1)
	case OpSub, OpAdd: // u ± c, away from wrap-around
		if v.Op != OpConst {
			return false
		}
		c := v.Int()
		if x.Op == OpSub {
			c = -c
		}
		r := p.rng(u, b)
		if c < -(1<<20) || c > 1<<20 || r.lo < math.MinInt64/2 || r.hi > math.MaxInt64/2 {
			return false
		}
		return p.atMost(u, y, k+c, b, depth+1)
	}
	return false
}

// rng returns a range that v's value lies in at block b.
func (p *prover) rng(v *Value, b *Block) interval {
	key := rangeKey{v, b}
	if r, ok := p.memo[key]; ok {
		return r
	}
	if p.busy[key] {
		return full
	}
	if p.depth > 24 {
		return full
	}
	p.busy[key] = true
	p.depth++
	var r interval
	if h, ok := p.hyp[v]; ok {
		r = h // a loop phi's hypothesis, being checked by loopPhi
	} else {
		r = p.base(v, b)
	}
	for _, f := range p.facts(b) {
		switch {
		case f.a == v && !f.unsigned:
			hb := p.rngNoFacts(f.b)
			if f.strict && hb.hi > math.MinInt64 {
				hb.hi--
			}
			r.hi = min(r.hi, hb.hi)
		case f.b == v && !f.unsigned:
			la := p.rngNoFacts(f.a)
			if f.strict && la.lo < math.MaxInt64 {
				la.lo++
			}
			r.lo = max(r.lo, la.lo)
		case f.a == v && f.unsigned:
			if hb := p.rngNoFacts(f.b); hb.lo >= 0 {
				r.lo = max(r.lo, 0)
				r.hi = min(r.hi, hb.hi-1)
			}
		}
	}
	p.depth--
	delete(p.busy, key)
	if r.lo > r.hi {
		r = full // contradictory facts: an unreachable point; claim nothing
	}
	if _, ok := p.hyp[v]; !ok {
		p.memo[key] = r
	}
	return r
}

// rngNoFacts is the range of v at its own definition.
func (p *prover) rngNoFacts(v *Value) interval {
	if v.Block == nil {
		return full
	}
	return p.rng(v, v.Block)
}

// base is v's range from its operation, with operands ranged at b.
func (p *prover) base(v *Value, b *Block) interval {
	k := v.Type.Kind
	if !k.IsInt() {
		return full
	}
	arg := func(i int) interval { return p.rng(v.Args[i], b) }
	switch v.Op {
	case OpConst:
		if k.IsSigned() || int64(v.Imm) >= 0 {
			n := int64(v.Imm)
			return interval{n, n}
		}
	case OpParam:
		if p.f.Params[v.Index].Len {
			return interval{0, MaxLen}
		}
	case OpSpecial:
		return p.special(v.Index, b)
	case OpConvert:
		src := v.Args[0]
		r := p.rng(src, b)
		switch sk := src.Type.Kind; {
		case !sk.IsInt():
		case !sk.IsSigned() && sk.Bits() < 64:
			return interval{max(r.lo, 0), min(r.hi, int64(1)<<sk.Bits()-1)}
		case sk.IsSigned() && (k.Bits() >= sk.Bits()):
			return r
		}
	case OpBitcast:
		if r := arg(0); r.lo >= 0 {
			return r
		}
	case OpAdd:
		return addRange(arg(0), arg(1))
	case OpSub:
		y := arg(1)
		if y.lo == math.MinInt64 {
			return full
		}
		r := addRange(arg(0), interval{-y.hi, -y.lo})
		// x - y under y <= x (or y < x) is at least 0 (or 1).
		for _, f := range p.facts(b) {
			if f.a == v.Args[1] && f.b == v.Args[0] && !f.unsigned {
				lo := int64(0)
				if f.strict {
					lo = 1
				}
				if r == full {
					r = interval{lo, math.MaxInt64}
					if x := arg(0); x.hi >= 0 {
						r.hi = x.hi
					}
				}
				r.lo = max(r.lo, lo)
			}
		}
		return r
	case OpMul:
		x, y := arg(0), arg(1)
		if x.lo >= 0 && y.lo >= 0 && (x.hi == 0 || y.hi <= math.MaxInt64/x.hi) {
			return interval{x.lo * y.lo, x.hi * y.hi}
		}
	case OpDiv:
		x, y := arg(0), arg(1)
		if x.lo >= 0 && y.lo > 0 {
			return interval{x.lo / y.hi, x.hi / y.lo}
		}
	case OpRem:
		x, y := arg(0), arg(1)
		if x.lo >= 0 && y.lo > 0 {
			return interval{0, min(x.hi, y.hi-1)}
		}
	case OpAnd:
		x, y := arg(0), arg(1)
		if y.lo >= 0 {
			return interval{0, y.hi}
		}
		if x.lo >= 0 {
			return interval{0, x.hi}
		}
	case OpShr:
		x, s := arg(0), arg(1)
		if x.lo >= 0 && s.lo >= 0 && s.hi < 64 {
			return interval{x.lo >> s.hi, x.hi >> s.lo}
		}
	case OpSelect:
		x, y := arg(1), arg(2)
		return interval{min(x.lo, y.lo), max(x.hi, y.hi)}
	case OpPhi:
		if p.inLoop(v) {
			return p.loopPhi(v)
		}
		r := interval{math.MaxInt64, math.MinInt64}
		for i, a := range v.Args {
			ar := p.rng(a, v.Block.Preds[i])
			r = interval{min(r.lo, ar.lo), max(r.hi, ar.hi)}
		}
		return r
	}
	return full
}

// loopPhi finds an inductive range of a phi that a loop carries: the range
// of its entry values, or that range widened upward, or downward to zero, or
// downward without bound, whichever first contains every value the back
// edges bring when the phi itself is assumed to lie in it.
func (p *prover) loopPhi(v *Value) interval {
	init := interval{math.MaxInt64, math.MinInt64}
	for i, a := range v.Args {
		if q := v.Block.Preds[i]; !p.dom.Dominates(v.Block, q) {
			ar := p.rng(a, q)
			init = interval{min(init.lo, ar.lo), max(init.hi, ar.hi)}
		}
	}
	if init.lo > init.hi {
		return full
	}
	if p.hyp == nil {
		p.hyp = map[*Value]interval{}
	}
	// First a few rounds of growing the entry range by what the back edges
	// bring (src = 1 - src stays in [0, 1]), then the widenings.
	h := init
	for range 4 {
		grown, ok := p.backEdges(v, h)
		if ok && grown == h {
			return h
		}
		if !ok {
			break
		}
		h = grown
	}
	hyps := []interval{{init.lo, math.MaxInt64}}
	if init.lo >= 0 {
		hyps = append(hyps, interval{0, init.hi})
	}
	hyps = append(hyps, interval{math.MinInt64, init.hi})
	for _, h := range hyps {
		saved := make(map[rangeKey]interval, len(p.memo))
		for k, r := range p.memo {
			saved[k] = r
		}
		p.hyp[v] = h
		ok := true
		for i, a := range v.Args {
			if q := v.Block.Preds[i]; p.dom.Dominates(v.Block, q) {
				if ar := p.rng(a, q); ar.lo < h.lo || ar.hi > h.hi {
					ok = false
					break
				}
			}
		}
		delete(p.hyp, v)
		// Ranges computed under the hypothesis are kept only if it held.
		if !ok {
			p.memo = saved
			continue
		}
		return h
	}
	return full
}

// backEdges returns the hull of h and the values v's back edges bring when
// v is assumed to lie in h (ok is false if one is unbounded). The memo is
// restored afterwards unless the hull equals h (h is then inductive).
func (p *prover) backEdges(v *Value, h interval) (interval, bool) {
	saved := make(map[rangeKey]interval, len(p.memo))
	for k, r := range p.memo {
		saved[k] = r
	}
	p.hyp[v] = h
	out := h
	ok := true
	for i, a := range v.Args {
		if q := v.Block.Preds[i]; p.dom.Dominates(v.Block, q) {
			ar := p.rng(a, q)
			if ar == full {
				ok = false
				break
			}
			out = interval{min(out.lo, ar.lo), max(out.hi, ar.hi)}
		}
	}
	delete(p.hyp, v)
	if !ok || out != h {
		p.memo = saved
	}
	return out, ok
}

// inLoop reports whether phi v merges a back edge.
func (p *prover) inLoop(v *Value) bool {
	for _, q := range v.Block.Preds {
		if p.dom.Dominates(v.Block, q) {
			return true
		}
	}
	return false
}

// special is the range of a special register: the block shape the kernel
// fixes, or else the limits the compiler enforces on every kernel
// (targets.Static: a thread index is below the threads of a block, a
// block index below the grid's extent).
func (p *prover) special(idx int, b *Block) interval {
	d := idx % 3
	lim := targets.Static
	switch idx / 3 {
	case 0: // tid
		if n := p.f.Block[d]; n > 0 {
			return interval{0, int64(n) - 1}
		}
		return interval{0, p.blockDimBound(d, b) - 1}
	case 2: // ntid
		if n := p.f.Block[d]; n > 0 {
			return interval{int64(n), int64(n)}
		}
		return interval{1, int64(lim.MaxThreadsPerBlock)}
	case 1: // ctaid
		return interval{0, int64(lim.MaxGrid[d]) - 1}
	default: // nctaid
		return interval{1, int64(lim.MaxGrid[d])}
	}
}

// blockDimBound bounds ntid.d at b: the hardware limit, or what a guard
// dominating b says of it (`if t.BlockDim().X != 256 { panic(...) }`),
// read from the ranges of ntid.d and of its conversions, which have its
// value wherever they are non-negative 32-bit values.
func (p *prover) blockDimBound(d int, b *Block) int64 {
	hi := int64(targets.Static.MaxThreadsPerBlock)
	for _, v := range p.specials()[BlockDimX+d] {
		// (A conversion narrower than 32 bits may drop ntid's bits.)
		if !p.dom.Dominates(v.Block, b) || !v.Type.Kind.IsInt() || v.Type.Kind.Bits() < 32 {
			continue
		}
		if r := p.rng(v, b); r.lo >= 0 && r.hi < hi {
			hi = r.hi
		}
	}
	return hi
}

// specials returns the values of each special register and their
// conversions, by register (p.dims), built on first use.
func (p *prover) specials() map[int][]*Value {
	if p.dims == nil {
		p.dims = map[int][]*Value{}
		for _, x := range p.f.Blocks {
			for _, v := range x.Values {
				switch {
				case v.Op == OpSpecial:
					p.dims[v.Index] = append(p.dims[v.Index], v)
				case (v.Op == OpBitcast || v.Op == OpConvert) && v.Args[0].Op == OpSpecial:
					p.dims[v.Args[0].Index] = append(p.dims[v.Args[0].Index], v)
				}
			}
		}
	}
	return p.dims
}

func addRange(x, y interval) interval {
	lo, hi := x.lo+y.lo, x.hi+y.hi
	if (y.lo < 0 && lo > x.lo) || (y.lo > 0 && lo < x.lo) || (y.hi > 0 && hi < x.hi) || (y.hi < 0 && hi > x.hi) {
		return full // overflow
	}
	return interval{lo, hi}
}
