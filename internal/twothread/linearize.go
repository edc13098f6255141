package twothread

import (
	"slices"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// linearizer turns polynomial constraints into linear ones for lincon. A
// product u·L of a value u that both threads share (a symbol such as s or
// BlockDim) and a linear form L over per-thread values becomes a fresh
// variable P, constrained by a case split that holds for every integer
// product:
//
//	u = 0 ∧ P = 0  |  L = 0 ∧ P = 0  |  u ≥ 1 ∧ L ≥ 1 ∧ P ≥ u ∧ P ≥ L  | …
//
// Grouping the terms of a difference by their shared factor first keeps
// what matters for races: s·(2a − 2b − 1) = 0 has no solution with s ≥ 1,
// and BlockDim·(y₁ − y₂) + x₁ − x₂ = 0 forces y₁ = y₂ when 0 ≤ x < BlockDim.
type linearizer struct {
	pb      *problem
	atoms   map[string]lincon.Var
	clauses [][][]lincon.Constraint
	byU     map[lincon.Var][]atomRec
	base    []lincon.Constraint // identities between products
}

func (lz *linearizer) lin(c cons) lincon.Constraint {
	type group struct {
		shared []lincon.Var
		lin    map[lincon.Var]int64
	}
	var out lincon.Constraint
	out.Eq = c.eq
	coef := map[lincon.Var]int64{}
	groups := map[string]*group{}
	var gkeys []string
	for _, t := range c.p.sorted() {
		switch len(t.vars) {
		case 0:
			out.Const += t.coef
			continue
		case 1:
			coef[t.vars[0]] += t.coef
			continue
		}
		var sh, th []lincon.Var
		for _, v := range t.vars {
			if lz.pb.vars[v].shared {
				sh = append(sh, v)
			} else {
				th = append(th, v)
			}
		}
		switch {
		case len(th) == 1 && len(sh) >= 1:
			k := monoKey(sh)
			g := groups[k]
			if g == nil {
				g = &group{shared: sh, lin: map[lincon.Var]int64{}}
				groups[k] = g
				gkeys = append(gkeys, k)
			}
			g.lin[th[0]] += t.coef
		default:
			coef[lz.product(t.vars)] += t.coef
		}
	}
	for _, k := range gkeys {
		g := groups[k]
		var vs []lincon.Var
		for v, c := range g.lin {
			if c != 0 {
				vs = append(vs, v)
			}
		}
		if len(vs) == 0 {
			continue
		}
		slices.Sort(vs)
		var d int64
		for _, v := range vs {
			d = lincon.GCD(d, g.lin[v])
		}
		if g.lin[vs[0]] < 0 {
			d = -d
		}
		terms := make([]lincon.Term, len(vs))
		for i, v := range vs {
			terms[i] = lincon.T(g.lin[v]/d, v)
		}
		u := lz.product(g.shared)
		q := lz.mulAtom(u, terms)
		coef[q] += d
		if len(terms) > 1 {
			// Tie the product to the products of u with each variable, so
			// that what other constraints say of u·x carries over:
			// u·(Σ cᵢxᵢ) = Σ cᵢ·(u·xᵢ).
			id := []lincon.Term{lincon.T(1, q)}
			for _, t := range terms {
				id = append(id, lincon.T(-t.Coef, lz.mulAtom(u, []lincon.Term{lincon.T(1, t.Var)})))
			}
			lz.base = append(lz.base, lincon.EQ(0, id...))
		}
	}
	vs := make([]lincon.Var, 0, len(coef))
	for v, c := range coef {
		if c != 0 {
			vs = append(vs, v)
		}
	}
	slices.Sort(vs)
	for _, v := range vs {
		out.Terms = append(out.Terms, lincon.T(coef[v], v))
	}
	return out
}

// product returns a variable standing for the product of vs (sorted).
func (lz *linearizer) product(vs []lincon.Var) lincon.Var {
	if len(vs) == 1 {
		return vs[0]
	}
	u := lz.product(vs[:len(vs)-1])
	return lz.mulAtom(u, []lincon.Term{lincon.T(1, vs[len(vs)-1])})
}

// mulAtom returns the variable P = u·L, adding its case split once.
func (lz *linearizer) mulAtom(u lincon.Var, l []lincon.Term) lincon.Var {
	key := monoKey([]lincon.Var{u}) + "|"
	for _, t := range l {
		key += monoKey([]lincon.Var{t.Var}) + ":" + itoa(t.Coef) + ","
	}
	if p, ok := lz.atoms[key]; ok {
		return p
	}
	shared := lz.pb.vars[u].shared
	for _, t := range l {
		shared = shared && lz.pb.vars[t.Var].shared
	}
	p := lz.pb.newVar(varInfo{name: "product", shared: shared})
	lz.atoms[key] = p
	pt := []lincon.Term{lincon.T(1, p)}
	lz.clauses = append(lz.clauses, productCases(u, l, pt))
	// Products with the same shared factor: their difference is u times
	// the difference of the linear forms, which the separate case splits
	// lose (u·bid₁ − u·bid₂ with bid₁ ≠ bid₂ is at least u in size).
	if lz.byU == nil {
		lz.byU = map[lincon.Var][]atomRec{}
	}
	for _, o := range lz.byU[u] {
		if len(lz.byU[u]) > 8 {
			break
		}
		coef := map[lincon.Var]int64{}
		for _, t := range l {
			coef[t.Var] += t.Coef
		}
		for _, t := range o.l {
			coef[t.Var] -= t.Coef
		}
		var diff []lincon.Term
		for _, t := range append(append([]lincon.Term(nil), l...), o.l...) {
			if c := coef[t.Var]; c != 0 {
				diff = append(diff, lincon.T(c, t.Var))
				coef[t.Var] = 0
			}
		}
		if len(diff) == 0 {
			continue
		}
		lz.clauses = append(lz.clauses, productCases(u, diff, []lincon.Term{lincon.T(1, p), lincon.T(-1, o.p)}))
	}
	lz.byU[u] = append(lz.byU[u], atomRec{l: l, p: p})
	return p
}

type atomRec struct {
	l []lincon.Term
	p lincon.Var
}

// productCases is the case split that holds for P = u·L (P a linear form).
// Its terms and constraints are cut from one array each: a problem splits
// hundreds of products, and a slice per term list was most of the
// linearization's garbage.
func productCases(u lincon.Var, l, pt []lincon.Term) [][]lincon.Constraint {
	nl, np := len(l), len(pt)
	terms := make([]lincon.Term, 0, 9+9*nl+10*np)
	// cat returns c·L, d·P and e·u (those of c, d, e not 0) as one list.
	cat := func(c, d, e int64) []lincon.Term {
		at := len(terms)
		if c != 0 {
			for _, t := range l {
				terms = append(terms, lincon.T(t.Coef*c, t.Var))
			}
		}
		if d != 0 {
			for _, t := range pt {
				terms = append(terms, lincon.T(t.Coef*d, t.Var))
			}
		}
		if e != 0 {
			terms = append(terms, lincon.T(e, u))
		}
		return terms[at:len(terms):len(terms)]
	}
	cons := make([]lincon.Constraint, 0, 20)
	// alt returns the constraints given, as one alternative.
	alt := func(cs ...lincon.Constraint) []lincon.Constraint {
		at := len(cons)
		cons = append(cons, cs...)
		return cons[at:len(cons):len(cons)]
	}
	ge, eq := lincon.GE, lincon.EQ
	return [][]lincon.Constraint{
		alt(eq(0, cat(0, 0, 1)...), eq(0, cat(0, 1, 0)...)),
		alt(eq(0, cat(1, 0, 0)...), eq(0, cat(0, 1, 0)...)),
		alt(ge(-1, cat(0, 0, 1)...), ge(-1, cat(1, 0, 0)...), ge(0, cat(0, 1, -1)...), ge(0, cat(-1, 1, 0)...)),
		alt(ge(-1, cat(0, 0, 1)...), ge(-1, cat(-1, 0, 0)...), ge(0, cat(0, -1, -1)...), ge(0, cat(1, -1, 0)...)),
		alt(ge(-1, cat(0, 0, -1)...), ge(-1, cat(1, 0, 0)...), ge(0, cat(0, -1, 1)...), ge(0, cat(-1, -1, 0)...)),
		alt(ge(-1, cat(0, 0, -1)...), ge(-1, cat(-1, 0, 0)...), ge(0, cat(0, 1, 1)...), ge(0, cat(1, 1, 0)...)),
	}
}
