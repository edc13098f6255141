package twothread

import (
	"testing"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// TestLinearizeSound checks on random polynomial systems over a small box
// that the linear relaxation never loses an integer solution: whenever
// brute force finds one, the solver must not answer Infeasible.
func TestLinearizeSound(t *testing.T) {
	seed := uint64(7)
	rnd := func(n int64) int64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int64(seed>>33) % n
	}
	const nv, box = 4, 2
	found, proved := 0, 0
	for iter := 0; iter < 300; iter++ {
		p := &problem{varIdx: map[varKey]lincon.Var{}}
		vars := make([]poly, nv)
		for i := range vars {
			// Variables 0 and 1 are shared (like s, BlockDim), 2 and 3
			// per thread (like tid).
			vars[i] = varPoly(p.newVar(varInfo{shared: i < 2}))
			p.base = append(p.base, le(constPoly(-box), vars[i]), le(vars[i], constPoly(box)))
		}
		randPoly := func() poly {
			q := constPoly(rnd(5) - 2)
			for k := rnd(3) + 1; k > 0; k-- {
				m := constPoly(rnd(5) - 2)
				for d := rnd(3); d > 0; d-- {
					m, _ = mulPoly(m, vars[rnd(nv)])
				}
				q = add(q, m)
			}
			return q
		}
		for k := rnd(3) + 1; k > 0; k-- {
			c := cons{p: randPoly(), eq: rnd(3) == 0}
			p.base = append(p.base, c)
		}
		if rnd(2) == 0 {
			p.clauses = append(p.clauses, clause{{ge(randPoly())}, {eq(randPoly())}})
		}
		brute := false
		m := make([]int64, nv)
		var walk func(i int)
		walk = func(i int) {
			if brute {
				return
			}
			if i == nv {
				brute = p.genuine(m)
				return
			}
			for x := int64(-box); x <= box; x++ {
				m[i] = x
				walk(i + 1)
			}
		}
		walk(0)
		verdict, model := lincon.Solve(p.linearize())
		if brute {
			found++
			if verdict == lincon.Infeasible {
				t.Fatalf("case %d: relaxation lost a solution: base %v clauses %v", iter, p.base, p.clauses)
			}
		} else if verdict == lincon.Infeasible {
			proved++
		}
		if verdict == lincon.Feasible && !brute && p.genuine(model[:nv]) {
			t.Fatalf("case %d: model %v is genuine but brute force found none", iter, model)
		}
	}
	t.Logf("%d satisfiable systems kept; %d of the others proved infeasible", found, proved)
	if found == 0 || proved == 0 {
		t.Fatalf("degenerate test: %d satisfiable, %d proved", found, proved)
	}
}
