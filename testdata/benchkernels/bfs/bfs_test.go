package bfs

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestBFS(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(13)
	n := 600
	adj := make([][]int32, n)
	for v := 0; v < n; v++ {
		for e := 0; e < 3; e++ {
			u := r.Intn(n)
			adj[v] = append(adj[v], int32(u))
			adj[u] = append(adj[u], int32(v))
		}
	}
	rowPtr := []int32{0}
	var cols []int32
	for _, nb := range adj {
		cols = append(cols, nb...)
		rowPtr = append(rowPtr, int32(len(cols)))
	}
	// Reference: sequential BFS from 0.
	want := make([]int32, n)
	for i := range want {
		want[i] = -1
	}
	want[0] = 0
	queue := []int{0}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range adj[v] {
			if want[u] < 0 {
				want[u] = want[v] + 1
				queue = append(queue, int(u))
			}
		}
	}
	frontier, visited, cost := make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range cost {
		cost[i] = -1
	}
	frontier[0], visited[0], cost[0] = 1, 1, 0
	bf, bv, bc := bt.Up(t, d, frontier), bt.Up(t, d, visited), bt.Up(t, d, cost)
	next, done := bt.Zeros[int32](t, d, n), bt.Up(t, d, []int32{0})
	br, bcols := bt.Up(t, d, rowPtr), bt.Up(t, d, cols)
	grid, block := bt.Dim(bt.Blocks(n, 256)), bt.Dim(256)
	for level := int32(0); ; level++ {
		bt.Run(t, d, Expand, grid, block, level, br, bcols, bf, bv, next, bc, done)
		bt.Run(t, d, Advance, grid, block, bf, next)
		if bt.Down(t, done)[0] == 0 {
			break
		}
		done.Free()
		done = bt.Up(t, d, []int32{0})
		if level > int32(n) {
			t.Fatal("BFS does not terminate")
		}
	}
	bt.Equal(t, "cost", bt.Down(t, bc), want)
}
