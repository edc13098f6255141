package twothread

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Bit fields and falling powers of two: values kernels build from bits
// that the arithmetic model reads as sums and remainders.
//
//   - x | y and x ^ y where no bit can be set in both are x + y (no carry
//     happens): (tid &^ 63) | (tid&7)<<3 | (tid>>3)&7. A mask x & c
//     takes the bits of c, so tid & 48 is disjoint from tid & 15 even
//     where its value is not modelled.
//   - x &^ (2^k − 1) clears the low k bits: 2^k·⌊x / 2^k⌋. (A mask of a
//     run of bits, x & (2^j − 2^i), is not modelled: as two remainders it
//     made histogram64's kernel fifty times slower to decide, and still
//     undecided.)
//   - a power of two shifted right, or divided by a constant power of two,
//     is a power of two or zero (stride := n >> 2; stride >>= 2, or
//     stride := size / 2), so x & (m − 1) of such an m is x mod m, or x
//     when m = 0.

// mayBeSet returns a mask of the bits of integer v that can be 1: for a
// mask `x & c` (c ≥ 0) the bits of c, moved by constant shifts, joined by
// | and ^, the complement of c for `x &^ c`, c itself for a constant c ≥
// 0; every bit otherwise. depth bounds the walk.
func mayBeSet(v ssa.Value, depth int) uint64 {
	const all = ^uint64(0)
	if depth > 8 {
		return all
	}
	if c, ok := constOf(v); ok {
		if c >= 0 {
			return uint64(c)
		}
		return all
	}
	b, ok := v.(*ssa.BinOp)
	if !ok {
		return all
	}
	switch b.Op {
	case token.AND:
		return mayBeSet(b.X, depth+1) & mayBeSet(b.Y, depth+1)
	case token.AND_NOT:
		if c, ok := constOf(b.Y); ok {
			return mayBeSet(b.X, depth+1) &^ uint64(c)
		}
	case token.OR, token.XOR:
		return mayBeSet(b.X, depth+1) | mayBeSet(b.Y, depth+1)
	case token.SHL:
		if k, ok := constOf(b.Y); ok && k >= 0 && k < 64 {
			if m := mayBeSet(b.X, depth+1); m>>(64-k) == 0 {
				return m << k
			}
		}
	case token.SHR:
		// Only a value known non-negative (its sign bit clear) shifts
		// its mask right with it.
		if k, ok := constOf(b.Y); ok && k >= 0 && k < 64 {
			if m := mayBeSet(b.X, depth+1); m>>63 == 0 {
				return m >> k
			}
		}
	}
	return all
}

// disjointBits reports whether no bit can be set in both x and y, so that
// x | y and x ^ y are x + y.
func disjointBits(x, y ssa.Value) bool {
	return mayBeSet(x, 0)&mayBeSet(y, 0) == 0
}

// lowBitsCleared models x &^ c for a constant c = 2^k − 1: 2^k·⌊x/2^k⌋.
func (p *problem) lowBitsCleared(x poly, c int64, t int) (poly, bool) {
	if c < 0 || c >= 1<<40 || c&(c+1) != 0 {
		return nil, false
	}
	q, _ := p.floorDiv(x, c+1, t)
	return scale(q, c+1), true
}

// isPow2OrZero reports whether integer v is a power of two or zero on
// every path: what isPow2 accepts, the constant 0, such a value shifted
// right or divided by a constant power of two, shifted left or multiplied,
// and a phi all of whose incoming values are (by induction for the loop's
// own update).
func isPow2OrZero(v ssa.Value, seen map[ssa.Value]bool) bool {
	if isPow2(v, map[ssa.Value]bool{}) {
		return true
	}
	switch v := v.(type) {
	case *ssa.Const:
		c, ok := constOf(v)
		return ok && c == 0
	case *ssa.BinOp:
		switch v.Op {
		case token.SHR, token.SHL:
			return isPow2OrZero(v.X, seen)
		case token.QUO:
			c, ok := constOf(v.Y)
			return ok && c > 0 && c&(c-1) == 0 && isPow2OrZero(v.X, seen)
		case token.MUL:
			return isPow2OrZero(v.X, seen) && isPow2OrZero(v.Y, seen)
		}
	case *ssa.Phi:
		return phiAll(v, seen, isPow2OrZero)
	}
	return false
}
