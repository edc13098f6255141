package twothread

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Branch conditions that hold where an access runs, as clauses of a
// pair problem.

// cond returns the clause that branch condition v (taken when pol) adds
// for thread t, or nil when it is outside the model.
func (p *problem) cond(fr *frame, v ssa.Value, t int, pol bool) clause {
	return p.condIn(fr, v, t, pol, condWalk{})
}

// condIn is cond for a condition met on walk w through the bool values
// held in variables (boolconds.go).
func (p *problem) condIn(fr *frame, v ssa.Value, t int, pol bool, w condWalk) clause {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.NOT {
			return p.condIn(fr, v.X, t, !pol, w)
		}
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return p.condIn(pfr, a, t, pol, w)
		}
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Bool && constant.BoolVal(v.Value) != pol {
			return clause{}
		}
	case *ssa.Phi:
		return p.phiCond(fr, v, t, pol, w)
	case *ssa.Call:
		return p.callCond(fr, v, t, pol, w)
	case *ssa.BinOp:
		if isBool(v.X.Type()) {
			return p.boolCompare(fr, v, t, pol, w)
		}
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
			if cl := p.cond(fr, g.cond, t, g.taken); cl != nil && (p.allConds || !p.sharedNonlinear(cl)) {
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

// boundValue is a subslice's start or end b for thread t.
func (p *problem) boundValue(b bound, t int) poly {
	v := constPoly(b.k)
	for _, r := range b.terms {
		v = add(v, p.eval(r.fr, r.v, t))
	}
	return v
}

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
	if !c.field && !p.indexOnly {
		if p.k.inBounds && c.n <= 0 && c.lenParam < 0 {
			p.base = append(p.base, ge(v))
		}
		if c.n > 0 {
			p.base = append(p.base, ge(v), lt(v, constPoly(c.n)))
		}
		// The length of a global slice only when the index is linear: with
		// products it costs more than it separates.
		if c.lenParam >= 0 && (v.degree() <= 1 || p.k.inBounds) {
			p.base = append(p.base, ge(v), lt(v, p.v(varKey{kind: vLen, dim: c.lenParam})))
		}
		// A subslice's end and start, likewise (row := a[i*w : (i+1)*w];
		// row[j] is in row i: 0 ≤ j < w).
		for _, h := range c.highs {
			if hv := p.boundValue(h, t); sub(hv, v).degree() <= 1 || p.k.inBounds {
				p.base = append(p.base, lt(v, hv))
			}
		}
		for _, l := range c.lows {
			if lv := p.boundValue(l, t); sub(v, lv).degree() <= 1 || p.k.inBounds {
				p.base = append(p.base, ge(sub(v, lv)))
			}
		}
	}
	return v
}
