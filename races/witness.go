package races

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"github.com/gpukvet/gpukvet/races/internal/lincon"
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

// degenerateGuard returns the conditions ("n < 1", "tiles < 2") on integer
// parameters whose witness values are degenerate (zero or negative: an
// empty matrix; 1: a single row or tile) when excluding them makes the race
// impossible: the race exists only for sizes the kernel can exclude with a
// guard at its top, which the diagnostic then offers. It returns nil
// otherwise.
func (p *problem) degenerateGuard(m []int64) []string {
	type cand struct {
		name string
		min  int64
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
		c := cand{name: prm.Name(), min: 1, x: x}
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
	var out []string
	for i, c := range cands {
		if keep[i] {
			out = append(out, fmt.Sprintf("%s < %d", c.name, c.min))
		}
	}
	return out
}
