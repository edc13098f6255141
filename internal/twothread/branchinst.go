package twothread

import "golang.org/x/tools/go/ssa"

// addBranchConds adds, for thread t at access node x, the condition of each
// uniform two-way branch of the interval that both threads pass at the same
// instance and that x can be reached through in one direction only (every
// path from the interval's start to x passes the branch). Both threads take
// such a branch the same way, so an access inside a loop and one after it
// (the loop's exit test, which dominates neither) cannot meet in one
// interval: one thread would have seen the test true, the other false.
func (p *problem) addBranchConds(x *node, t int) {
	if p.cross || p.r == nil {
		return
	}
	for _, n := range p.k.g.nodes {
		if !p.r[n.id] || n == x || len(n.succs) != 2 || n.succs[0] == n.succs[1] || len(n.instrs) == 0 {
			continue
		}
		iff, ok := n.instrs[len(n.instrs)-1].(*ssa.If)
		if !ok || p.k.divOf(n.fr, iff.Cond) || !p.sameInstance(n) {
			continue
		}
		if p.k.reachesWithin(p.r, p.starts, x, n) {
			continue
		}
		viaTrue := p.k.reachesWithin(p.r, n.succs[:1], x, n)
		viaFalse := p.k.reachesWithin(p.r, n.succs[1:], x, n)
		if viaTrue == viaFalse {
			continue
		}
		// When the other thread's access is in n itself, that thread has not
		// taken the branch yet, but it sees the values this one decided on
		// (the same instance of n, and the condition is uniform): a loop
		// counter it has, not the one this thread has after the back edge.
		tc := t
		if n == p.na || n == p.nb {
			tc = 3 - t
		}
		if cl := p.cond(n.fr, iff.Cond, tc, viaTrue); cl != nil && !p.sharedNonlinear(cl) {
			p.clauses = append(p.clauses, cl)
		}
	}
}
