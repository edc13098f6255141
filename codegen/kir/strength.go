package kir

import "fmt"

// StrengthReduce replaces index and address arithmetic that is affine in
// a basic induction variable by a derived induction variable. For a loop
// whose header holds iv = phi(init, iv+step), step loop-invariant, a
// value of the loop built from iv by additions and subtractions of
// invariant values, multiplications by invariant values, shifts by
// constants and a pointer offset from an invariant base (base +
// (iv+c)*stride, what x[(k0+ty)*n+col] becomes) is f(iv) with f affine.
// The pass gives it a phi of its own in the header, j = phi(f(init),
// j+f'), where f' (step times the product of the factors) is computed
// once in the preheader, and replaces the value by j: one add per
// iteration instead of the chain.
//
// It is exact in Go's wrapping arithmetic: all those operations are ring
// homomorphisms modulo 2^w in the width w of their kind (no conversion is
// crossed: a sign or zero extension of a 32-bit value that wraps is not
// affine in 64 bits), so j holds in every iteration the very bits the
// chain computed; a bounds check reading the value compares the exact
// index. Only the largest such values are reduced (those whose users are
// not themselves reducible), and only when their chain holds a
// multiplication by a non-constant value: reducing a chain of adds and
// constant scales costs ptxas registers and saves no time. It returns how
// many values it reduced.
func StrengthReduce(f *Func) int {
	dom := Dominators(f)
	n := 0
	for _, l := range NaturalLoops(f, dom) {
		pre, latch, pi, li, ok := preheader(l)
		if !ok {
			continue
		}
		for _, iv := range l.Header.Phis() {
			steps, ok := ivSteps(l, iv, li)
			if !ok {
				continue
			}
			n += reduceIV(f, l, pre, latch, pi, li, iv, steps)
		}
	}
	if n > 0 {
		RemoveDead(f)
	}
	return n
}

// ivSteps reports whether phi of l's header is a basic induction
// variable: phi(init, phi+s1+s2+...) with every s invariant in l (an
// unrolled loop adds its step once per copy of the body). It returns the
// s in order.
func ivSteps(l *Loop, phi *Value, li int) (steps []*Value, ok bool) {
	if phi.Op != OpPhi || !phi.Type.Kind.IsInt() {
		return nil, false
	}
	x := phi.Args[li]
	for n := 0; n < 64; n++ {
		if x == phi {
			return steps, len(steps) > 0
		}
		if x.Op != OpAdd || !l.Blocks[x.Block] {
			return nil, false
		}
		switch {
		case loopInvariant(l, x.Args[1]):
			steps = append(steps, x.Args[1])
			x = x.Args[0]
		case loopInvariant(l, x.Args[0]):
			steps = append(steps, x.Args[0])
			x = x.Args[1]
		default:
			return nil, false
		}
	}
	return nil, false
}

// ivReducer is reduceIV's view of one basic induction variable iv of loop
// l, iv = phi(init, iv+steps...) with init on edge pi of the header and
// the steps on edge li: which values of the loop are affine in iv, and the
// values it builds in the preheader for their reduced forms.
type ivReducer struct {
	f          *Func
	l          *Loop
	pre, latch *Block
	pi, li     int
	iv         *Value
	steps      []*Value
	affineMemo map[*Value]bool
	initMemo   map[*Value]*Value // a value's value in the first iteration
	stepMemo   map[*Value]*Value // a value's increase per iteration
	step       *Value            // the sum of steps, made when needed
	keys       map[*Value]string // exprKey's memo
}

// ivPlan is what reduceIV decided: the values given a phi of their own,
// in order, and the values that share the phi of an equal chain.
type ivPlan struct {
	reduce []*Value
	share  map[*Value]*Value // value → the reduced value it shares with
}

