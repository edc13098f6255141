package twothread

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// Block counts (stream compaction, worklist pushes). Each thread of a
// block that keeps an element takes a ticket from a shared counter
// (`pos = gpu.AtomicAdd(&cnt[0], 1)`, the counter reset before a barrier);
// after a barrier the leader claims the block's range of the output with
// one global add of the count (`base = gpu.AtomicAdd(&total[0], cnt[0])`)
// and publishes its result in a shared cell (another one, or cnt[0]
// itself); after another barrier every thread writes out[base + pos]. The
// global counter only grows, so the ranges [base, base + count) of
// different blocks are disjoint, and a ticket is below its block's count:
// out[base + pos] of two blocks never collide.
//
// The model gives each thread t its block's count C_t ≥ 0, a variable of
// the problem. A global counter whose every write is an add of a block
// count (countCell) has values of different executions at least the
// earlier one's count apart: v₁ + C₁ ≤ v₂ or v₂ + C₂ ≤ v₁. A ticket from
// the count's cell is at most C_t − K (K its add) when every ticket add
// ran before the leader read the count (a barrier between, no path back)
// and every reset before the tickets.

// countInfo is a shared counter cell whose value a global add claims.
type countInfo struct {
	key  string  // the cell's root and constant element path
	load *Access // the leader's read of the count (the global add's addend)
	tick int64   // the smallest ticket add on the cell (≥ 1)
}

// countCell returns the count whose load v, in frame fr, is the addend of
// a global add, or nil: the load of a shared cell with a constant path
// whose every write stores a non-negative constant, adds a positive one,
// or stores the result of a global atomic add.
func (k *Kernel) countCell(fr *frame, v ssa.Value) *countInfo {
	for {
		c, ok := v.(*ssa.Convert)
		if !ok || !isInteger(c.X.Type()) {
			break
		}
		v = c.X
	}
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return nil
	}
	load := k.accessOf(fr, u)
	if load == nil || load.root.Global() {
		return nil
	}
	key, ok := constPath(load)
	if !ok {
		return nil
	}
	info := &countInfo{key: key, load: load}
	for _, a := range k.accesses {
		if !a.write || a.root != load.root {
			continue
		}
		if ak, ok := constPath(a); ok && ak != key {
			continue
		}
		if _, exact := constPath(a); !exact {
			return nil
		}
		switch w := a.instr.(type) {
		case *ssa.Call:
			add, ok := constArg(a.node.fr, w.Call.Args[1])
			if gpuapi.Call(&w.Call) != gpuapi.AtomicAdd || !ok || add < 1 {
				return nil
			}
			if info.tick == 0 || add < info.tick {
				info.tick = add
			}
		case *ssa.Store:
			if c, ok := constOf(w.Val); ok && c >= 0 {
				continue
			}
			if !storesGlobalAdd(w.Val) {
				return nil
			}
		default:
			return nil
		}
	}
	if info.tick == 0 {
		return nil
	}
	return info
}

// storesGlobalAdd reports whether v is, through conversions, the result
// of an atomic add (the base a leader publishes in the count's own cell).
func storesGlobalAdd(v ssa.Value) bool {
	for {
		switch x := v.(type) {
		case *ssa.Convert:
			v = x.X
			continue
		case *ssa.Call:
			return gpuapi.Call(&x.Call) == gpuapi.AtomicAdd
		}
		return false
	}
}

// accessOf returns the access instruction in makes in frame fr, or nil.
func (k *Kernel) accessOf(fr *frame, in ssa.Instruction) *Access {
	for _, a := range k.accesses {
		if a.instr == in && a.node.fr == fr {
			return a
		}
	}
	return nil
}

// blockCount is C_t, the count of thread t's block for count cell key.
func (p *problem) blockCount(key string, t int) poly {
	ck := key + "/" + string(rune('0'+t))
	if c, ok := p.counts[ck]; ok {
		return c
	}
	if p.counts == nil {
		p.counts = map[string]poly{}
	}
	c := p.aux(false, t)
	p.base = append(p.base, ge(c))
	p.counts[ck] = c
	return c
}

// before reports whether every execution of node a precedes every
// execution of node b in a block: neither is on a cycle, b cannot run
// before a, and a barrier lies on every path from a to b.
func (k *Kernel) before(a, b *node) bool {
	if !k.once(a.fr, a.block) || !k.once(b.fr, b.block) || k.reaches(b, a) || !k.reaches(a, b) {
		return false
	}
	free := make([]bool, len(k.g.nodes))
	for _, n := range k.g.nodes {
		free[n.id] = n.barrier == nil
	}
	return !k.reachesWithin(free, a.succs, b, nil)
}

// ticketBound adds, for ticket x of thread t from the atomic add c on a
// count cell, 0 ≤ x and x + K ≤ C_t, when the count's leader reads it
// after every ticket add, a reset to a constant in every block ran before
// them, and nothing else writes the cell between the tickets and the
// count.
func (p *problem) ticketBound(fr *frame, c *ssa.Call, t int, x poly) {
	self := p.k.accessOf(fr, c)
	if self == nil || self.root.Global() {
		return
	}
	key, ok := constPath(self)
	if !ok {
		return
	}
	cnt := p.k.countOfCell(key)
	if cnt == nil || !p.k.before(self.node, cnt.load.node) {
		return
	}
	reset := false
	for _, a := range p.k.accesses {
		if !a.write || a.root != self.root || a == self {
			continue
		}
		if ak, ok := constPath(a); ok && ak != key {
			continue
		}
		st, isStore := a.instr.(*ssa.Store)
		switch {
		case !isStore && !p.k.before(a.node, cnt.load.node):
			return // another ticket add after the count was read
		case isStore && p.k.before(a.node, self.node):
			// A reset: a constant ≥ 0 (countCell), in every block.
			if _, ok := constOf(st.Val); !ok {
				return
			}
			reset = reset || p.k.everyBlock(a.node)
		case isStore && storesGlobalAdd(st.Val) && p.k.before(self.node, a.node):
			// The base the leader stores in the count's own cell, after a
			// barrier that follows the tickets.
		case isStore && !p.k.before(cnt.load.node, a.node):
			return // a store between the tickets and the count
		}
	}
	if !reset {
		return // the cell starts undefined
	}
	p.base = append(p.base, ge(x), le(add(x, constPoly(cnt.tick)), p.blockCount(key, t)))
}

// countOfCell returns the count of the shared cell key that a global add
// claims, or nil.
func (k *Kernel) countOfCell(key string) *countInfo {
	for _, a := range k.accesses {
		call, ok := a.instr.(*ssa.Call)
		if !ok || !a.root.Global() || gpuapi.Call(&call.Call) != gpuapi.AtomicAdd {
			continue
		}
		if cnt := k.countCell(a.node.fr, call.Call.Args[1]); cnt != nil && cnt.key == key {
			return cnt
		}
	}
	return nil
}
