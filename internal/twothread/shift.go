package twothread

// Shifts by a count that is not a constant. Go panics on a negative shift
// count, so where a thread goes on past x << k, k ≥ 0 and x << k is x·2^k
// (overflow is ignored, as everywhere in the model).

// pow2Small is the largest count for which pow2 states 2^k exactly; above
// it 2^k is only bounded below, which keeps the case split small.
const pow2Small = 4

// pow2 returns a variable w standing for 2^k for a count k that both
// threads share, the same for every use of the same k. A negative count
// traps, so k ≥ 0 is a fact, as a divisor's m ≠ 0 is in divMod; then
// w ≥ k+1, and a case split makes w exactly 2^k for k ≤ pow2Small and
// at least 2^(pow2Small+1) above. The split only makes a witness a launch
// that replays (w = 3 satisfies the rest), so it is a sharpening fact:
// refutations are sought without it.
func (p *problem) pow2(k poly) poly {
	key := "pow2/" + polyKey(k)
	if qr, ok := p.divs[key]; ok {
		return qr[0]
	}
	w := p.aux(true, 0)
	one := constPoly(1)
	p.base = append(p.base, ge(k), le(add(k, one), w))
	var cl clause
	for c := int64(0); c <= pow2Small; c++ {
		cl = append(cl, []cons{eq(sub(k, constPoly(c))), eq(sub(w, constPoly(1<<c)))})
	}
	cl = append(cl, []cons{le(constPoly(pow2Small+1), k), le(constPoly(1<<(pow2Small+1)), w)})
	p.sharpen = append(p.sharpen, cl)
	p.divs[key] = [2]poly{w, nil}
	return w
}

// shiftLeft returns x << k as x·2^k for a shared count k.
func (p *problem) shiftLeft(x, k poly) (poly, bool) {
	if !p.isSharedPoly(k) {
		return nil, false
	}
	return mulPoly(x, p.pow2(k))
}

// shiftRight returns x >> k, the floor of x / 2^k, for a shared count k:
// q with x = 2^k·q + r and 0 ≤ r < 2^k.
func (p *problem) shiftRight(x, k poly, t int) (poly, bool) {
	if !p.isSharedPoly(k) {
		return nil, false
	}
	w := p.pow2(k)
	key := "shr" + polyKey(k) + "/" + polyKey(x)
	if qr, ok := p.divs[key]; ok {
		return qr[0], true
	}
	sh := p.isSharedPoly(x)
	q, r := p.aux(sh, t), p.aux(sh, t)
	wq, ok := mulPoly(w, q)
	if !ok {
		return nil, false
	}
	p.base = append(p.base, eq(sub(x, add(wq, r))), ge(r), lt(r, w))
	p.divs[key] = [2]poly{q, r}
	return q, true
}
