package twothread

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// A poly is a polynomial with integer coefficients over the variables of one
// pair problem: a sum of monomials, each a coefficient times a product of
// variables. Index expressions are polys; constraints are polys compared
// with zero.
type poly map[string]monoTerm

type monoTerm struct {
	vars []lincon.Var // sorted; empty for the constant
	coef int64
}

func monoKey(vs []lincon.Var) string {
	// Most monomials are a constant or one variable: their keys need no
	// builder (Itoa of a small number does not allocate), and polys are
	// built by the thousand per pair problem.
	switch len(vs) {
	case 0:
		return ""
	case 1:
		return strconv.Itoa(int(vs[0]))
	}
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteByte('*')
		}
		b.WriteString(strconv.Itoa(int(v)))
	}
	return b.String()
}

func constPoly(c int64) poly {
	p := poly{}
	if c != 0 {
		p[""] = monoTerm{coef: c}
	}
	return p
}

func varPoly(v lincon.Var) poly {
	vs := []lincon.Var{v}
	return poly{monoKey(vs): {vars: vs, coef: 1}}
}

func (p poly) addTerm(vs []lincon.Var, c int64) {
	if c == 0 {
		return
	}
	k := monoKey(vs)
	t := p[k]
	t.vars = vs
	t.coef += c
	if t.coef == 0 {
		delete(p, k)
	} else {
		p[k] = t
	}
}

func add(a, b poly) poly { return combine(a, b, 1) }

// combine returns a + k·b, in a map sized for both at once.
func combine(a, b poly, k int64) poly {
	p := make(poly, len(a)+len(b))
	for _, t := range a {
		p.addTerm(t.vars, t.coef)
	}
	for _, t := range b {
		p.addTerm(t.vars, k*t.coef)
	}
	return p
}

func scale(a poly, c int64) poly {
	p := make(poly, len(a))
	for _, t := range a {
		p.addTerm(t.vars, t.coef*c)
	}
	return p
}

func sub(a, b poly) poly { return combine(a, b, -1) }

// maxDegree bounds the polynomials built from index expressions; beyond it
// a product is treated as an unknown value.
const maxDegree = 4

func mulPoly(a, b poly) (poly, bool) {
	p := poly{}
	for _, x := range a {
		for _, y := range b {
			vs := append(append([]lincon.Var(nil), x.vars...), y.vars...)
			if len(vs) > maxDegree {
				return nil, false
			}
			slices.Sort(vs)
			p.addTerm(vs, x.coef*y.coef)
		}
	}
	return p, true
}

// constant returns the value of a constant poly.
func (p poly) constant() (int64, bool) {
	switch len(p) {
	case 0:
		return 0, true
	case 1:
		if t, ok := p[""]; ok {
			return t.coef, true
		}
	}
	return 0, false
}

// eval computes p at model m.
func (p poly) eval(m []int64) int64 {
	var s int64
	for _, t := range p {
		x := t.coef
		for _, v := range t.vars {
			x *= m[v]
		}
		s += x
	}
	return s
}

// sorted returns the terms in a deterministic order.
func (p poly) sorted() []monoTerm {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]monoTerm, len(keys))
	for i, k := range keys {
		out[i] = p[k]
	}
	return out
}

// A cons is a polynomial constraint: P ≥ 0, or P = 0 when eq.
type cons struct {
	p  poly
	eq bool
}

func ge(p poly) cons { return cons{p: p} }
func eq(p poly) cons { return cons{p: p, eq: true} }

// lt returns a < b, that is b − a − 1 ≥ 0.
func lt(a, b poly) cons { return ge(add(sub(b, a), constPoly(-1))) }

// le returns a ≤ b.
func le(a, b poly) cons { return ge(sub(b, a)) }

func (c cons) holds(m []int64) bool {
	v := c.p.eval(m)
	if c.eq {
		return v == 0
	}
	return v >= 0
}

// A clause holds when one of its alternatives (each a conjunction) holds.
type clause [][]cons

func (cl clause) holds(m []int64) bool {
	for _, alt := range cl {
		ok := true
		for _, c := range alt {
			ok = ok && c.holds(m)
		}
		if ok {
			return true
		}
	}
	return false
}

// degree returns the largest number of variables in a monomial of p.
func (p poly) degree() int {
	d := 0
	for _, t := range p {
		d = max(d, len(t.vars))
	}
	return d
}
