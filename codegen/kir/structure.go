package kir

// DomTree holds the immediate dominators of a function's blocks.
type DomTree struct {
	idom  []*Block
	order []int // reverse postorder number of each block, -1 if unreachable
	// in and out number each block on entering and leaving it in a walk of
	// the tree: a dominates b when b's interval nests in a's, which makes
	// Dominates constant-time (structurizing asks it for every pair).
	in, out []int
	// children lists each block's children in the tree, by Block.Index.
	children [][]*Block
}

// Dominators computes the dominator tree of f (Cooper, Harvey and Kennedy's
// iterative algorithm over reverse postorder).
func Dominators(f *Func) *DomTree {
	rpo := ReversePostorder(f)
	t := &DomTree{idom: make([]*Block, len(f.Blocks)), order: make([]int, len(f.Blocks))}
	for i := range t.order {
		t.order[i] = -1
	}
	for i, b := range rpo {
		t.order[b.Index] = i
	}
	if len(rpo) == 0 {
		return t
	}
	entry := rpo[0]
	t.idom[entry.Index] = entry
	for changed := true; changed; {
		changed = false
		for _, b := range rpo[1:] {
			var nd *Block
			for _, p := range b.Preds {
				if t.idom[p.Index] == nil {
					continue
				}
				if nd == nil {
					nd = p
				} else {
					nd = t.intersect(p, nd)
				}
			}
			if nd != nil && t.idom[b.Index] != nd {
				t.idom[b.Index] = nd
				changed = true
			}
		}
	}
	t.number(f, entry)
	return t
}

// number fills t.in and t.out with a walk of the tree from entry.
func (t *DomTree) number(f *Func, entry *Block) {
	t.children = make([][]*Block, len(t.idom))
	for _, b := range f.Blocks {
		if d := t.idom[b.Index]; d != nil && d != b {
			t.children[d.Index] = append(t.children[d.Index], b)
		}
	}
	t.in, t.out = make([]int, len(t.idom)), make([]int, len(t.idom))
	n := 0
	t.Walk(entry, func(b *Block) {
		t.in[b.Index] = n
		n++
	}, func(b *Block) {
		t.out[b.Index] = n
		n++
	})
}

func (t *DomTree) intersect(a, b *Block) *Block {
	for a != b {
		for t.order[a.Index] > t.order[b.Index] {
			a = t.idom[a.Index]
		}
		for t.order[b.Index] > t.order[a.Index] {
			b = t.idom[b.Index]
		}
	}
	return a
}

// Idom returns b's immediate dominator (the entry's is itself; nil if b is
// unreachable).
func (t *DomTree) Idom(b *Block) *Block { return t.idom[b.Index] }

// Dominates reports whether a dominates b (every block dominates itself).
func (t *DomTree) Dominates(a, b *Block) bool {
	if t.order[b.Index] < 0 || t.order[a.Index] < 0 {
		return false
	}
	return t.in[a.Index] <= t.in[b.Index] && t.out[b.Index] <= t.out[a.Index]
}

