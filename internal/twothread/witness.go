package twothread

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// paramText names the values of the kernel's scalar parameters and free
// grid and block extents in model m that took part in the pair question
// ("n = 0", "GridDim().X = 1"): a race that needs a
// degenerate size (a row stride below the block width, an empty matrix)
// says so, and a guard that returns on such sizes silences it.
func (p *problem) paramText(m []int64) string {
	var parts []string
	for key, x := range p.varIdx {
		if int(x) >= len(m) || key.dim < 0 || key.dim > 2 && key.kind != vParam {
			continue
		}
		switch key.kind {
		case vParam:
			if key.dim < len(p.k.fn.Params) {
				parts = append(parts, fmt.Sprintf("%s = %d", p.k.fn.Params[key.dim].Name(), m[x]))
			}
		case vGdim:
			parts = append(parts, fmt.Sprintf("GridDim().%c = %d", "XYZ"[key.dim], m[x]))
		case vBdim:
			parts = append(parts, fmt.Sprintf("BlockDim().%c = %d", "XYZ"[key.dim], m[x]))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// degenerateCand returns the guard ("n < 1 || tiles < 2") on integer
// parameters whose witness values are degenerate (zero or negative: an
// empty matrix; 1: a single row or tile) when excluding them makes this
// pair's race impossible, keeping only the sizes the race needs; nil
// otherwise. guards.go then checks it against every pair of the line.
func (p *problem) degenerateCand(m []int64) *guardCand {
	type cand struct {
		name string
		min  int64
		key  varKey
		x    lincon.Var
	}
	var cands []cand
	for key, x := range p.varIdx {
		if key.kind != vParam || int(x) >= len(m) || key.dim >= len(p.k.fn.Params) || m[x] > 1 {
			continue
		}
		prm := p.k.fn.Params[key.dim]
		if b, ok := prm.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			continue
		}
		c := cand{name: prm.Name(), min: 1, key: key, x: x}
		if m[x] == 1 {
			c.min = 2
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return nil
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].name < cands[j].name })
	excluded := func(keep []bool) bool {
		n := len(p.base)
		defer func() { p.base = p.base[:n] }()
		for i, c := range cands {
			if keep[i] {
				p.base = append(p.base, le(constPoly(c.min), varPoly(c.x)))
			}
		}
		v, _ := p.k.solve(p.linearize())
		return v == lincon.Infeasible
	}
	keep := make([]bool, len(cands))
	for i := range keep {
		keep[i] = true
	}
	if !excluded(keep) {
		return nil
	}
	// Only the sizes the race needs: k = 0 in a witness may be an ordinary
	// value that the guard need not exclude.
	for i := range keep {
		keep[i] = false
		if !excluded(keep) {
			keep[i] = true
		}
	}
	var conds, reqs []string
	var kept []cand
	for i, c := range cands {
		if keep[i] {
			kept = append(kept, c)
			conds = append(conds, fmt.Sprintf("%s < %d", c.name, c.min))
			reqs = append(reqs, fmt.Sprintf("%s must be at least %d", c.name, c.min))
		}
	}
	return &guardCand{Guard: Guard{Cond: strings.Join(conds, " || "), Require: strings.Join(reqs, " and ")}, pow2: -1,
		fact: func(q *problem) {
			for _, c := range kept {
				q.base = append(q.base, le(constPoly(c.min), q.v(c.key)))
			}
		},
		holds: func([]int64) bool { return true }}
}
