package races

import (
	"fmt"
	"sort"
	"strings"
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
