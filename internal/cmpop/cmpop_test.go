package cmpop

import (
	"go/token"
	"testing"
)

// TestSwapNegate checks both rewrites on every comparison against their
// meaning on integers.
func TestSwapNegate(t *testing.T) {
	holds := func(op token.Token, x, y int) bool {
		switch op {
		case token.LSS:
			return x < y
		case token.LEQ:
			return x <= y
		case token.GTR:
			return x > y
		case token.GEQ:
			return x >= y
		case token.EQL:
			return x == y
		}
		return x != y
	}
	for _, op := range []token.Token{token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ} {
		for x := -1; x <= 1; x++ {
			for y := -1; y <= 1; y++ {
				if holds(Swap(op), y, x) != holds(op, x, y) {
					t.Errorf("Swap(%v) = %v: wrong at %d, %d", op, Swap(op), x, y)
				}
				if holds(Negate(op), x, y) == holds(op, x, y) {
					t.Errorf("Negate(%v) = %v: wrong at %d, %d", op, Negate(op), x, y)
				}
			}
		}
	}
	if Negate(token.ADD) != token.ILLEGAL {
		t.Errorf("Negate(+) = %v, want ILLEGAL", Negate(token.ADD))
	}
}
