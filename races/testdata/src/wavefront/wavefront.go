// Package wavefront holds tiled wavefront kernels (Rodinia nw, dynamic
// programming over anti-diagonals): the blocks of one launch take the tiles
// of one anti-diagonal, so a tile's coordinates come from the block index
// and the diagonal number, and the tiles of one launch are apart only
// because a row-major index r*w + c with 0 <= c < w names one cell. Each
// clean kernel has a racy twin whose rows are too narrow for their tiles.
package wavefront

import "github.com/gpukvet/gpukvet/gpu"

const B = 16

// The nw spelling: the tile's top-left neighbour cell as a base, rows read
// and written through it.
//
//gpu:kernel block=16
func NwTile(t gpu.Thread, tiles, diag int, score []int32) {
	if tiles < 1 {
		return
	}
	tx := t.ThreadIdx().X
	bx := t.BlockIdx().X + max(0, diag-tiles+1)
	by := diag - bx
	if bx >= tiles || by < 0 {
		return
	}
	w := tiles*B + 1
	base := by*B*w + bx*B
	top := score[base+tx+1]
	for ty := 0; ty < B; ty++ {
		score[base+(ty+1)*w+tx+1] = top + int32(ty)
	}
}

// Tiles one column too narrow: a tile's last column is the next tile's first.
//
//gpu:kernel block=16
func NwTileOverlap(t gpu.Thread, tiles, diag int, score []int32) {
	if tiles < 1 {
		return
	}
	tx := t.ThreadIdx().X
	bx := t.BlockIdx().X + max(0, diag-tiles+1)
	by := diag - bx
	if bx >= tiles || by < 0 {
		return
	}
	w := tiles*B + 1
	base := by*B*w + bx*(B-1)
	top := score[base+tx+1]
	for ty := 0; ty < B; ty++ {
		score[base+(ty+1)*w+tx+1] = top + int32(ty) // want `data race on global score`
	}
}

// Tiles of a diagonal numbered from its first row: row and column of the
// cell written directly, the width a parameter.
//
//gpu:kernel block=16
func DiagonalCells(t gpu.Thread, width, diag int, m []float32) {
	if width < 1 || width%B != 0 {
		panic("width must be a positive multiple of 16")
	}
	tiles := width / B
	tx := t.ThreadIdx().X
	row := diag - t.BlockIdx().X
	col := t.BlockIdx().X
	if row < 0 || row >= tiles || col >= tiles {
		return
	}
	for ty := 0; ty < B; ty++ {
		y := row*B + ty
		x := col*B + tx
		m[y*width+x] = m[y*width+x] + 1
	}
}

// The column runs past the row: tiles of one diagonal meet.
//
//gpu:kernel block=16
func DiagonalCellsOverrun(t gpu.Thread, width, diag int, m []float32) {
	if width < 1 || width%B != 0 {
		panic("width must be a positive multiple of 16")
	}
	tiles := width / B
	tx := t.ThreadIdx().X
	row := diag - t.BlockIdx().X
	col := t.BlockIdx().X
	if row < 0 || row >= tiles || col >= tiles {
		return
	}
	for ty := 0; ty < B; ty++ {
		y := row*B + ty
		x := col*B + tx + ty
		m[y*width+x] = 1 // want `data race on global m`
	}
}

// The nw cells written by row and column, the width from the matrix's
// side n = tiles*B, the diagonal counted from the end of the grid.
//
//gpu:kernel block=16
func NwRowsDirect(t gpu.Thread, n, diag int, ref, score []int32) {
	if n < B || n%B != 0 {
		panic("n must be a positive multiple of 16")
	}
	tiles := n / B
	bx := t.BlockIdx().X
	if diag >= tiles {
		bx += diag - tiles + 1
	}
	by := diag - bx
	if bx >= tiles || by < 0 {
		return
	}
	tx := t.ThreadIdx().X
	for ty := 0; ty < B; ty++ {
		row, col := by*B+ty+1, bx*B+tx+1
		score[row*(n+1)+col] = score[(row-1)*(n+1)+col] + ref[row*(n+1)+col]
	}
}
