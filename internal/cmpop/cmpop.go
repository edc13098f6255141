// Package cmpop rewrites Go's comparison operators, for the analyses that
// normalise a comparison to one side or take its else branch.
package cmpop

import "go/token"

// Swap is the comparison that holds of y, x where op holds of x, y.
func Swap(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// Negate is the comparison that holds where op does not; token.ILLEGAL
// for an operator that is not a comparison.
func Negate(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.LEQ:
		return token.GTR
	case token.GTR:
		return token.LEQ
	case token.GEQ:
		return token.LSS
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	}
	return token.ILLEGAL
}
