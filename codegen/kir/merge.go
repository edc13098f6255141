package kir

// MergeBlocks joins a block that ends in a jump with its successor when
// that successor has no other predecessor: unrolling and check sinking
// leave chains of such blocks, and each block boundary is a label in the
// emitted code that the assembler's instruction scheduler does not look
// across. It returns how many blocks it removed.
func MergeBlocks(f *Func) int {
	n := 0
	for _, b := range f.Blocks {
		for b.Term == TermJump {
			c := b.Succs[0]
			if c == b || len(c.Preds) != 1 || c == f.Blocks[0] {
				break
			}
			// c's phis have one argument: replace them by it.
			var rest []*Value
			repl := map[*Value]*Value{}
			for _, v := range c.Values {
				if v.Op == OpPhi {
					repl[v] = v.Args[0]
					continue
				}
				rest = append(rest, v)
			}
			if len(repl) > 0 {
				replaceUses(f, func(v *Value) *Value {
					for {
						r, ok := repl[v]
						if !ok {
							return v
						}
						v = r
					}
				})
			}
			for _, v := range rest {
				v.Block = b
			}
			b.Values = append(b.Values, rest...)
			b.Term, b.Cond, b.Trap, b.Succs = c.Term, c.Cond, c.Trap, c.Succs
			for _, s := range c.Succs {
				for i, p := range s.Preds {
					if p == c {
						s.Preds[i] = b
					}
				}
			}
			c.Preds, c.Succs, c.Values = nil, nil, nil
			c.Term = TermReturn
			n++
		}
	}
	if n > 0 {
		RemoveUnreachable(f)
	}
	return n
}
