package lincon

import "testing"

func TestSolve(t *testing.T) {
	const x, y, z Var = 0, 1, 2
	tests := []struct {
		name string
		p    Problem
		want Verdict
	}{
		{"empty", Problem{NumVars: 1}, Feasible},
		// Pugh's example: 27 ≤ 11x + 13y ≤ 45, −10 ≤ 7x − 9y ≤ 4 has real
		// but no integer solutions; with x, y bounded, branching decides it.
		{"pugh", Problem{NumVars: 2, Base: []Constraint{
			GE(-27, T(11, x), T(13, y)), GE(45, T(-11, x), T(-13, y)),
			GE(10, T(7, x), T(-9, y)), GE(4, T(-7, x), T(9, y)),
			GE(10, T(1, x)), GE(10, T(-1, x)), GE(10, T(1, y)), GE(10, T(-1, y)),
		}}, Infeasible},
		// Two blocks (b, c in {0,1}²) of a 16×16 transpose writing
		// 512·b0 + 16·b1 + x + 32·y: their elements never meet, but the
		// real shadow says they may; branching on the bounded variables
		// decides it.
		{"transpose blocks", Problem{NumVars: 8, Base: []Constraint{
			GE(0, T(1, 0)), GE(1, T(-1, 0)), GE(0, T(1, 1)), GE(1, T(-1, 1)),
			GE(0, T(1, 2)), GE(1, T(-1, 2)), GE(0, T(1, 3)), GE(1, T(-1, 3)),
			GE(0, T(1, 4)), GE(15, T(-1, 4)), GE(0, T(1, 5)), GE(15, T(-1, 5)),
			GE(0, T(1, 6)), GE(15, T(-1, 6)), GE(0, T(1, 7)), GE(15, T(-1, 7)),
			EQ(0, T(512, 0), T(-512, 1), T(16, 2), T(-16, 3), T(1, 4), T(-1, 5), T(32, 6), T(-32, 7)),
		}, Clauses: [][][]Constraint{{{GE(-1, T(-1, 0), T(1, 1))}, {GE(-1, T(1, 0), T(-1, 1))},
			{GE(-1, T(-1, 2), T(1, 3))}, {GE(-1, T(1, 2), T(-1, 3))}}}}, Infeasible},
		// 8x + y = 4 + 8z with 0 ≤ y ≤ 3 and x, z in {0, 1} has a real
		// but no integer solution.
		{"split", Problem{NumVars: 3, Base: []Constraint{
			EQ(-4, T(8, x), T(1, y), T(-8, z)),
			GE(0, T(1, y)), GE(3, T(-1, y)), GE(0, T(1, z)), GE(1, T(-1, z)),
			GE(0, T(1, x)), GE(1, T(-1, x)),
		}}, Infeasible},
		{"bounds", Problem{NumVars: 1, Base: []Constraint{GE(-3, T(1, x)), GE(5, T(-1, x))}}, Feasible},
		{"empty range", Problem{NumVars: 1, Base: []Constraint{GE(-6, T(1, x)), GE(5, T(-1, x))}}, Infeasible},
		// 2x − 2y = 1 has rational but no integer solutions.
		{"parity", Problem{NumVars: 2, Base: []Constraint{EQ(-1, T(2, x), T(-2, y))}}, Infeasible},
		// 2 ≤ 3x ≤ 3 → x = 1 after tightening; 4 ≤ 3x ≤ 5 has no integer.
		{"tighten", Problem{NumVars: 1, Base: []Constraint{GE(-4, T(3, x)), GE(5, T(-3, x))}}, Infeasible},
		// Reduction: a = b + s, a < s, b ≥ 0, s ≥ 1.
		{"reduction", Problem{NumVars: 3, Base: []Constraint{
			EQ(0, T(1, x), T(-1, y), T(-1, z)),
			GE(-1, T(1, z), T(-1, x)),
			GE(0, T(1, y)),
			GE(-1, T(1, z)),
		}}, Infeasible},
		// Neighbours: a = b + 1, a ≠ b with 0 ≤ a,b < 4 is feasible.
		{"neighbours", Problem{NumVars: 2, Base: []Constraint{
			EQ(-1, T(1, x), T(-1, y)),
			GE(0, T(1, x)), GE(3, T(-1, x)), GE(0, T(1, y)), GE(3, T(-1, y)),
		}}, Feasible},
		// Distinct threads, same slot: a = b with a < b or a > b.
		{"distinct", Problem{NumVars: 2, Base: []Constraint{EQ(0, T(1, x), T(-1, y))},
			Clauses: [][][]Constraint{{{GE(-1, T(1, y), T(-1, x))}, {GE(-1, T(1, x), T(-1, y))}}}}, Infeasible},
		{"clause picks second", Problem{NumVars: 1, Base: []Constraint{GE(0, T(1, x))},
			Clauses: [][][]Constraint{{{GE(-1, T(-1, x))}, {EQ(-7, T(1, x))}}}}, Feasible},
		// 3x + 5y = 1 (no unit coefficient after normalization) with bounds.
		{"non-unit equality", Problem{NumVars: 2, Base: []Constraint{EQ(-1, T(3, x), T(5, y)),
			GE(5, T(1, x)), GE(5, T(-1, x)), GE(5, T(1, y)), GE(5, T(-1, y))}}, Feasible},
		// 2-D flattening with fixed width 16: 16·y1 + x1 = 16·y2 + x2, 0 ≤ x < 16, y1 < y2.
		{"flatten", Problem{NumVars: 4, Base: []Constraint{
			EQ(0, T(16, 0), T(1, 1), T(-16, 2), T(-1, 3)),
			GE(0, T(1, 1)), GE(15, T(-1, 1)), GE(0, T(1, 3)), GE(15, T(-1, 3)),
			GE(-1, T(1, 2), T(-1, 0)),
		}}, Infeasible},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, m := Solve(&tt.p)
			if got != tt.want {
				t.Fatalf("Solve = %v, want %v", got, tt.want)
			}
			if got == Feasible {
				all := append([]Constraint(nil), tt.p.Base...)
				ok := checkModel(all, m)
				for _, cl := range tt.p.Clauses {
					any := false
					for _, alt := range cl {
						any = any || checkModel(alt, m)
					}
					ok = ok && any
				}
				if !ok {
					t.Fatalf("model %v violates the problem", m)
				}
			}
		})
	}
}

