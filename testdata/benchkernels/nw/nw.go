// Package nw is Rodinia's Needleman-Wunsch alignment: the score matrix is
// filled in 16×16 tiles along anti-diagonals of tiles, one launch per tile
// diagonal, and inside a tile the 16 threads of a block sweep the cells'
// anti-diagonals in shared memory with a barrier between them.
package nw

import "github.com/gpukvet/gpukvet/gpu"

// B is the side of a tile and the number of threads of a block.
const B = 16

// Tile fills the tiles on tile anti-diagonal diag of score ((n+1)×(n+1),
// n = tiles*B; row 0 and column 0 already hold the gap penalties) from the
// substitution scores ref (same shape).
//
//gpu:kernel block=16
func Tile(t gpu.Thread, tiles, diag int, penalty int32, ref, score []int32) {
	temp := gpu.Shared[[B + 1][B + 1]int32](t)
	rf := gpu.Shared[[B][B]int32](t)
	if tiles < 1 {
		return // rows of w = 1 would overlap
	}
	tx := t.ThreadIdx().X
	bx := t.BlockIdx().X + max(0, diag-tiles+1)
	by := diag - bx
	if bx >= tiles || by < 0 {
		return // a block beyond the diagonal's tiles
	}
	w := tiles*B + 1
	base := by*B*w + bx*B // the tile's top-left neighbour cell
	for ty := 0; ty < B; ty++ {
		rf[ty][tx] = ref[base+(ty+1)*w+tx+1]
	}
	temp[0][tx+1] = score[base+tx+1]
	temp[tx+1][0] = score[base+(tx+1)*w]
	if tx == 0 {
		temp[0][0] = score[base]
	}
	t.Barrier()
	for m := 0; m < B; m++ {
		if tx <= m {
			x, y := tx+1, m-tx+1
			temp[y][x] = max(temp[y-1][x-1]+rf[y-1][x-1], temp[y][x-1]-penalty, temp[y-1][x]-penalty)
		}
		t.Barrier()
	}
	for m := B - 2; m >= 0; m-- {
		if tx <= m {
			x, y := tx+B-m, B-tx
			temp[y][x] = max(temp[y-1][x-1]+rf[y-1][x-1], temp[y][x-1]-penalty, temp[y-1][x]-penalty)
		}
		t.Barrier()
	}
	for ty := 0; ty < B; ty++ {
		score[base+(ty+1)*w+tx+1] = temp[ty+1][tx+1]
	}
}
