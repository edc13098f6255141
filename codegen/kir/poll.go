package kir

import (
	"math"
	mathbits "math/bits"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// PollLoops makes every loop the IR cannot prove finite poll the launch's
// stop word: the loop's header gets an OpPoll and a branch to a trap with
// gpuabi.TrapDeadline, taken once the host has set the word (its deadline
// passed). A kernel that never ends (for {}, or a loop waiting on a flag
// that stays 0) is then stopped on every backend, and since a poll reads
// memory afresh, no driver may delete such a loop as one without effects,
// which Go's meaning (the loop does not end) forbids too.
//
// A loop is proved finite, and costs nothing, when it is counted (see
// finiteLoop); every other loop pays one volatile load of a word that
// stays in cache per iteration. The pass runs last, after the loop
// optimizations (which expect a header's own exit test), and when
// optimization is off. A loop that polls already is left alone. Every loop
// is judged on the graph as it comes, with one dominator tree, before any
// header is split. It returns how many loops it made poll.
func PollLoops(f *Func) int {
	dom := Dominators(f)
	var unproved []*Loop
	for _, l := range NaturalLoops(f, dom) {
		if !finiteLoop(l, dom) && !polls(l.Header) {
			unproved = append(unproved, l)
		}
	}
	for _, l := range unproved {
		pollHeader(f, l)
	}
	return len(unproved)
}

// polls reports whether block b starts with a poll.
func polls(b *Block) bool {
	for _, v := range b.Values {
		if v.Op == OpPoll {
			return true
		}
	}
	return false
}

// pollHeader splits l's header after its phis: the header polls and goes
// on to a new block holding the rest of its values and its terminator, or
// to a deadline trap at the loop's position.
func pollHeader(f *Func, l *Loop) {
	h := l.Header
	rest := f.NewBlock(h.Kind, h.Comment)
	phis := len(h.Phis())
	rest.Values = h.Values[phis:]
	h.Values = h.Values[:phis:phis]
	for _, v := range rest.Values {
		v.Block = rest
	}
	rest.Term, rest.Cond, rest.Trap, rest.Succs = h.Term, h.Cond, h.Trap, h.Succs
	for _, s := range rest.Succs {
		for i, p := range s.Preds {
			if p == h {
				s.Preds[i] = rest
			}
		}
	}
	h.Succs, h.Cond, h.Trap = nil, nil, Trap{}
	poll := f.NewValue(h, OpPoll, TBool)
	trap := f.NewBlock(BlockPlain, "trap: deadline")
	trap.TrapWith(Trap{Code: gpuabi.TrapDeadline, Where: loopPos(f, l)})
	h.Branch(poll, trap, rest)
}

// loopPos is the position of l's Go statement, as the lowering recorded it
// for the header (or for another block of the loop, when a pass made a new
// header), else the kernel's.
func loopPos(f *Func, l *Loop) string {
	if p, ok := f.LoopPos[l.Header]; ok {
		return p
	}
	for _, b := range f.Blocks {
		if p, ok := f.LoopPos[b]; ok && l.Blocks[b] {
			return p
		}
	}
	return f.Pos
}

// finiteLoop reports whether loop l is counted: a block that every
// iteration runs leaves the loop on a comparison of a basic induction
// variable (or its next value) with a loop-invariant bound, and the
// variable steps toward the bound by a known amount without wrapping
// around before it passes it (a wrap-around would be a loop that never
// ends in Go too, so it must poll):
//
//   - a strict comparison (i < n, i > n) with a step of 1 (or -1) ends
//     for every bound;
//   - a larger constant step (at most 2^16), or a step of the launch's
//     extents (a grid-stride loop, below 2^44), ends when the bound is a
//     constant far enough from the end of the variable's type, and is
//     taken as ending for a 64-bit variable: it wraps around only for a
//     bound within 2^44 of 2^63 (or 2^64), which no slice length or
//     element count reaches, and such a loop is not polled;
//   - a non-strict comparison (i <= n) with a step of ±1 ends when the
//     bound is a constant short of the type's end;
//   - a variable that halves or doubles ends as geometricExit says.
//
// The test may be negated or one of a conjunction, and a bound the loop
// recomputes from invariants counts as invariant.
func finiteLoop(l *Loop, dom *DomTree) bool {
	h := l.Header
	if len(l.Latches) != 1 || len(h.Preds) != 2 {
		return false
	}
	li := 0 // the latch's edge into the header
	if h.Preds[1] == l.Latches[0] {
		li = 1
	}
	for b := range l.Blocks {
		if b.Term != TermBranch || l.Blocks[b.Succs[0]] == l.Blocks[b.Succs[1]] || !dom.Dominates(b, l.Latches[0]) {
			continue
		}
		if countedExit(l, li, b.Cond, l.Blocks[b.Succs[0]]) {
			return true
		}
	}
	return false
}

// countedExit reports whether a branch on c out of l (which goes on while
// c is on) ends the loop in a bounded number of iterations (finiteLoop's
// rules): c is a comparison, its negation, or a conjunction (of tests the
// loop goes on while all hold) one of whose tests ends it.
func countedExit(l *Loop, li int, c *Value, on bool) bool {
	switch {
	case c.Op == OpNot:
		return countedExit(l, li, c.Args[0], !on)
	case c.Op == OpAnd && on && c.Type == TBool:
		return countedExit(l, li, c.Args[0], on) || countedExit(l, li, c.Args[1], on)
	case !c.Op.IsCompare():
		return false
	}
	op := c.Op
	if !on { // the loop goes on while the test fails
		op = negatedCompare[op]
	}
	x, bound := c.Args[0], c.Args[1]
	if !invariantIn(l, bound, 0) {
		x, bound = bound, x
		op = swappedCompare[op]
	}
	if !invariantIn(l, bound, 0) {
		return false
	}
	if x.Op == OpConvert && x.Type.Kind.Bits() == 32 && x.Args[0].Type.Kind.Bits() == 64 {
		x = x.Args[0] // a test NarrowIndices narrowed: it proved x fits
	}
	if geometricExit(l, li, x, op, bound) {
		return true
	}
	if op == OpNe || op == OpEq {
		return false
	}
	step, ok := ivStep(l, li, x)
	if !ok {
		return false
	}
	k := x.Type.Kind
	switch {
	case step.unit == 0:
		return false
	case (op == OpLt || op == OpLe) != (step.unit > 0):
		return false // stepping away from the bound
	case op == OpLt || op == OpGt:
		return step.unit*step.unit == 1 && !step.dims || boundedFar(bound, k, step)
	}
	return step.unit*step.unit == 1 && !step.dims && bound.Op == OpConst && !atTypeEnd(bound, k)
}

// swappedCompare maps a comparison x op y to the one of y op' x that
// holds alike (one map for every call, as negatedCompare).
var swappedCompare = map[Op]Op{OpLt: OpGt, OpLe: OpGe, OpGt: OpLt, OpGe: OpLe, OpEq: OpEq, OpNe: OpNe}

// ivStepSum is the sum of an induction variable's steps: unit is the
// constant step (or, with dims, the sign: a product of the launch's
// extents, at least 1 and below 2^44).
type ivStepSum struct {
	unit int64
	dims bool
}

// geometricExit reports whether the loop, going on while x op bound,
// ends because x is a basic induction variable that halves (x >>= c,
// x /= c) toward a test x > 0, x >= 1 or x != 0 (not for an arithmetic
// shift, which stops at -1), or doubles (x *= c, x <<= c) from a positive
// constant toward a test x < bound on 64 bits (finiteLoop says why 64).
func geometricExit(l *Loop, li int, x *Value, op Op, bound *Value) bool {
	if x.Op != OpPhi || x.Block != l.Header {
		return false
	}
	op2, k := geometricStep(x, x.Args[li])
	if k == nil {
		return false
	}
	c := signedConst(k)
	switch op2 {
	case OpShr, OpDiv:
		if c < 1 || op2 == OpDiv && c < 2 || bound.Op != OpConst {
			return false
		}
		b := signedConst(bound)
		return op == OpGt && b == 0 || op == OpGe && b == 1 ||
			op == OpNe && b == 0 && (op2 == OpDiv || !x.Type.Kind.IsSigned())
	case OpMul, OpShl:
		init := x.Args[1-li]
		if c < 1 || op2 == OpMul && c < 2 || init.Op != OpConst || signedConst(init) < 1 {
			return false
		}
		return op == OpLt && x.Type.Kind.Bits() == 64
	}
	return false
}

// geometricStep returns the operation and constant of next = x op k (or
// k * x), or of that operation narrowed to 32 bits by NarrowIndices:
// convert(convert(x) op k). k is nil when next is neither.
func geometricStep(x, next *Value) (Op, *Value) {
	if next.Op == OpConvert && next.Args[0].Type.Kind.Bits() == 32 {
		in := next.Args[0]
		for _, a := range in.Args {
			if a.Op == OpConvert && a.Args[0] == x {
				return constOperand(in, a)
			}
		}
		return OpInvalid, nil
	}
	return constOperand(next, x)
}

// constOperand returns v's operation and its constant operand when v is
// y op k, or k * y.
func constOperand(v, y *Value) (Op, *Value) {
	if len(v.Args) != 2 {
		return OpInvalid, nil
	}
	switch {
	case v.Args[0] == y && v.Args[1].Op == OpConst:
		return v.Op, v.Args[1]
	case v.Op == OpMul && v.Args[1] == y && v.Args[0].Op == OpConst:
		return v.Op, v.Args[0]
	}
	return OpInvalid, nil
}

// ivStep returns the step of x, a basic induction variable of l's header,
// the next value of one (iv plus its steps), or, when 64 bits wide, one
// plus an invariant (an unrolled loop's test of its last iteration).
func ivStep(l *Loop, li int, x *Value) (ivStepSum, bool) {
	if x.Op == OpAdd && x.Type.Kind.Bits() == 64 && x.Args[0].Op == OpPhi && loopInvariant(l, x.Args[1]) {
		x = x.Args[0]
	}
	iv := x
	for iv.Op != OpPhi {
		prev, _, ok := stepBack(l, iv)
		if !ok {
			return ivStepSum{}, false
		}
		iv = prev
	}
	if iv.Block != l.Header {
		return ivStepSum{}, false
	}
	var sum ivStepSum
	onChain := x == iv
	for y, n := iv.Args[li], 0; y != iv; n++ {
		prev, s, ok := stepBack(l, y)
		if !ok || n == 64 {
			return ivStepSum{}, false
		}
		onChain = onChain || y == x
		sum.unit += s.unit
		sum.dims = sum.dims || s.dims
		y = prev
	}
	if !onChain || sum.dims && sum.unit < 0 {
		return ivStepSum{}, false
	}
	if sum.dims {
		sum.unit = 1
	}
	return sum, true
}

// stepBack undoes one step of an induction variable: v = prev + step or
// prev - step with step invariant in l (a constant from -2^16 to 2^16, or
// a launchExtent, added, which is invariant wherever it is computed), or that add narrowed to 32 bits by
// NarrowIndices (which proved it does not overflow):
// convert(convert(prev) + step).
func stepBack(l *Loop, v *Value) (prev *Value, s ivStepSum, ok bool) {
	if v.Op == OpConvert && v.Args[0].Type.Kind.Bits() == 32 && (v.Args[0].Op == OpAdd || v.Args[0].Op == OpSub) {
		prev, s, ok = stepBack(l, v.Args[0])
		if !ok || prev.Op != OpConvert || prev.Args[0].Type != v.Type {
			return nil, s, false
		}
		return prev.Args[0], s, true
	}
	if (v.Op != OpAdd && v.Op != OpSub) || !l.Blocks[v.Block] {
		return nil, s, false
	}
	invariant := func(v *Value) bool { return invariantIn(l, v, 0) }
	x, step := v.Args[0], v.Args[1]
	if v.Op == OpAdd && !invariant(step) {
		x, step = step, x
	}
	if !invariant(step) {
		return nil, s, false
	}
	switch {
	case step.Op == OpConst && signedConst(step) >= -1<<16 && signedConst(step) <= 1<<16:
		s.unit = signedConst(step)
		if v.Op == OpSub {
			s.unit = -s.unit
		}
	case v.Op == OpAdd && launchExtent(step, 0):
		s.dims = true
	default:
		return nil, s, false
	}
	return x, s, true
}

// invariantIn reports whether v has one value in every iteration of l:
// defined outside it, a constant, or a pure operation (no load, no phi) of
// such values, up to a small depth (a bound or step the loop recomputes).
func invariantIn(l *Loop, v *Value, depth int) bool {
	if loopInvariant(l, v) || v.Op == OpSpecial || v.Op == OpParam {
		return true
	}
	switch v.Op {
	case OpLoad, OpPhi, OpAtomic, OpPoll, OpLocal, OpStore, OpBarrier:
		return false
	}
	if depth == 4 || len(v.Args) == 0 {
		return false
	}
	for _, a := range v.Args {
		if !invariantIn(l, a, depth+1) {
			return false
		}
	}
	return true
}

// signedConst is constant c as a signed number of its width.
func signedConst(c *Value) int64 {
	bits := c.Type.Kind.Bits()
	return int64(c.Imm<<(64-bits)) >> (64 - bits)
}

// launchExtent reports whether v is a positive step below 2^44 made of
// the launch's extents: a block or grid extent (at least 1; at most 1024
// for a block, below 2^31 for a grid) converted to 64 bits, or a product
// of such extents and constants from 1 to 2^10 (or shifts by at most 10),
// in 64 bits or in 32 bits where the product fits them (what
// NarrowIndices makes of `BlockDim().X * 2`).
func launchExtent(v *Value, depth int) bool {
	m, ok := extentMax(v, depth)
	return ok && m < 1<<44
}

// extentMax is the largest value launchExtent's product v can take, and
// whether v is such a product (of at most four factors, none a product of
// constants alone).
func extentMax(v *Value, depth int) (uint64, bool) {
	if depth > 3 {
		return 0, false
	}
	switch v.Op {
	case OpSpecial:
		switch {
		case v.Index >= GridDimX:
			return 1<<31 - 1, true
		case v.Index >= BlockDimX:
			return 1024, true
		}
	case OpConvert, OpBitcast:
		if a := v.Args[0]; a.Type.Kind.Bits() == 32 && a.Type.Kind.IsInt() {
			m, ok := extentMax(a, depth)
			return m, ok && m < 1<<31 && fitsKind(m, v.Type.Kind)
		}
	case OpMul:
		a, okA := extentMax(v.Args[0], depth+1)
		b, okB := extentMax(v.Args[1], depth+1)
		hi, lo := mathbits.Mul64(a, b)
		return lo, okA && okB && hi == 0 && (v.Args[0].Op != OpConst || v.Args[1].Op != OpConst) && fitsKind(lo, v.Type.Kind)
	case OpShl:
		a, ok := extentMax(v.Args[0], depth+1)
		c := v.Args[1]
		return a << c.Imm, ok && c.Op == OpConst && c.Imm <= 10 && fitsKind(a<<c.Imm, v.Type.Kind)
	case OpConst:
		c := signedConst(v)
		return uint64(c), depth > 0 && c >= 1 && c <= 1<<10
	}
	return 0, false
}

// fitsKind reports whether the positive m is a value of integer kind k.
func fitsKind(m uint64, k Kind) bool {
	if !k.IsInt() {
		return false
	}
	bits := k.Bits()
	if k.IsSigned() {
		bits--
	}
	return bits >= 64 || m < 1<<bits
}

// boundedFar reports whether a variable of kind k that steps by s toward
// bound is taken not to wrap around before passing it: the variable is 64
// bits wide (finiteLoop says why), or the bound is a constant at least |s|
// from the end of the type.
func boundedFar(bound *Value, k Kind, s ivStepSum) bool {
	if k.Bits() == 64 {
		return true
	}
	return bound.Op == OpConst && !s.dims && fitsAfterStep(bound, k, s.unit)
}

// atTypeEnd reports whether constant c is the largest or smallest value
// of kind k.
func atTypeEnd(c *Value, k Kind) bool {
	return !fitsAfterStep(c, k, 1) || !fitsAfterStep(c, k, -1)
}

// fitsAfterStep reports whether constant c plus step stays in kind k.
func fitsAfterStep(c *Value, k Kind, step int64) bool {
	bits := k.Bits()
	if k.IsSigned() {
		x := signedConst(c)
		lo, hi := int64(math.MinInt64)>>(64-bits), int64(math.MaxInt64)>>(64-bits)
		return (step > 0 && x <= hi-step) || (step < 0 && x >= lo-step)
	}
	x := c.Imm
	hi := uint64(math.MaxUint64) >> (64 - bits)
	return (step > 0 && x <= hi-uint64(step)) || (step < 0 && x >= uint64(-step))
}