// Walk visits the dominator tree below root depth first: enter(b) before
// b's subtree and leave(b) after it. It keeps its own stack: a dominator
// tree is as deep as the kernel's straight-line code is long (one block
// per inlined call).
func (t *DomTree) Walk(root *Block, enter, leave func(b *Block)) {
	type frame struct {
		b *Block
		i int
	}
	enter(root)
	stack := []frame{{root, 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if kids := t.children[top.b.Index]; top.i < len(kids) {
			c := kids[top.i]
			top.i++
			enter(c)
			stack = append(stack, frame{c, 0})
			continue
		}
		leave(top.b)
		stack = stack[:len(stack)-1]
	}
}

// ReversePostorder lists the blocks reachable from the entry in reverse
// postorder.
func ReversePostorder(f *Func) []*Block {
	if len(f.Blocks) == 0 {
		return nil
	}
	seen := make([]bool, len(f.Blocks))
	var post []*Block
	type frame struct {
		b *Block
		i int
	}
	stack := []frame{{f.Blocks[0], 0}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(top.b.Succs) {
			s := top.b.Succs[top.i]
			top.i++
			if !seen[s.Index] {
				seen[s.Index] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// Loop is a natural loop: the blocks a back edge to Header encloses.
type Loop struct {
	Header *Block
	// Latches are the sources of the back edges (SPIR-V's continue target
	// is their common dominator, or a single latch).
	Latches []*Block
	Blocks  map[*Block]bool
	// Exits are the blocks outside the loop that it branches to; for loops
	// lowered from Go's for statements there is one, the merge block.
	Exits []*Block
}

// Structure is the structured control-flow view of a function: what a
// SPIR-V emitter needs for OpLoopMerge (header, merge, continue target) and
// OpSelectionMerge (the merge block of each two-way branch, its immediate
// post-dominator).
type Structure struct {
	Dom   *DomTree
	Loops []*Loop
	// LoopOf maps a loop header to its loop.
	LoopOf map[*Block]*Loop
	// Merge maps a block ending in a branch that is not a loop header's
	// exit test to the block where its two arms meet (nil if they never
	// meet, e.g. one arm returns).
	Merge map[*Block]*Block
	// Reducible is true when every cycle enters through its header (the
	// back edges, to dominators, are the only edges closing cycles): what
	// structured emitters need. Go code without goto is always reducible.
	Reducible bool
}

// Analyze computes the structure of f.
func Analyze(f *Func) *Structure {
	s := &Structure{Dom: Dominators(f), LoopOf: map[*Block]*Loop{}, Merge: map[*Block]*Block{}}
	s.Loops = NaturalLoops(f, s.Dom)
	for _, l := range s.Loops {
		s.LoopOf[l.Header] = l
	}
	s.Reducible = reducible(f, s.Dom)
	pdom := postDominators(f)
	for _, b := range f.Blocks {
		if b.Term == TermBranch {
			s.Merge[b] = pdom[b.Index]
		}
	}
	return s
}

// postDominators returns each block's immediate post-dominator (nil when
// the block's paths end in different exits), computed by iterating sets;
// kernels are small.
func postDominators(f *Func) []*Block {
	n := len(f.Blocks)
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	pd := make([][]bool, n)
	for i, b := range f.Blocks {
		if len(b.Succs) == 0 {
			pd[i] = make([]bool, n)
			pd[i][i] = true
		} else {
			pd[i] = append([]bool(nil), all...)
		}
	}
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			b := f.Blocks[i]
			if len(b.Succs) == 0 {
				continue
			}
			nw := append([]bool(nil), all...)
			for _, s := range b.Succs {
				for j := range nw {
					nw[j] = nw[j] && pd[s.Index][j]
				}
			}
			nw[i] = true
			for j := range nw {
				if nw[j] != pd[i][j] {
					pd[i] = nw
					changed = true
					break
				}
			}
		}
	}
	ipd := make([]*Block, n)
	for i := range f.Blocks {
		// The immediate post-dominator is the strict post-dominator that
		// every other strict post-dominator post-dominates.
		for j := range f.Blocks {
			if j == i || !pd[i][j] {
				continue
			}
			imm := true
			for k := range f.Blocks {
				if k != i && k != j && pd[i][k] && !pd[j][k] {
					imm = false
					break
				}
			}
			if imm {
				ipd[i] = f.Blocks[j]
				break
			}
		}
	}
	return ipd
}

// reducible reports whether f's graph without its back edges is acyclic.
func reducible(f *Func, dom *DomTree) bool {
	const (
		white = iota
		grey
		black
	)
	if len(f.Blocks) == 0 {
		return true
	}
	// Depth-first search with its own stack (the graph is as deep as the
	// kernel is long): a forward edge to a grey block closes a cycle.
	color := make([]int, len(f.Blocks))
	type frame struct {
		b *Block
		i int
	}
	color[f.Blocks[0].Index] = grey
	stack := []frame{{f.Blocks[0], 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i == len(top.b.Succs) {
			color[top.b.Index] = black
			stack = stack[:len(stack)-1]
			continue
		}
		s := top.b.Succs[top.i]
		top.i++
		if dom.Dominates(s, top.b) {
			continue // a back edge
		}
		switch color[s.Index] {
		case grey:
			return false
		case white:
			color[s.Index] = grey
			stack = append(stack, frame{s, 0})
		}
	}
	return true
}

// Reach visits each block reachable from start through next once, depth
// first with its own stack, and stops as soon as visit returns false; it
// reports whether the search ran to the end.
func Reach(start *Block, next func(*Block) []*Block, visit func(*Block) bool) bool {
	seen := map[*Block]bool{}
	work := []*Block{start}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if !visit(x) {
			return false
		}
		work = append(work, next(x)...)
	}
	return true
}