// TestRandomAgainstBruteForce compares Solve with enumeration over a small box.
func TestRandomAgainstBruteForce(t *testing.T) {
	seed := uint64(1)
	rnd := func(n int64) int64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int64(seed>>33) % n
	}
	for iter := 0; iter < 400; iter++ {
		p := Problem{NumVars: 3}
		for v := Var(0); v < 3; v++ {
			p.Base = append(p.Base, GE(4, T(1, v)), GE(4, T(-1, v)))
		}
		for k := rnd(4) + 1; k > 0; k-- {
			c := Constraint{Const: rnd(9) - 4, Eq: rnd(4) == 0}
			for v := Var(0); v < 3; v++ {
				if co := rnd(7) - 3; co != 0 {
					c.Terms = append(c.Terms, T(co, v))
				}
			}
			p.Base = append(p.Base, c)
		}
		brute := false
		m := make([]int64, 3)
		for m[0] = -4; m[0] <= 4 && !brute; m[0]++ {
			for m[1] = -4; m[1] <= 4 && !brute; m[1]++ {
				for m[2] = -4; m[2] <= 4 && !brute; m[2]++ {
					brute = checkModel(p.Base, m)
				}
			}
		}
		// Both orders of eliminating equalities (Problem.InOrder).
		for _, inOrder := range []bool{false, true} {
			p.InOrder = inOrder
			got, model := Solve(&p)
			switch {
			case got == Infeasible && brute:
				t.Fatalf("case %d (in order: %v): Solve says infeasible but a model exists: %v", iter, inOrder, p.Base)
			case got == Feasible && !checkModel(p.Base, model):
				t.Fatalf("case %d (in order: %v): bad model %v for %v", iter, inOrder, model, p.Base)
			case got == Feasible && !brute:
				t.Fatalf("case %d (in order: %v): Solve found model %v but brute force found none", iter, inOrder, model)
			}
		}
	}
}

// TestLeastUsedEquality checks that an equality is eliminated through the
// variable the fewest rows mention: x0 = x1 + x2 − 256·x3 with x0 in many
// rows and x2 in none else is eliminated through x2, leaving x0's rows as
// they are (before, x0 was substituted into every one of them).
func TestLeastUsedEquality(t *testing.T) {
	sc := &scratch{}
	sc.reset()
	s := &system{n: 4, sc: sc, leastUsed: true}
	eq := s.newRow()
	eq[0], eq[1], eq[2], eq[3] = 1, -1, -1, 256
	s.setMask(eq)
	s.eqs = []row{eq}
	for k := int64(0); k < 3; k++ {
		r := s.newRow()
		r[0], r[1], r[4] = 1, k, -k
		s.setMask(r)
		s.ges = append(s.ges, r)
	}
	if k, v := s.pickEq(); k != 0 || v != 2 {
		t.Errorf("pickEq = equality %d, variable x%d; want equality 0, x2", k, v)
	}
	s.leastUsed = false
	if k, v := s.pickEq(); k != 0 || v != 0 {
		t.Errorf("pickEq in order = equality %d, variable x%d; want equality 0, x0", k, v)
	}
}

