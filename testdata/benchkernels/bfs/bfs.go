// Package bfs is a level-synchronous breadth-first search over a CSR graph in
// the style of Rodinia's bfs: Expand visits the neighbours of the frontier,
// claiming each unvisited node with a compare-and-swap, and Advance turns the
// claimed nodes into the next frontier.
package bfs

import "github.com/gpukvet/gpukvet/gpu"

// Expand visits the neighbours of every frontier node v (frontier[v] != 0):
// the thread that claims an unvisited neighbour u sets its cost to level+1
// and marks it for the next frontier; done[0] becomes 1 if any node was
// claimed.
//
//gpu:kernel block=256
func Expand(t gpu.Thread, level int32, rowPtr, cols, frontier, visited, next, cost, done []int32) {
	v := t.GlobalIdx().X
	if v >= len(frontier) || frontier[v] == 0 {
		return
	}
	for e := rowPtr[v]; e < rowPtr[v+1]; e++ {
		u := cols[e]
		if gpu.AtomicCompareAndSwap(&visited[u], 0, 1) == 0 {
			gpu.AtomicExchange(&cost[u], level+1)
			gpu.AtomicExchange(&next[u], 1)
			gpu.AtomicExchange(&done[0], 1)
		}
	}
}

// Advance moves next into frontier and clears next.
//
//gpu:kernel block=256
func Advance(t gpu.Thread, frontier, next []int32) {
	v := t.GlobalIdx().X
	if v < len(frontier) && v < len(next) {
		frontier[v] = next[v]
		next[v] = 0
	}
}
