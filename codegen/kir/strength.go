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
// not themselves reducible), and only when their chain costs two or more
// operations or a multiplication by a non-constant value, so that the
// extra register buys work. It returns how many values it reduced.
func StrengthReduce(f *Func) int {
	dom := Dominators(f)
	n := 0
	for _, l := range NaturalLoops(f, dom) {
		pre, latch, pi, li, ok := loopShape(l)
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

// derived is what reduceIV knows of a value of the loop: whether it is
// affine in iv, and the cost of its chain inside the loop.
type derived struct {
	ok    bool
	ops   int  // operations of the chain inside the loop
	mulNC bool // a multiplication by a non-constant value
}

func reduceIV(f *Func, l *Loop, pre, latch *Block, pi, li int, iv *Value, steps []*Value) int {
	memo := map[*Value]derived{iv: {ok: true}}
	inv := func(v *Value) bool { return loopInvariant(l, v) }
	// out gives an invariant value for use in the preheader: a constant
	// of the loop is copied there.
	out := func(v *Value) *Value {
		if !l.Blocks[v.Block] {
			return v
		}
		return f.NewConst(pre, v.Type, v.Imm)
	}
	var of func(v *Value, depth int) derived
	of = func(v *Value, depth int) derived {
		if d, ok := memo[v]; ok {
			return d
		}
		memo[v] = derived{} // cycles through other phis are not affine
		var d derived
		if depth < 32 && l.Blocks[v.Block] && len(v.Args) == 2 {
			x, y := v.Args[0], v.Args[1]
			switch v.Op {
			case OpAdd, OpMul:
				if inv(x) {
					x, y = y, x
				}
				if v.Type.Kind.IsInt() && inv(y) && !inv(x) && x.Type == v.Type {
					if dx := of(x, depth+1); dx.ok {
						d = derived{ok: true, ops: dx.ops + 1, mulNC: dx.mulNC || v.Op == OpMul && y.Op != OpConst}
					}
				}
			case OpSub:
				if v.Type.Kind.IsInt() && x.Type == v.Type && y.Type == v.Type {
					switch {
					case inv(y) && !inv(x):
						if dx := of(x, depth+1); dx.ok {
							d = derived{ok: true, ops: dx.ops + 1, mulNC: dx.mulNC}
						}
					case inv(x) && !inv(y):
						if dy := of(y, depth+1); dy.ok {
							d = derived{ok: true, ops: dy.ops + 1, mulNC: dy.mulNC}
						}
					}
				}
			case OpShl:
				if v.Type.Kind.IsInt() && x.Type == v.Type && y.Op == OpConst && !inv(x) {
					if dx := of(x, depth+1); dx.ok {
						d = derived{ok: true, ops: dx.ops + 1, mulNC: dx.mulNC}
					}
				}
			case OpPtrAdd:
				if inv(x) && !inv(y) && y.Type.Kind == I64 {
					if dy := of(y, depth+1); dy.ok {
						d = derived{ok: true, ops: dy.ops + 1, mulNC: dy.mulNC}
					}
				}
			}
		}
		memo[v] = d
		return d
	}
	// Users of each value of the loop, to find the largest reducible ones.
	reducible := map[*Value]bool{}
	var cands []*Value
	for _, b := range f.Blocks {
		if !l.Blocks[b] {
			continue
		}
		for _, v := range b.Values {
			if v != iv && v.Op != OpPhi {
				if d := of(v, 0); d.ok {
					reducible[v] = true
					cands = append(cands, v)
				}
			}
		}
	}
	if len(cands) == 0 {
		return 0
	}
	// A candidate all of whose users are reducible needs no phi of its own
	// (its users' phis replace it); the step of iv itself is not reduced.
	usedOutside := map[*Value]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for _, a := range v.Args {
				if reducible[a] && !reducible[v] {
					usedOutside[a] = true
				}
			}
		}
		if b.Cond != nil && reducible[b.Cond] {
			usedOutside[b.Cond] = true
		}
		for _, a := range b.Trap.Args {
			if a != nil && reducible[a] {
				usedOutside[a] = true
			}
		}
	}
	next := iv.Args[li]
	n := 0
	initMemo := map[*Value]*Value{iv: iv.Args[pi]}
	var step *Value // the sum of steps, made in the preheader when needed
	stepMemo := map[*Value]*Value{}
	var initOf, stepOf func(v *Value) *Value
	initOf = func(v *Value) *Value {
		if inv(v) {
			return out(v)
		}
		if r, ok := initMemo[v]; ok {
			return r
		}
		r := f.NewValue(pre, v.Op, v.Type, initOf(v.Args[0]), initOf(v.Args[1]))
		r.Imm, r.Index, r.NoFuse, r.Pos = v.Imm, v.Index, v.NoFuse, v.Pos
		initMemo[v] = r
		return r
	}
	stepOf = func(v *Value) *Value {
		if v == iv {
			if step == nil {
				step = out(steps[0])
				for _, s := range steps[1:] {
					step = f.NewValue(pre, OpAdd, iv.Type, step, out(s))
				}
			}
			return step
		}
		if r, ok := stepMemo[v]; ok {
			return r
		}
		x, y := v.Args[0], v.Args[1]
		var r *Value
		switch v.Op {
		case OpAdd:
			if inv(x) {
				x = y
			}
			r = stepOf(x)
		case OpSub:
			if inv(y) {
				r = stepOf(x)
			} else {
				r = f.NewValue(pre, OpNeg, v.Type, stepOf(y))
			}
		case OpMul:
			if inv(x) {
				x, y = y, x
			}
			r = f.NewValue(pre, OpMul, v.Type, stepOf(x), out(y))
		case OpShl:
			r = f.NewValue(pre, OpShl, v.Type, stepOf(x), out(y))
		case OpPtrAdd:
			r = stepOf(y)
		}
		stepMemo[v] = r
		return r
	}
	// The work a value's chain leaves in the loop: its operations, less
	// those of operands already reduced (definition order: operands
	// first). A value is reduced when that work is two operations or
	// more, or holds a multiplication by a non-constant value.
	repl := map[*Value]*Value{}
	work := map[*Value]derived{}
	byKey := map[string]*Value{}
	keys := map[*Value]string{}
	var exprKey func(v *Value) string
	exprKey = func(v *Value) string {
		if k, ok := keys[v]; ok {
			return k
		}
		var k string
		switch {
		case v.Op == OpConst:
			k = fmt.Sprintf("c%v:%x", v.Type, v.Imm)
		case v == iv || inv(v):
			k = fmt.Sprintf("v%d", v.ID)
		default:
			k = fmt.Sprintf("(%d %v %s %s)", v.Op, v.Type, exprKey(v.Args[0]), exprKey(v.Args[1]))
		}
		keys[v] = k
		return k
	}
	for _, v := range cands {
		w := derived{ok: true, ops: 1, mulNC: v.Op == OpMul && !(v.Args[0].Op == OpConst || v.Args[1].Op == OpConst)}
		for _, a := range v.Args {
			if a == iv || repl[a] != nil || !reducible[a] {
				continue
			}
			wa := work[a]
			w.ops += wa.ops
			w.mulNC = w.mulNC || wa.mulNC
		}
		work[v] = w
		if v == next || !usedOutside[v] || !w.mulNC {
			continue
		}
		// Equal chains in two places (a fast and a slow path) share
		// one phi.
		key := exprKey(v)
		if j, ok := byKey[key]; ok {
			repl[v] = j
			continue
		}
		j := f.NewPhi(l.Header, v.Type)
		byKey[key] = j
		s := stepOf(v)
		var jn *Value
		if v.Type.Kind == Ptr {
			jn = f.NewValue(latch, OpPtrAdd, v.Type, j, s)
		} else {
			jn = f.NewValue(latch, OpAdd, v.Type, j, s)
		}
		jn.Pos = v.Pos
		j.Args = make([]*Value, 2)
		j.Args[pi], j.Args[li] = initOf(v), jn
		repl[v] = j
		n++
	}
	if n == 0 {
		return 0
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if _, ok := repl[v]; ok {
				continue
			}
			for i, a := range v.Args {
				if r, ok := repl[a]; ok {
					v.Args[i] = r
				}
			}
		}
		if r, ok := repl[b.Cond]; ok {
			b.Cond = r
		}
		for i, a := range b.Trap.Args {
			if r, ok := repl[a]; ok {
				b.Trap.Args[i] = r
			}
		}
	}
	return n
}
