package kir

// SplitAtBarriers ends a block before its first barrier when code
// precedes the barrier: that code stays in the block, which now jumps to
// a new block holding the barrier, the rest and the old terminator.
// VersionChecks copies a region without its checks only up to a block
// holding a barrier (two copies of a barrier are two barriers); unsplit,
// the last row copy of an unrolled tile load, which shares a block with
// the barrier after it, stays out of the copy, behind the join, and its
// load waits for the copy's stores (one more memory latency per block of
// a transpose or of a shared-tile product). Split, that code joins the
// region and the barrier starts the block after it. The final MergeBlocks
// joins what no pass used. It returns how many blocks it split.
func SplitAtBarriers(f *Func) int {
	n := 0
	for _, b := range f.Blocks {
		at := firstBarrier(b)
		if at < 0 || at == 0 || b.Values[at-1].Op == OpPhi {
			continue
		}
		rest := &Block{Index: len(f.Blocks), Kind: BlockPlain, Comment: b.Comment,
			Values: append([]*Value(nil), b.Values[at:]...),
			Term:   b.Term, Cond: b.Cond, Trap: b.Trap, Succs: b.Succs, Preds: []*Block{b}}
		for _, v := range rest.Values {
			v.Block = rest
		}
		for _, s := range rest.Succs {
			for i, p := range s.Preds {
				if p == b {
					s.Preds[i] = rest
				}
			}
		}
		b.Values = b.Values[:at:at]
		b.Term, b.Cond, b.Trap, b.Succs = TermJump, nil, Trap{}, []*Block{rest}
		f.Blocks = append(f.Blocks, rest)
		n++
	}
	return n
}

// firstBarrier is the index of b's first barrier among its values, or -1.
func firstBarrier(b *Block) int {
	for i, v := range b.Values {
		if v.Op == OpBarrier {
			return i
		}
	}
	return -1
}
