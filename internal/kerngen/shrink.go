package kerngen

import "slices"

// Shrink returns a smallest program it finds for which fails still holds,
// starting from p (for which it must hold): it removes statements, puts
// a block's arms in its place, drops else arms and device functions, one
// change at a time, keeping each change after which fails holds, until no
// change is kept (a delta debugger over statements).
func Shrink(p *Program, fails func(*Program) bool) *Program {
	return ShrinkBatch(p, func(qs []*Program) int { return slices.IndexFunc(qs, fails) })
}

// ShrinkBatch is Shrink with a predicate that sees every program one
// change smaller at once, so that it can build them together (one build
// of a package of many kernels costs little more than one of one kernel):
// first returns the index of the first of qs for which the failure still
// holds, or -1. The programs of qs share p's name.
func ShrinkBatch(p *Program, first func(qs []*Program) int) *Program {
	for {
		qs := variants(p)
		i := first(qs)
		if i < 0 {
			return p
		}
		p = qs[i]
	}
}

// variants are the programs one change smaller than p, the largest
// changes first.
func variants(p *Program) []*Program {
	var out []*Program
	with := func(ss []*Stmt) *Program {
		q := *p
		q.Stmts = ss
		return &q
	}
	for _, ss := range stmtVariants(p.Stmts) {
		out = append(out, with(ss))
	}
	for j := range p.Devices {
		q := *p
		q.Devices = append(append([]string{}, p.Devices[:j]...), p.Devices[j+1:]...)
		out = append(out, &q)
	}
	return out
}

// stmtVariants are the statement lists one change smaller than ss.
func stmtVariants(ss []*Stmt) [][]*Stmt {
	var out [][]*Stmt
	splice := func(j int, repl ...*Stmt) []*Stmt {
		r := append([]*Stmt{}, ss[:j]...)
		r = append(r, repl...)
		return append(r, ss[j+1:]...)
	}
	for j, s := range ss {
		out = append(out, splice(j))
		if !s.Block || s.Case || s.Whole {
			continue
		}
		if !isSwitch(s) {
			out = append(out, splice(j, s.Body...))
		}
		if len(s.Else) > 0 {
			out = append(out, splice(j, s.Else...))
			c := *s
			c.Else = nil
			out = append(out, splice(j, &c))
		}
	}
	for j, s := range ss {
		if s.Whole {
			continue
		}
		for _, body := range stmtVariants(s.Body) {
			c := *s
			c.Body = body
			out = append(out, splice(j, &c))
		}
		for _, els := range stmtVariants(s.Else) {
			c := *s
			c.Else = els
			out = append(out, splice(j, &c))
		}
	}
	return out
}

// isSwitch reports a switch statement, whose body is its case clauses.
func isSwitch(s *Stmt) bool { return len(s.Body) > 0 && s.Body[0].Case }

// Candidates are the programs one shrink step smaller than p, for a
// shrink whose oracle runs on another machine (a GPU machine without a
// Go toolchain: a level's candidates are built here and run there in one
// call): every single change Shrink tries, then every pre-order prefix
// of p's statements, the shortest first, which finds the statement where
// the results first part in one step.
func Candidates(p *Program) []*Program {
	out := variants(p)
	for k := 1; k < Size(p); k++ {
		q := *p
		left := k
		q.Stmts = prefix(p.Stmts, &left)
		out = append(out, &q)
	}
	return out
}

// Size is the number of statements of p, nested ones included.
func Size(p *Program) int { return countStmts(p.Stmts) }

func countStmts(ss []*Stmt) int {
	n := 0
	for _, s := range ss {
		n += 1 + countStmts(s.Body) + countStmts(s.Else)
	}
	return n
}

// prefix keeps the first *left statements of ss in pre-order. A Whole
// block is kept whole or not at all.
func prefix(ss []*Stmt, left *int) []*Stmt {
	var out []*Stmt
	for _, s := range ss {
		if *left <= 0 {
			break
		}
		*left--
		c := *s
		c.Body = prefix(s.Body, left)
		c.Else = prefix(s.Else, left)
		if s.Whole && (len(c.Body) != len(s.Body) || len(c.Else) != len(s.Else)) {
			break
		}
		out = append(out, &c)
	}
	return out
}