// reduceIV reduces the values of l affine in iv in three steps:
// candidates finds the values affine in iv and those of them used by a
// value that is not; planReduction picks the largest chains worth a
// register, equal chains sharing one; rewrite gives each a phi in the
// header, stepped in the latch, and points the uses at it.
func reduceIV(f *Func, l *Loop, pre, latch *Block, pi, li int, iv *Value, steps []*Value) int {
	r := &ivReducer{f: f, l: l, pre: pre, latch: latch, pi: pi, li: li, iv: iv, steps: steps,
		affineMemo: map[*Value]bool{iv: true}, initMemo: map[*Value]*Value{iv: iv.Args[pi]},
		stepMemo: map[*Value]*Value{}, keys: map[*Value]string{}}
	cands, reducible := r.candidates()
	if len(cands) == 0 {
		return 0
	}
	plan := r.planReduction(cands, reducible, usedOutside(f, reducible))
	if len(plan.reduce) == 0 {
		return 0
	}
	r.rewrite(plan)
	return len(plan.reduce)
}

// inv reports whether v is invariant in the loop.
func (r *ivReducer) inv(v *Value) bool { return loopInvariant(r.l, v) }

// out gives an invariant value for use in the preheader: a constant of
// the loop is copied there.
func (r *ivReducer) out(v *Value) *Value {
	if !r.l.Blocks[v.Block] {
		return v
	}
	return r.f.NewConst(r.pre, v.Type, v.Imm)
}

// affine reports whether v, a value of the loop, is affine in iv: built
// from it by additions and subtractions of invariant values,
// multiplications by invariant values, shifts by constants and a pointer
// offset from an invariant base.
func (r *ivReducer) affine(v *Value, depth int) bool {
	if ok, seen := r.affineMemo[v]; seen {
		return ok
	}
	r.affineMemo[v] = false // cycles through other phis are not affine
	ok := false
	if depth < 32 && r.l.Blocks[v.Block] && len(v.Args) == 2 {
		x, y := v.Args[0], v.Args[1]
		isInt := v.Type.Kind.IsInt()
		switch v.Op {
		case OpAdd, OpMul:
			if r.inv(x) {
				x, y = y, x
			}
			ok = isInt && r.inv(y) && !r.inv(x) && x.Type == v.Type && r.affine(x, depth+1)
		case OpSub:
			if isInt && x.Type == v.Type && y.Type == v.Type {
				switch {
				case r.inv(y) && !r.inv(x):
					ok = r.affine(x, depth+1)
				case r.inv(x) && !r.inv(y):
					ok = r.affine(y, depth+1)
				}
			}
		case OpShl:
			ok = isInt && x.Type == v.Type && y.Op == OpConst && !r.inv(x) && r.affine(x, depth+1)
		case OpPtrAdd:
			ok = r.inv(x) && !r.inv(y) && y.Type.Kind == I64 && r.affine(y, depth+1)
		}
	}
	r.affineMemo[v] = ok
	return ok
}

// candidates lists the values of the loop affine in iv (iv and other
// phis aside), in block order, and returns them as a set too.
func (r *ivReducer) candidates() (cands []*Value, reducible map[*Value]bool) {
	reducible = map[*Value]bool{}
	for _, b := range r.f.Blocks {
		if !r.l.Blocks[b] {
			continue
		}
		for _, v := range b.Values {
			if v != r.iv && v.Op != OpPhi && r.affine(v, 0) {
				reducible[v] = true
				cands = append(cands, v)
			}
		}
	}
	return cands, reducible
}

// usedOutside returns the reducible values that a value, branch or trap
// not itself reducible uses: a candidate all of whose users are reducible
// needs no phi of its own (its users' phis replace it).
func usedOutside(f *Func, reducible map[*Value]bool) map[*Value]bool {
	used := map[*Value]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for _, a := range v.Args {
				if reducible[a] && !reducible[v] {
					used[a] = true
				}
			}
		}
		if b.Cond != nil && reducible[b.Cond] {
			used[b.Cond] = true
		}
		for _, a := range b.Trap.Args {
			if a != nil && reducible[a] {
				used[a] = true
			}
		}
	}
	return used
}

