package twothread

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// From a pair problem to the solver and back: linear constraints out,
// thread and element names of a model in.

func (p *problem) linearize() *lincon.Problem {
	lz := &linearizer{pb: p, atoms: map[string]lincon.Var{}}
	lp := &lincon.Problem{}
	for _, c := range p.base {
		lp.Base = append(lp.Base, lz.lin(c))
	}
	for _, cl := range p.clauses {
		var alts [][]lincon.Constraint
		for _, alt := range cl {
			var cs []lincon.Constraint
			for _, c := range alt {
				cs = append(cs, lz.lin(c))
			}
			alts = append(alts, cs)
		}
		lp.Clauses = append(lp.Clauses, alts)
	}
	lp.Clauses = append(lp.Clauses, lz.clauses...)
	lp.Base = append(lp.Base, lz.base...)
	lp.NumVars = len(p.vars)
	return lp
}

// genuine reports whether model satisfies the polynomial constraints
// themselves, not only their linear relaxation.
func (p *problem) genuine(m []int64) bool {
	for _, c := range p.base {
		if !c.holds(m) {
			return false
		}
	}
	for _, cl := range p.clauses {
		if !cl.holds(m) {
			return false
		}
	}
	return true
}

func (p *problem) threadName(m []int64, t int) string {
	var xs []string
	for d := 0; d < p.k.shape.Dims; d++ {
		xs = append(xs, strconv.FormatInt(coordValue(p.tid(t, d), m), 10))
	}
	name := "thread " + xs[0]
	if len(xs) > 1 {
		name = "thread (" + strings.Join(xs, ",") + ")"
	}
	if p.cross {
		var bs []string
		for d := 0; d < p.k.shape.Dims; d++ {
			bs = append(bs, strconv.FormatInt(coordValue(p.bid(t, d), m), 10))
		}
		if len(bs) == 1 {
			name += " of block " + bs[0]
		} else {
			name += " of block (" + strings.Join(bs, ",") + ")"
		}
	}
	return name
}

// coordValue is a thread or block coordinate x at model m. A coordinate
// the question never mentioned (ThreadIdx().Y of a kernel whose indices
// use only X, in a 2-D kernel) gets its variable only when the witness is
// named, after m was solved: nothing constrains it but its range, which
// holds 0, so it is 0.
func coordValue(x poly, m []int64) int64 {
	for _, t := range x {
		for _, v := range t.vars {
			if int(v) >= len(m) {
				return 0
			}
		}
	}
	return x.eval(m)
}

func (k *Kernel) elemText(a *Access, idx []poly, m []int64) string {
	var b strings.Builder
	b.WriteString(k.ObjectName(a.root))
	for i, c := range a.comps {
		switch {
		case c.field && c.fname != "":
			b.WriteString("." + c.fname)
		case c.field:
			fmt.Fprintf(&b, ".field%d", c.k)
		case c.any || i >= len(idx):
			b.WriteString("[…]")
		default:
			fmt.Fprintf(&b, "[%d]", idx[i].eval(m))
		}
	}
	return b.String()
}
