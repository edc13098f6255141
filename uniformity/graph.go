package uniformity

import "golang.org/x/tools/go/ssa"

// cfg holds the control-flow facts the analysis needs beyond what go/ssa
// gives: post-dominators (over the CFG with one virtual exit that every
// return and panic block, and every block that cannot reach one, flows to),
// natural loops, and a reverse postorder of the reachable blocks.
type cfg struct {
	fn    *ssa.Function
	n     int   // number of blocks; the virtual exit has index n
	ipdom []int // immediate post-dominator of each block (n for the exit)
	rpo   []*ssa.BasicBlock
	loops []*loop
}

// loop is a natural loop: a header and every block that reaches one of its
// back edges without passing the header.
type loop struct {
	header *ssa.BasicBlock
	body   []bool // indexed by block index
}

func (l *loop) contains(b *ssa.BasicBlock) bool { return l.body[b.Index] }

func newCFG(fn *ssa.Function) *cfg {
	g := &cfg{fn: fn, n: len(fn.Blocks)}
	g.rpo = reversePostorder(fn)
	g.postDominators()
	g.findLoops()
	return g
}

func reversePostorder(fn *ssa.Function) []*ssa.BasicBlock {
	seen := make([]bool, len(fn.Blocks))
	var post []*ssa.BasicBlock
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		seen[b.Index] = true
		for _, s := range b.Succs {
			if !seen[s.Index] {
				visit(s)
			}
		}
		post = append(post, b)
	}
	if len(fn.Blocks) > 0 {
		visit(fn.Blocks[0])
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// postDominators computes immediate post-dominators with the iterative
// algorithm of Cooper, Harvey and Kennedy on the reverse CFG.
func (g *cfg) postDominators() {
	n := g.n
	exit := n
	// Reverse-graph successors of each node are its forward predecessors;
	// the exit's reverse successors are the blocks without successors and
	// the blocks that cannot reach one (infinite loops).
	toExit := make([]bool, n)
	var mark func(b *ssa.BasicBlock)
	mark = func(b *ssa.BasicBlock) {
		if toExit[b.Index] {
			return
		}
		toExit[b.Index] = true
		for _, p := range b.Preds {
			mark(p)
		}
	}
	for _, b := range g.fn.Blocks {
		if len(b.Succs) == 0 {
			mark(b)
		}
	}
	exitPreds := []int{} // blocks with an edge to the exit
	for _, b := range g.fn.Blocks {
		if len(b.Succs) == 0 || !toExit[b.Index] {
			exitPreds = append(exitPreds, b.Index)
		}
	}
	// Order nodes by reverse postorder of the reverse graph.
	order := make([]int, 0, n+1)
	seen := make([]bool, n+1)
	var visit func(v int)
	rsuccs := func(v int) []int {
		if v == exit {
			return exitPreds
		}
		ps := g.fn.Blocks[v].Preds
		out := make([]int, len(ps))
		for i, p := range ps {
			out[i] = p.Index
		}
		return out
	}
	visit = func(v int) {
		seen[v] = true
		for _, s := range rsuccs(v) {
			if !seen[s] {
				visit(s)
			}
		}
		order = append(order, v)
	}
	visit(exit)
	for i := range n {
		if !seen[i] {
			visit(i) // unreachable from the exit even with the extra edges
		}
	}
	po := make([]int, n+1) // postorder number
	for i, v := range order {
		po[v] = i
	}
	// rpreds(v) in the reverse graph = forward successors (plus the exit).
	rpreds := func(v int) []int {
		var out []int
		b := g.fn.Blocks[v]
		for _, s := range b.Succs {
			out = append(out, s.Index)
		}
		if len(b.Succs) == 0 || !toExit[v] {
			out = append(out, exit)
		}
		return out
	}
	ipdom := make([]int, n+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for po[a] < po[b] {
				a = ipdom[a]
			}
			for po[b] < po[a] {
				b = ipdom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			v := order[i]
			if v == exit {
				continue
			}
			nd := -1
			for _, p := range rpreds(v) {
				if ipdom[p] == -1 {
					continue
				}
				if nd == -1 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != -1 && ipdom[v] != nd {
				ipdom[v] = nd
				changed = true
			}
		}
	}
	for i := range ipdom {
		if ipdom[i] == -1 {
			ipdom[i] = exit
		}
	}
	g.ipdom = ipdom[:n]
}

// postDominates reports whether block a post-dominates block b (index n is
// the virtual exit).
func (g *cfg) postDominates(a, b int) bool {
	for b != g.n {
		if a == b {
			return true
		}
		b = g.ipdom[b]
	}
	return a == g.n
}

func (g *cfg) findLoops() {
	byHeader := map[*ssa.BasicBlock]*loop{}
	for _, b := range g.rpo {
		for _, s := range b.Succs {
			if !s.Dominates(b) {
				continue
			}
			l := byHeader[s]
			if l == nil {
				l = &loop{header: s, body: make([]bool, g.n)}
				l.body[s.Index] = true
				byHeader[s] = l
				g.loops = append(g.loops, l)
			}
			// Walk back from the latch to the header.
			work := []*ssa.BasicBlock{b}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				if l.body[x.Index] {
					continue
				}
				l.body[x.Index] = true
				work = append(work, x.Preds...)
			}
		}
	}
}

// region returns the blocks that branch block b controls: those reachable
// from its successors without passing its immediate post-dominator.
func (g *cfg) region(b *ssa.BasicBlock) []bool {
	in := make([]bool, g.n)
	stop := g.ipdom[b.Index]
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x.Index == stop || in[x.Index] {
			continue
		}
		in[x.Index] = true
		work = append(work, x.Succs...)
	}
	return in
}

// joins returns the blocks where paths from different successors of branch
// block b first meet, up to and including its immediate post-dominator: the
// blocks whose φ-nodes merge values that threads taking different sides of
// the branch computed (sync dependence). Labels flow in reverse postorder;
// a block reached by two labels is a join and starts a label of its own.
func (g *cfg) joins(b *ssa.BasicBlock, region []bool) []bool {
	join := make([]bool, g.n)
	label := make([]int, g.n)
	for i := range label {
		label[i] = -1
	}
	stop := g.ipdom[b.Index]
	inScope := func(x *ssa.BasicBlock) bool { return region[x.Index] || x.Index == stop }
	for iter := 0; iter < len(g.rpo)+2; iter++ {
		changed := false
		for _, x := range g.rpo {
			if !inScope(x) || x == b {
				continue
			}
			var fwd, back []int
			for _, p := range x.Preds {
				var l int
				switch {
				case p == b:
					l = x.Index // each successor of b starts its own label
				case region[p.Index] && p.Index != stop && label[p.Index] >= 0:
					l = label[p.Index]
				default:
					continue
				}
				if x.Dominates(p) {
					back = append(back, l)
				} else {
					fwd = append(fwd, l)
				}
			}
			ls := fwd
			if len(ls) == 0 {
				ls = back
			}
			if len(ls) == 0 {
				continue
			}
			nl := ls[0]
			for _, l := range ls[1:] {
				if l != nl {
					join[x.Index] = true
				}
			}
			if join[x.Index] {
				nl = x.Index
			}
			if label[x.Index] != nl {
				label[x.Index] = nl
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return join
}
