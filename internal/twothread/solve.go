package twothread

import (
	"strconv"
	"strings"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// solved is a remembered answer of lincon.Solve.
type solved struct {
	v     lincon.Verdict
	model []int64
}

// solve is lincon.Solve, remembered per kernel: the pairs of a kernel
// often build the same problem (the same index expression at several
// accesses, a read and a write of one element, the witness guard's
// re-solves), and a problem with products of parameters may take the
// solver many conjunctions to refute. The problem's variables are
// numbered by the order the pair problem met them, so equal problems
// from different pairs mean the same thing: the answer, model included,
// is reused as it is.
func (k *Kernel) solve(lp *lincon.Problem) (lincon.Verdict, []int64) {
	return k.solveWithin(lp, lincon.MaxSteps)
}

// solveWithin is solve with a budget of conjunctions (lincon.SolveWithin),
// remembered apart from the answers of other budgets.
func (k *Kernel) solveWithin(lp *lincon.Problem, maxSteps int) (lincon.Verdict, []int64) {
	key := problemKey(lp)
	if lp.InOrder {
		key = "o/" + key
	}
	if maxSteps != lincon.MaxSteps {
		key = strconv.Itoa(maxSteps) + "/" + key
	}
	if s, ok := k.solved[key]; ok {
		return s.v, s.model
	}
	v, m, steps := lincon.SolveWithin(lp, maxSteps)
	k.work += steps
	if k.solved == nil {
		k.solved = map[string]solved{}
	}
	k.solved[key] = solved{v, m}
	return v, m
}

// Problems returns the number of distinct problems the solver decided for
// the kernel so far.
func (k *Kernel) Problems() int { return len(k.solved) }

// problemKey encodes lp exactly: equal keys, equal problems.
func problemKey(lp *lincon.Problem) string {
	var b strings.Builder
	b.Grow(keySize(lp)) // one allocation, not one per doubling
	b.WriteString(strconv.Itoa(lp.NumVars))
	cons := func(c lincon.Constraint) {
		if c.Eq {
			b.WriteByte('=')
		} else {
			b.WriteByte('>')
		}
		b.WriteString(strconv.FormatInt(c.Const, 10))
		for _, t := range c.Terms {
			b.WriteByte(' ')
			b.WriteString(strconv.FormatInt(t.Coef, 10))
			b.WriteByte('x')
			b.WriteString(strconv.Itoa(int(t.Var)))
		}
		b.WriteByte(';')
	}
	for _, c := range lp.Base {
		cons(c)
	}
	for _, cl := range lp.Clauses {
		b.WriteByte('[')
		for _, alt := range cl {
			b.WriteByte('(')
			for _, c := range alt {
				cons(c)
			}
			b.WriteByte(')')
		}
		b.WriteByte(']')
	}
	return b.String()
}

// keySize estimates the length of problemKey(lp): a few bytes per
// constraint and per term (most constants and coefficients have one or
// two digits).
func keySize(lp *lincon.Problem) int {
	n := 8
	cons := func(cs []lincon.Constraint) {
		for _, c := range cs {
			n += 4 + 6*len(c.Terms)
		}
	}
	cons(lp.Base)
	for _, cl := range lp.Clauses {
		n += 2
		for _, alt := range cl {
			n += 2
			cons(alt)
		}
	}
	return n
}
