package twothread

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// The index-only pair question, for kernels of many pairs (races asks it
// first past 1000, and in smaller kernels until it misses a few pairs):
// straight-line code with hundreds of accesses at affine indices has few
// distinct index differences, and one solve decides every pair of one
// difference.

// IndexApart reports whether the accesses of pr are apart by their
// indices alone: the pair question without the path conditions of either
// access and without the bounds of either index, facts that name one
// access. What is left depends only on the pair's nodes, interval, index
// terms and the difference of its index constants, so the pairs of
// straight-line code that share those (out[g*100+3] and out[g*100+5];
// out[g*100+10] and out[g*100+12]) build one problem between them, and the
// answer is remembered by that key (indexKey). Leaving facts out only
// widens the question, so apart here is apart in Collide; not apart
// decides nothing.
func (k *Kernel) IndexApart(pr Pair) bool {
	key, ok := k.indexKey(pr)
	if ok {
		if apart, seen := k.apart[key]; seen {
			return apart
		}
	}
	k.computeDivergence()
	apart := true
	if p, _, _, trivial := k.pairProblem(pr, nil, true); !trivial {
		verdict, _ := k.solve(p.linearize())
		apart = verdict == lincon.Infeasible
	}
	if ok {
		if k.apart == nil {
			k.apart = map[string]bool{}
		}
		k.apart[key] = apart
	}
	return apart
}

// indexKey encodes everything IndexApart's question depends on: whether
// the threads are in different blocks, the interval, the two accesses'
// nodes (which instances of shared values each sees), whether it is one
// access paired with itself, and per index component the terms of each
// (termKey) and the difference of their constants. ok is false for an access
// through a pointer swap (phigroup.go), whose question names the phi too.
func (k *Kernel) indexKey(pr Pair) (key string, ok bool) {
	a, b := pr.A, pr.B
	if a.via != nil || b.via != nil {
		return "", false
	}
	start := -1
	if pr.In.start != nil {
		start = pr.In.start.id
	}
	buf := make([]byte, 0, 64)
	buf = fmt.Appendf(buf, "%t %d %d %d %t", pr.Cross, start, a.node.id, b.node.id, a == b)
	forms := func(x *Access) []form {
		if fs, ok := k.forms[x]; ok {
			return fs
		}
		fs := make([]form, len(x.comps))
		for i, c := range x.comps {
			fs[i] = form{coef: map[string]int64{"": c.k}}
			for _, r := range c.terms {
				fs[i] = fs[i].plus(k.termForm(r.fr, r.v, 0))
			}
		}
		if k.forms == nil {
			k.forms = map[*Access][]form{}
		}
		k.forms[x] = fs
		return fs
	}
	// comp writes what of one index differs between the threads.
	comp := func(c comp, f form) {
		buf = fmt.Appendf(buf, " %t%t", c.any, c.field)
		writeMonomials(&buf, f, false)
	}
	fas, fbs := forms(a), forms(b)
	for i := 0; i < min(len(a.comps), len(b.comps)); i++ {
		fa, fb := fas[i], fbs[i]
		comp(a.comps[i], fa)
		buf = append(buf, '|')
		comp(b.comps[i], fb)
		// What both threads share enters the question only through the
		// difference of the two forms.
		buf = append(buf, '=')
		writeMonomials(&buf, fa.plus(fb.times(form{coef: map[string]int64{"": -1}})), true)
	}
	return string(buf), true
}

// A form is an index term as a polynomial over the values it is made of
// (leaves): coefficients by monomial, a monomial being its leaves' keys
// (termKey) sorted and joined by '*', "" for the constant; deg bounds the
// degree of the polynomial the problem evaluates it to.
type form struct {
	coef map[string]int64
	deg  int
}

// termForm returns the form of index term v the way the problem evaluates
// it: sums, differences, negations, integer conversions, shifts by
// constants and products whose polynomial stays within maxDegree are taken
// apart; every other value is a leaf. go/ssa computes g*100 afresh at every
// store, so out[g*100+3] and out[g*100+5] have different terms but forms
// that differ only in the constant.
func (k *Kernel) termForm(fr *frame, v ssa.Value, depth int) form {
	if c, ok := constOf(v); ok {
		return form{coef: map[string]int64{"": c}}
	}
	if depth < 16 && isInteger(v.Type()) {
		switch v := v.(type) {
		case *ssa.Parameter:
			if a, pfr, ok := argOf(fr, v); ok {
				return k.termForm(pfr, a, depth+1)
			}
		case *ssa.Convert:
			if isInteger(v.X.Type()) {
				return k.termForm(fr, v.X, depth+1)
			}
		case *ssa.ChangeType:
			return k.termForm(fr, v.X, depth+1)
		case *ssa.UnOp:
			if v.Op == token.SUB {
				return k.termForm(fr, v.X, depth+1).times(form{coef: map[string]int64{"": -1}})
			}
		case *ssa.BinOp:
			if f, ok := k.binForm(fr, v, depth); ok {
				return f
			}
		}
	}
	key, deg := k.termKey(fr, v)
	return form{coef: map[string]int64{key: 1}, deg: deg}
}

