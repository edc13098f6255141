// Package pathfinder is Rodinia's pathfinder dynamic program: the cheapest
// path from the top row of a wall to each bottom cell, moving down, down-left
// or down-right. One block sweeps the rows, keeping the previous row in
// shared memory, with barriers between rows.
package pathfinder

import "github.com/gpukvet/gpukvet/gpu"

// Width is the largest number of columns, one thread each.
const Width = 256

// Sweep computes result[c] = the cost of the cheapest path ending at the
// bottom cell c of wall (rows×cols, cols ≤ Width).
//
//gpu:kernel block=256 grid=1
func Sweep(t gpu.Thread, rows, cols int, wall, result []int32) {
	prev := gpu.Shared[[Width]int32](t)
	cur := gpu.Shared[[Width]int32](t)
	tx := t.ThreadIdx().X
	if tx < cols {
		prev[tx] = wall[tx]
	}
	t.Barrier()
	for r := 1; r < rows; r++ {
		if tx < cols {
			best := prev[tx]
			if tx > 0 {
				best = min(best, prev[tx-1])
			}
			if tx < cols-1 {
				best = min(best, prev[tx+1])
			}
			cur[tx] = best + wall[r*cols+tx]
		}
		t.Barrier()
		if tx < cols {
			prev[tx] = cur[tx]
		}
		t.Barrier()
	}
	if tx < cols {
		result[tx] = prev[tx]
	}
}

// Step is the multi-block form: one row per launch, each block staging its
// part of the previous row plus a halo cell on either side.
//
//gpu:kernel block=256
func Step(t gpu.Thread, cols int, prev, wallRow, next []int32) {
	halo := gpu.Shared[[Width + 2]int32](t)
	tx := t.ThreadIdx().X
	c := t.GlobalIdx().X
	const inf = 1 << 30
	v := int32(inf)
	if c < cols {
		v = prev[c]
	}
	halo[tx+1] = v
	if tx == 0 {
		halo[0] = inf
		if c > 0 && c-1 < cols {
			halo[0] = prev[c-1]
		}
	}
	if tx == Width-1 {
		halo[Width+1] = inf
		if c+1 < cols {
			halo[Width+1] = prev[c+1]
		}
	}
	t.Barrier()
	if c < cols {
		next[c] = wallRow[c] + min(halo[tx], halo[tx+1], halo[tx+2])
	}
}
