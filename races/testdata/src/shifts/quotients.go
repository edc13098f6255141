package shifts

import "github.com/gpukvet/gpukvet/gpu"

// Quotients by a divisor that is not a constant, bounded by the
// dividend's range: a linear block id bid = bx + gx·by is below gx·gy, so
// bid / gy is below gx, and a renumbering of the blocks through bid's
// quotient and remainder (cuda-samples transposeDiagonal) is a bijection.
// Each racy twin divides by a parameter instead, whose quotient can pass
// the bound and wrap onto another block's cell.

// BlocksColumnMajor: the blocks of a 2-D grid renumbered column by column.
//
//gpu:kernel block=64
func BlocksColumnMajor(t gpu.Thread, out []float32) {
	gx, gy := t.GridDim().X, t.GridDim().Y
	bid := t.BlockIdx().X + gx*t.BlockIdx().Y
	col, row := bid/gy, bid%gy
	out[(row*gx+col)*64+t.ThreadIdx().X] = 1
}

// BlocksColumnMajorRows: rows blocks a column, which is the grid's height
// only if the host says so.
//
//gpu:kernel block=64
func BlocksColumnMajorRows(t gpu.Thread, out []float32, rows int) {
	gx := t.GridDim().X
	bid := t.BlockIdx().X + gx*t.BlockIdx().Y
	col, row := bid/rows, bid%rows
	out[(row*gx+col)*64+t.ThreadIdx().X] = 1 // want `data race on global out`
}

// DiagonalTilesRows: cuda-samples transposeDiagonal's renumbering of a
// rectangular grid through the linear block id, with a parameter for the
// grid's height. (With the grid's own height it is a bijection, but the
// refutation, through the quotient fed to a second remainder, takes the
// solver more conjunctions than the quotient bound's budget: the
// corpus's TransposeDiagonalGuarded is still reported.)
//
//gpu:kernel block=16,16
func DiagonalTilesRows(t gpu.Thread, out []float32, w, rows int) {
	gx := t.GridDim().X
	if gx*16 != w {
		return
	}
	bid := t.BlockIdx().X + gx*t.BlockIdx().Y
	by := bid % rows
	bx := (bid/rows + by) % gx
	x := bx*16 + t.ThreadIdx().X
	y := by*16 + t.ThreadIdx().Y
	out[y*w+x] = 1 // want `race on global out`
}

// GlobalTranspose: thread i of a 1-D grid of 64-thread blocks is cell
// (i / gx, i % gx) of a 64 × gx matrix and stores its transpose.
//
//gpu:kernel block=64
func GlobalTranspose(t gpu.Thread, out []float32) {
	gx := t.GridDim().X
	i := t.GlobalIdx().X
	row, col := i/gx, i%gx
	out[col*64+row] = 1
}

// GlobalTransposeWidth: the width a parameter: a row of more than 64
// cells wraps onto the next column.
//
//gpu:kernel block=64
func GlobalTransposeWidth(t gpu.Thread, out []float32, w int) {
	i := t.GlobalIdx().X
	row, col := i/w, i%w
	out[col*64+row] = 1 // want `race on global out`
}

// PlaneTranspose: the 2-D global index of 16×16 blocks, flattened row by
// row and read back column by column: a height of 16·gy.
//
//gpu:kernel block=16,16
func PlaneTranspose(t gpu.Thread, out []float32) {
	w, h := 16*t.GridDim().X, 16*t.GridDim().Y
	i := t.GlobalIdx().Y*w + t.GlobalIdx().X
	x, y := i/h, i%h
	out[y*w+x] = 1
}

// PlaneTransposeHeight: the height a parameter.
//
//gpu:kernel block=16,16
func PlaneTransposeHeight(t gpu.Thread, out []float32, h int) {
	w := 16 * t.GridDim().X
	i := t.GlobalIdx().Y*w + t.GlobalIdx().X
	x, y := i/h, i%h
	out[y*w+x] = 1 // want `race on global out`
}