// binForm is termForm of a binary operation it takes apart.
func (k *Kernel) binForm(fr *frame, v *ssa.BinOp, depth int) (form, bool) {
	switch v.Op {
	case token.ADD, token.SUB:
		x, y := k.termForm(fr, v.X, depth+1), k.termForm(fr, v.Y, depth+1)
		if v.Op == token.SUB {
			y = y.times(form{coef: map[string]int64{"": -1}})
		}
		return x.plus(y), true
	case token.MUL:
		x, y := k.termForm(fr, v.X, depth+1), k.termForm(fr, v.Y, depth+1)
		if x.deg+y.deg <= maxDegree {
			return x.times(y), true
		}
	case token.SHL:
		if c, ok := constOf(v.Y); ok && c >= 0 && c < 20 {
			return k.termForm(fr, v.X, depth+1).times(form{coef: map[string]int64{"": 1 << c}}), true
		}
	}
	return form{}, false
}

func (f form) plus(g form) form {
	out := form{coef: map[string]int64{}, deg: max(f.deg, g.deg)}
	for m, c := range f.coef {
		out.coef[m] += c
	}
	for m, c := range g.coef {
		out.coef[m] += c
	}
	return out
}

func (f form) times(g form) form {
	out := form{coef: map[string]int64{}, deg: f.deg + g.deg}
	for m, c := range f.coef {
		for n, d := range g.coef {
			out.coef[monomial(m, n)] += c * d
		}
	}
	return out
}

// monomial is the product of monomials m and n.
func monomial(m, n string) string {
	switch {
	case m == "":
		return n
	case n == "":
		return m
	}
	leaves := append(strings.Split(m, "*"), strings.Split(n, "*")...)
	slices.Sort(leaves)
	return strings.Join(leaves, "*")
}

// termKey names a leaf of a form and bounds the degree of its polynomial.
// A component of a Thread method's Dim3 is one variable whatever the call
// (the problem's tid, bid, gid or extent): "S" + method + component for
// BlockDim and GridDim, which both threads share in every problem, as a
// kernel parameter ("Sp" + index); "T" + method + component for the
// others. Any other value is named by its identity and may be of any
// degree.
func (k *Kernel) termKey(fr *frame, v ssa.Value) (string, int) {
	switch v := v.(type) {
	case *ssa.Field:
		if c, _, ok := dim3Call(fr, v.X); ok {
			switch kind := gpuapi.Call(&c.Call); kind {
			case gpuapi.BlockDim, gpuapi.GridDim:
				return "S" + strconv.Itoa(int(kind)) + "." + strconv.Itoa(v.Field), 1
			case gpuapi.ThreadIdx, gpuapi.BlockIdx, gpuapi.GlobalIdx:
				return "T" + strconv.Itoa(int(kind)) + "." + strconv.Itoa(v.Field), 1
			}
		}
	case *ssa.Parameter:
		if fr.parent == nil {
			for i, q := range fr.fn.Params {
				if q == v {
					return "Sp" + strconv.Itoa(i), 1
				}
			}
		}
	}
	ref := valRef{fr, v}
	if key, ok := k.termKeys[ref]; ok {
		return key, maxDegree
	}
	if k.termKeys == nil {
		k.termKeys = map[valRef]string{}
	}
	key := "#" + strconv.Itoa(len(k.termKeys))
	k.termKeys[ref] = key
	return key, maxDegree
}

// sharedMonomial reports whether every leaf of monomial m is one that both
// threads share in every problem.
func sharedMonomial(m string) bool {
	for _, leaf := range strings.Split(m, "*") {
		if leaf != "" && leaf[0] != 'S' {
			return false
		}
	}
	return true
}

// writeMonomials appends the nonzero monomials of f, in order, that are
// (shared set) or are not shared by both threads in every problem.
func writeMonomials(buf *[]byte, f form, shared bool) {
	ms := make([]string, 0, len(f.coef))
	for m, c := range f.coef {
		if c != 0 && sharedMonomial(m) == shared {
			ms = append(ms, m)
		}
	}
	slices.Sort(ms)
	for _, m := range ms {
		*buf = fmt.Appendf(*buf, ",%d*%s", f.coef[m], m)
	}
}
