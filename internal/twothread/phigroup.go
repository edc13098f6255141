package twothread

import (
	"sort"

	"golang.org/x/tools/go/ssa"
)

// Pointer swaps. A loop that ping-pongs between two shared arrays through
// pointers, src, dst = dst, src, leaves src and dst as phis of one block
// whose incoming values are, on every edge, the arrays or each other's
// previous values, all different. Such a group of phis is a permutation of
// its arrays at every moment: two phis of the group never name the same
// array at the same execution of their block. An access through one of
// them is checked as an access to each array it may name (the access
// records the phi), and two accesses through different phis of a group
// that see the same execution of the block touch different arrays.

// swapGroup returns the arrays that phi v and the phis of its block it
// exchanges values with may name, when they form such a permutation.
func (k *Kernel) swapGroup(fr *frame, v *ssa.Phi) ([]Object, bool) {
	group := map[*ssa.Phi]bool{v: true}
	queue := []*ssa.Phi{v}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if len(group) > 4 {
			return nil, false
		}
		for _, e := range p.Edges {
			if q, ok := e.(*ssa.Phi); ok {
				if q.Block() != v.Block() {
					return nil, false
				}
				if !group[q] {
					group[q] = true
					queue = append(queue, q)
				}
			}
		}
	}
	if len(group) < 2 {
		return nil, false
	}
	var roots []Object
	seen := map[Object]bool{}
	for i := range v.Block().Preds {
		phis := map[*ssa.Phi]bool{}
		here := map[Object]bool{}
		nphi, nroot := 0, 0
		for p := range group {
			if i >= len(p.Edges) {
				return nil, false
			}
			switch e := p.Edges[i].(type) {
			case *ssa.Phi:
				if phis[e] {
					return nil, false
				}
				phis[e] = true
				nphi++
			default:
				r, comps, ok := k.resolveAddr(fr, e)
				if !ok || len(comps) > 0 || here[r] {
					return nil, false
				}
				here[r] = true
				nroot++
				if !seen[r] {
					seen[r] = true
					roots = append(roots, r)
				}
			}
		}
		if nphi > 0 && nroot > 0 {
			return nil, false
		}
	}
	if len(roots) != len(group) {
		return nil, false
	}
	// In source order: the group was walked in map order, and the first
	// array is the one a race is reported on.
	sort.Slice(roots, func(i, j int) bool {
		if roots[i].shared != roots[j].shared {
			return roots[i].shared < roots[j].shared
		}
		return roots[i].param < roots[j].param
	})
	return roots, true
}

// swapPhiOf returns the phi at the base of address v (through element and
// field addresses), if any.
func swapPhiOf(v ssa.Value) *ssa.Phi {
	for i := 0; i < 8; i++ {
		switch x := v.(type) {
		case *ssa.Phi:
			return x
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		default:
			return nil
		}
	}
	return nil
}
