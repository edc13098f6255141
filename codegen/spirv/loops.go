package spirv

import "github.com/gpukvet/gpukvet/codegen/kir"

// analyze finds f's natural loops (as kir.Analyze does, without its
// post-dominator sets, which cost cubic time on the thousand-block kernels
// that inlined math functions give) and whether f is reducible.
func analyze(f *kir.Func) (loops []*kir.Loop, loopOf map[*kir.Block]*kir.Loop, dom *kir.DomTree, reducible bool) {
	dom = kir.Dominators(f)
	loops = kir.NaturalLoops(f, dom)
	loopOf = map[*kir.Block]*kir.Loop{}
	for _, l := range loops {
		loopOf[l.Header] = l
	}
	// Reducible: the graph without back edges is acyclic.
	color := make([]int, len(f.Blocks))
	reducible = true
	type frame struct {
		b *kir.Block
		i int
	}
	if len(f.Blocks) > 0 {
		stack := []frame{{f.Blocks[0], 0}}
		color[0] = 1
		for len(stack) > 0 && reducible {
			top := &stack[len(stack)-1]
			if top.i == len(top.b.Succs) {
				color[top.b.Index] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			s := top.b.Succs[top.i]
			top.i++
			if dom.Dominates(s, top.b) {
				continue
			}
			switch color[s.Index] {
			case 1:
				reducible = false
			case 0:
				color[s.Index] = 1
				stack = append(stack, frame{s, 0})
			}
		}
	}
	return loops, loopOf, dom, reducible
}

// postDom is the post-dominator tree of the local graph of one loop body
// (or of the function outside loops): localSuccs' edges, and a virtual
// exit that returns, breaks and continues lead to. A trap leads nowhere, so
// it constrains no merge (Cooper, Harvey and Kennedy on the reverse graph:
// a block no exit is reachable from has no post-dominator).
type postDom struct {
	ipdom []int // by block index; exit = len(blocks); -1 undefined
}

func (p *plan) postDominators(l *loopPlan) *postDom {
	f := p.f
	n := len(f.Blocks)
	exit := n
	succs := make([][]int, n+1) // of the forward graph, with exit
	preds := make([][]int, n+1)
	for _, x := range f.Blocks {
		leaves := x.Term == kir.TermReturn
		for _, y := range x.Succs {
			if l != nil && (y == l.merge || y == l.cont || y == l.header) {
				leaves = true
			}
		}
		for _, y := range p.localSuccs(l, x) {
			succs[x.Index] = append(succs[x.Index], y.Index)
			preds[y.Index] = append(preds[y.Index], x.Index)
		}
		if leaves {
			succs[x.Index] = append(succs[x.Index], exit)
			preds[exit] = append(preds[exit], x.Index)
		}
	}
	// Reverse postorder of the reverse graph from exit.
	order := make([]int, n+1)
	for i := range order {
		order[i] = -1
	}
	var post []int
	seen := make([]bool, n+1)
	type frame struct{ v, i int }
	stack := []frame{{exit, 0}}
	seen[exit] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(preds[top.v]) {
			w := preds[top.v][top.i]
			top.i++
			if !seen[w] {
				seen[w] = true
				stack = append(stack, frame{w, 0})
			}
			continue
		}
		post = append(post, top.v)
		stack = stack[:len(stack)-1]
	}
	rpo := make([]int, len(post))
	for i, v := range post {
		rpo[len(post)-1-i] = v
		order[v] = len(post) - 1 - i
	}
	ip := make([]int, n+1)
	for i := range ip {
		ip[i] = -1
	}
	ip[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for order[a] > order[b] {
				a = ip[a]
			}
			for order[b] > order[a] {
				b = ip[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, v := range rpo[1:] {
			nd := -1
			for _, s := range succs[v] {
				if ip[s] == -1 {
					continue
				}
				if nd == -1 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if nd != -1 && ip[v] != nd {
				ip[v] = nd
				changed = true
			}
		}
	}
	return &postDom{ipdom: ip}
}