func TestBoundsFeasible(t *testing.T) {
	const x, y, z Var = 0, 1, 2
	tests := []struct {
		name string
		cs   []Constraint
		want bool
	}{
		{"empty", nil, true},
		{"range", []Constraint{GE(-3, T(1, x)), GE(5, T(-1, x))}, true},
		{"empty range", []Constraint{GE(-6, T(1, x)), GE(5, T(-1, x))}, false},
		// x ≥ 1, y ≥ 0, x + y ≤ 0: the sum's minimum is 1.
		{"sum", []Constraint{GE(-1, T(1, x)), GE(0, T(1, y)), GE(0, T(-1, x), T(-1, y))}, false},
		// u ≥ 1 refutes the case u = 0 of a product p = u·l.
		{"product zero case", []Constraint{GE(-1, T(1, x)), EQ(0, T(1, x)), EQ(0, T(1, z))}, false},
		// 2x = 1: x ≥ 1/2 and x ≤ 1/2, rounded inwards, leave no integer.
		{"parity", []Constraint{EQ(-1, T(2, x))}, false},
		// x = 2y with y in [0, 1] and x = 1: bounds leave x in [1, 1] and
		// y in [1/2, 1/2] → empty after rounding.
		{"half", []Constraint{EQ(0, T(1, x), T(-2, y)), EQ(-1, T(1, x))}, false},
		// x − y = 0 with both open: nothing to refute, true proves nothing.
		{"equal open", []Constraint{EQ(0, T(1, x), T(-1, y))}, true},
		// Unbounded variables give no bound and no refutation.
		{"open", []Constraint{GE(0, T(1, x), T(-1, y), T(1, z))}, true},
		// Rounding: 3x ≥ 1 means x ≥ 1, and x ≤ 0 then refutes it.
		{"rounding", []Constraint{GE(-1, T(3, x)), GE(0, T(-1, x))}, false},
	}
	for _, tt := range tests {
		if got := boundsFeasible(3, tt.cs, &scratch{}); got != tt.want {
			t.Errorf("%s: boundsFeasible = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSolveProductCases: clauses whose alternatives the base's bounds
// refute are pruned before the search, and what is left is still
// decided exactly, Feasible with a model that satisfies every clause.
func TestSolveProductCases(t *testing.T) {
	const u, l, p Var = 0, 1, 2
	cases := func(u, l, p Var) [][]Constraint {
		return [][]Constraint{
			{EQ(0, T(1, u)), EQ(0, T(1, p))},
			{EQ(0, T(1, l)), EQ(0, T(1, p))},
			{GE(-1, T(1, u)), GE(-1, T(1, l)), GE(0, T(1, p), T(-1, u)), GE(0, T(-1, l), T(1, p))},
			{GE(-1, T(-1, u)), GE(-1, T(-1, l)), GE(0, T(1, p), T(1, u)), GE(0, T(1, l), T(1, p))},
		}
	}
	// u ≥ 1, l ≥ 1, p = u·l ≤ 0: infeasible.
	pr := Problem{NumVars: 3, Base: []Constraint{GE(-1, T(1, u)), GE(-1, T(1, l)), GE(0, T(-1, p))},
		Clauses: [][][]Constraint{cases(u, l, p)}}
	if v, _ := Solve(&pr); v != Infeasible {
		t.Errorf("u ≥ 1, l ≥ 1, u·l ≤ 0: %v, want infeasible", v)
	}
	// u ≥ 1, l ≥ 0, p = u·l ≤ 0: feasible with l = 0, p = 0.
	pr = Problem{NumVars: 3, Base: []Constraint{GE(-1, T(1, u)), GE(0, T(1, l)), GE(0, T(-1, p))},
		Clauses: [][][]Constraint{cases(u, l, p)}}
	v, m := Solve(&pr)
	if v != Feasible || m[l] != 0 || m[p] != 0 {
		t.Errorf("u ≥ 1, l ≥ 0, u·l ≤ 0: %v %v, want feasible with l = p = 0", v, m)
	}
	// A clause with every alternative refuted makes the problem infeasible.
	pr = Problem{NumVars: 3, Base: []Constraint{GE(-1, T(1, u))},
		Clauses: [][][]Constraint{{{EQ(0, T(1, u))}, {GE(-1, T(-1, u))}}}}
	if v, _ := Solve(&pr); v != Infeasible {
		t.Errorf("refuted clause: %v, want infeasible", v)
	}
}

// TestSolveWithin: a problem whose refutation takes three conjunctions
// (the base, then each alternative of |x − y| ≥ 3 against |x − y| ≤ 1)
// is Unknown within fewer, and Infeasible within three.
func TestSolveWithin(t *testing.T) {
	const x, y Var = 0, 1
	pr := Problem{NumVars: 2,
		Base: []Constraint{GE(0, T(1, x)), GE(1000000, T(-1, x)), GE(0, T(1, y)), GE(1000000, T(-1, y)),
			GE(1, T(1, x), T(-1, y)), GE(1, T(-1, x), T(1, y))},
		Clauses: [][][]Constraint{{{GE(-3, T(1, x), T(-1, y))}, {GE(-3, T(-1, x), T(1, y))}}}}
	if v, _, steps := SolveCounted(&pr); v != Infeasible || steps != 3 {
		t.Fatalf("SolveCounted: %v in %d conjunctions, want infeasible in 3", v, steps)
	}
	if v, _, _ := SolveWithin(&pr, 2); v != Unknown {
		t.Errorf("SolveWithin 2: %v, want unknown", v)
	}
	if v, _, _ := SolveWithin(&pr, 3); v != Infeasible {
		t.Errorf("SolveWithin 3: %v, want infeasible", v)
	}
}

// TestSolveRandom compares Solve with enumeration on small random
// problems with clauses: Infeasible must be right (pruning and
// backjumping may never drop a model), Feasible must come with a model.
func TestSolveRandom(t *testing.T) {
	const nv, box = 3, 3
	seed := uint64(12345)
	rnd := func(k int) int64 { // xorshift, deterministic
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int64(seed % uint64(k))
	}
	randCons := func() Constraint {
		var ts []Term
		for v := 0; v < nv; v++ {
			if c := rnd(5) - 2; c != 0 {
				ts = append(ts, T(c, Var(v)))
			}
		}
		c := Constraint{Terms: ts, Const: rnd(7) - 3}
		c.Eq = rnd(4) == 0
		return c
	}
	for iter := 0; iter < 3000; iter++ {
		p := Problem{NumVars: nv}
		for v := 0; v < nv; v++ {
			p.Base = append(p.Base, GE(box, T(1, Var(v))), GE(box, T(-1, Var(v))))
		}
		for i := rnd(3); i > 0; i-- {
			p.Base = append(p.Base, randCons())
		}
		for i := rnd(4); i > 0; i-- {
			var cl [][]Constraint
			for j := rnd(3) + 1; j > 0; j-- {
				var alt []Constraint
				for k := rnd(2) + 1; k > 0; k-- {
					alt = append(alt, randCons())
				}
				cl = append(cl, alt)
			}
			p.Clauses = append(p.Clauses, cl)
		}
		holds := func(m []int64) bool {
			if !checkModel(p.Base, m) {
				return false
			}
			for _, cl := range p.Clauses {
				ok := false
				for _, alt := range cl {
					ok = ok || checkModel(alt, m)
				}
				if !ok {
					return false
				}
			}
			return true
		}
		sat := false
		m := make([]int64, nv)
		for x := -box; x <= box && !sat; x++ {
			for y := -box; y <= box && !sat; y++ {
				for z := -box; z <= box && !sat; z++ {
					m[0], m[1], m[2] = int64(x), int64(y), int64(z)
					sat = holds(m)
				}
			}
		}
		v, model := Solve(&p)
		switch {
		case v == Infeasible && sat:
			t.Fatalf("problem %d: Solve says infeasible, but %v satisfies it: %+v", iter, m, p)
		case v == Feasible && !holds(model):
			t.Fatalf("problem %d: Solve's model %v does not satisfy %+v", iter, model, p)
		case v == Feasible && !sat:
			t.Fatalf("problem %d: feasible with model %v, enumeration found none: %+v", iter, model, p)
		}
	}
}

// TestSatisfies: a model must satisfy the base and an alternative of every
// clause, and speak of exactly the problem's variables.
func TestSatisfies(t *testing.T) {
	const x, y Var = 0, 1
	p := &Problem{NumVars: 2,
		Base: []Constraint{GE(0, T(1, x)), GE(0, T(1, y))}, // x, y ≥ 0
		Clauses: [][][]Constraint{{
			{GE(-3, T(1, x))},            // x ≥ 3
			{EQ(0, T(1, x), T(-1, y))}}}, // or x = y
	}
	tests := []struct {
		m    []int64
		want bool
	}{
		{[]int64{3, 0}, true},
		{[]int64{1, 1}, true},
		{[]int64{1, 2}, false},   // no alternative holds
		{[]int64{-1, -1}, false}, // the base fails
		{[]int64{3}, false},      // too few values
		{[]int64{3, 0, 0}, false},
	}
	for _, tt := range tests {
		if got := Satisfies(p, tt.m); got != tt.want {
			t.Errorf("Satisfies(%v) = %v, want %v", tt.m, got, tt.want)
		}
		// Whatever Satisfies accepts, the solver finds feasible.
		if tt.want {
			if v, _ := Solve(p); v != Feasible {
				t.Errorf("Solve = %v for a problem with model %v", v, tt.m)
			}
		}
	}
}
