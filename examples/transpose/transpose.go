// Package transpose transposes a matrix through a shared-memory tile, so that
// both the reads of the input and the writes of the output are coalesced
// (consecutive threads touch consecutive addresses). The tile has one column
// of padding, [TileDim][TileDim+1], so that the threads reading a column of
// it hit different shared-memory banks.
package transpose

//go:generate go tool gpukvet gen

import "github.com/gpukvet/gpukvet/gpu"

// TileDim is the side of the tile a block transposes; BlockRows is the
// number of rows of threads in a block, each thread copying TileDim/BlockRows
// elements.
const (
	TileDim   = 32
	BlockRows = 8
)

// Transpose writes the transpose of in (height rows of width elements) to out
// (width rows of height elements). Launch it on a grid of
// ⌈width/TileDim⌉ × ⌈height/TileDim⌉ blocks of TileDim × BlockRows threads.
//
//gpu:kernel block=32,8
func Transpose(t gpu.Thread, width, height int, in, out []float32) {
	tile := gpu.Shared[[TileDim][TileDim + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*TileDim + tx
	y := t.BlockIdx().Y*TileDim + ty
	for j := 0; j < TileDim; j += BlockRows {
		if x < width && y+j < height {
			tile[ty+j][tx] = in[(y+j)*width+x]
		}
	}
	t.Barrier()
	x = t.BlockIdx().Y*TileDim + tx
	y = t.BlockIdx().X*TileDim + ty
	for j := 0; j < TileDim; j += BlockRows {
		if x < height && y+j < width {
			out[(y+j)*height+x] = tile[tx][ty+j]
		}
	}
}
