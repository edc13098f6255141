package twothread

import (
	"strings"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// Division and remainder as constraints: quotient and remainder variables
// shared by every use of the same x/m and x%m.

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
	p.setRange(r.single(), 0, constPoly(m))
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
	p.setRange(r.single(), 0, m)
	p.boundQuotient(x, m, q)
	return r, true
}

// divMod returns q, r with x = m·q + r for a divisor m that both threads
// share, with Go's truncated remainder, whose sign is x's: 0 ≤ r < |m|
// for x ≥ 0 and −|m| < r ≤ 0 for x < 0, whatever m's sign (m = 0 traps).
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
		{le(m, constPoly(-1)), ge(x), ge(r), lt(r, scale(m, -1))},
		{le(m, constPoly(-1)), lt(x, constPoly(0)), le(r, constPoly(0)), lt(m, r)},
	})
	if p.atLeast(m, 1) && p.atLeast(x, 0) {
		p.setRange(r.single(), 0, m) // the first case: the others are refuted
	}
	p.boundQuotient(x, m, q)
	return q, r, true
}

// Quotients by a divisor that is not a constant. x = m·q + r says nothing
// of q's size to the linear solver when the bound on x is a product: a
// linear block id bid = bx + gx·by is below gx·gy, so bid / gy is below
// gx, but gy·q and gx·gy are products it cannot compare (they share no
// first factor, linearize.go). boundQuotient reads an upper bound U of x
// off the ranges of its variables (upperBound); when U + 1 = m·c for a
// linear c, then 0 ≤ q < c wherever m ≥ 1 and x ≥ 0, a linear fact.
// Refuting a collision through it can take the solver many case splits
// of the products around it (a branch-merged index times a height), so
// answer asks it only of a problem not refuted without it, within
// maxQuotientSteps conjunctions, and keeps the answer without it
// otherwise (retryQuotients).

// boundQuotient adds the bound on quotient q of x by m when it can read
// one off; where m ≥ 1 and x ≥ 0 hold by the ranges alone, it records
// q's range too, for the dividends built from it.
func (p *problem) boundQuotient(x, m, q poly) {
	c, ok := p.quotientBound(x, m)
	if !ok {
		return
	}
	bound := []cons{ge(q), lt(q, c)}
	if p.atLeast(m, 1) && p.atLeast(x, 0) {
		p.quotients = append(p.quotients, clause{bound})
		p.setRange(q.single(), 0, c)
		return
	}
	p.quotients = append(p.quotients, clause{{lt(m, constPoly(1))}, {lt(x, constPoly(0))}, bound})
}

// maxQuotientSteps bounds the conjunctions retryQuotients lets the
// solver decide: the clean kernels whose refutation needs a quotient
// bound take a few dozen.
const maxQuotientSteps = 100

// retryQuotients asks p again with its quotient bounds, when it has any,
// and reports whether that refuted it; the facts are taken out again
// either way, so that an answer it did not settle is the one without
// them.
func (k *Kernel) retryQuotients(p *problem) bool {
	if len(p.quotients) == 0 {
		return false
	}
	// The linearization's product variables are dropped with the facts.
	n, nv := len(p.clauses), len(p.vars)
	p.clauses = append(p.clauses, p.quotients...)
	v, _ := k.solveWithin(p.linearize(), maxQuotientSteps)
	p.clauses, p.vars = p.clauses[:n], p.vars[:nv]
	return v == lincon.Infeasible
}

// quotientBound returns a linear c with x < m·c, when an upper bound of x
// read off its variables' ranges is m·c − 1 for a divisor m of one term.
func (p *problem) quotientBound(x, m poly) (poly, bool) {
	if len(m) != 1 {
		return nil, false
	}
	u, ok := p.upperBound(x)
	if !ok {
		return nil, false
	}
	var mt monoTerm
	for _, t := range m {
		mt = t
	}
	if mt.coef <= 0 || len(mt.vars) == 0 {
		return nil, false
	}
	c := poly{}
	for _, t := range add(u, constPoly(1)) {
		rest, ok := divideMono(t.vars, mt.vars)
		if !ok || t.coef%mt.coef != 0 || len(rest) > 1 {
			return nil, false
		}
		c.addTerm(rest, t.coef/mt.coef)
	}
	return c, true
}

// divideMono returns the variables of monomial vs (sorted) without those
// of d, when d's are among them.
func divideMono(vs, d []lincon.Var) ([]lincon.Var, bool) {
	var rest []lincon.Var
	i := 0
	for _, v := range vs {
		if i < len(d) && d[i] == v {
			i++
			continue
		}
		rest = append(rest, v)
	}
	return rest, i == len(d)
}

// upperBound returns U with x ≤ U for every value of x's variables that
// their ranges allow, when each is at least 0: a term with a positive
// coefficient is at most its variables' bounds less one multiplied (the
// variable itself where it has none), one with a negative coefficient at
// most 0.
func (p *problem) upperBound(x poly) (poly, bool) {
	u := poly{}
	for _, t := range x {
		if len(t.vars) == 0 {
			u.addTerm(nil, t.coef)
			continue
		}
		for _, v := range t.vars {
			if vi := p.vars[v]; !vi.loKnown || vi.lo < 0 {
				return nil, false
			}
		}
		if t.coef < 0 {
			continue
		}
		b := constPoly(t.coef)
		for _, v := range t.vars {
			f := varPoly(v)
			if ub := p.vars[v].ub; ub != nil {
				f = sub(ub, constPoly(1))
			}
			var ok bool
			if b, ok = mulPoly(b, f); !ok {
				return nil, false
			}
		}
		u = add(u, b)
	}
	return u, true
}

// atLeast reports whether x ≥ lo by its variables' ranges: every term
// but the constant has a positive coefficient and variables of known
// least values at least 0, and the least values sum to lo or more.
func (p *problem) atLeast(x poly, lo int64) bool {
	var least int64
	for _, t := range x {
		tl := t.coef
		for _, v := range t.vars {
			vi := p.vars[v]
			if t.coef < 1 || !vi.loKnown || vi.lo < 0 {
				return false
			}
			tl *= vi.lo
		}
		least += tl
	}
	return least >= lo
}