// planReduction picks the candidates to reduce, in definition order
// (operands first): those used outside the chains whose work left in the
// loop (their operations, less those of operands already reduced) holds
// a multiplication by a non-constant value; the step of iv itself is not
// reduced. Equal chains in two places (a fast and a slow path) share one
// phi.
func (r *ivReducer) planReduction(cands []*Value, reducible, usedOutside map[*Value]bool) ivPlan {
	plan := ivPlan{share: map[*Value]*Value{}}
	planned := map[*Value]bool{}
	mulNC := map[*Value]bool{} // the work left holds a multiplication by a non-constant
	byKey := map[string]*Value{}
	next := r.iv.Args[r.li]
	for _, v := range cands {
		m := v.Op == OpMul && !(v.Args[0].Op == OpConst || v.Args[1].Op == OpConst)
		for _, a := range v.Args {
			if a != r.iv && !planned[a] && reducible[a] {
				m = m || mulNC[a]
			}
		}
		mulNC[v] = m
		if v == next || !usedOutside[v] || !m {
			continue
		}
		planned[v] = true
		key := r.exprKey(v)
		if first, ok := byKey[key]; ok {
			plan.share[v] = first
			continue
		}
		byKey[key] = v
		plan.reduce = append(plan.reduce, v)
	}
	return plan
}

// exprKey spells v's chain from iv, invariant values and constants, so
// that equal chains have equal keys.
func (r *ivReducer) exprKey(v *Value) string {
	if k, ok := r.keys[v]; ok {
		return k
	}
	var k string
	switch {
	case v.Op == OpConst:
		k = fmt.Sprintf("c%v:%x", v.Type, v.Imm)
	case v == r.iv || r.inv(v):
		k = fmt.Sprintf("v%d", v.ID)
	default:
		k = fmt.Sprintf("(%d %v %s %s)", v.Op, v.Type, r.exprKey(v.Args[0]), r.exprKey(v.Args[1]))
	}
	r.keys[v] = k
	return k
}

// rewrite gives each value plan reduces a phi j = phi(init, j+step) in
// the header, with its first value and its step computed in the
// preheader, and replaces every use of the planned values by their phis.
func (r *ivReducer) rewrite(plan ivPlan) {
	f := r.f
	repl := forwarding{}
	for _, v := range plan.reduce {
		j := f.NewPhi(r.l.Header, v.Type)
		s := r.stepOf(v)
		var jn *Value
		if v.Type.Kind == Ptr {
			jn = f.NewValue(r.latch, OpPtrAdd, v.Type, j, s)
		} else {
			jn = f.NewValue(r.latch, OpAdd, v.Type, j, s)
		}
		jn.Pos = v.Pos
		j.Args = make([]*Value, 2)
		j.Args[r.pi], j.Args[r.li] = r.initOf(v), jn
		repl[v] = j
	}
	for v, first := range plan.share {
		repl[v] = repl[first]
	}
	// The planned values are left without users (StrengthReduce removes
	// them).
	replaceUses(f, repl.find)
}

// initOf computes, in the preheader, v's value in the first iteration.
func (r *ivReducer) initOf(v *Value) *Value {
	if r.inv(v) {
		return r.out(v)
	}
	if x, ok := r.initMemo[v]; ok {
		return x
	}
	x := r.f.NewValue(r.pre, v.Op, v.Type, r.initOf(v.Args[0]), r.initOf(v.Args[1]))
	x.Imm, x.Index, x.NoFuse, x.Pos = v.Imm, v.Index, v.NoFuse, v.Pos
	r.initMemo[v] = x
	return x
}

// stepOf computes, in the preheader, how much v grows per iteration.
func (r *ivReducer) stepOf(v *Value) *Value {
	f, pre := r.f, r.pre
	if v == r.iv {
		if r.step == nil {
			r.step = r.out(r.steps[0])
			for _, s := range r.steps[1:] {
				r.step = f.NewValue(pre, OpAdd, v.Type, r.step, r.out(s))
			}
		}
		return r.step
	}
	if s, ok := r.stepMemo[v]; ok {
		return s
	}
	x, y := v.Args[0], v.Args[1]
	var s *Value
	switch v.Op {
	case OpAdd:
		if r.inv(x) {
			x = y
		}
		s = r.stepOf(x)
	case OpSub:
		if r.inv(y) {
			s = r.stepOf(x)
		} else {
			s = f.NewValue(pre, OpNeg, v.Type, r.stepOf(y))
		}
	case OpMul:
		if r.inv(x) {
			x, y = y, x
		}
		s = f.NewValue(pre, OpMul, v.Type, r.stepOf(x), r.out(y))
	case OpShl:
		s = f.NewValue(pre, OpShl, v.Type, r.stepOf(x), r.out(y))
	case OpPtrAdd:
		s = r.stepOf(y)
	}
	r.stepMemo[v] = s
	return s
}
