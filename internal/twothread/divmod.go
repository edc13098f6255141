package twothread

import (
	"strings"
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
	return q, r, true
}
