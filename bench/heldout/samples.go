package heldout

import "github.com/gpukvet/gpukvet/gpu"

// The CUDA samples: 6_Performance/transpose and 2_Concepts_and_Techniques/
// convolutionSeparable.

// The transpose samples' tile: TILE_DIM×TILE_DIM elements, 32×8 threads.
const (
	tileDim   = 32
	blockRows = 8
)

// TransposeCoalesced is the sample's transposeCoalesced: a 32×32 shared
// tile without padding (bank conflicts on the way out). The sample states
// that width and height must be multiples of the tile; here the guard says
// it.
//
//gpu:kernel block=32,8
func TransposeCoalesced(t gpu.Thread, odata, idata []float32, width, height int) {
	if width%tileDim != 0 || height%tileDim != 0 || t.GridDim().X*tileDim != width || t.GridDim().Y*tileDim != height {
		panic("width and height must be multiples of 32 and the grid width/32 × height/32")
	}
	tile := gpu.Shared[[tileDim][tileDim]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	xIndex := t.BlockIdx().X*tileDim + tx
	yIndex := t.BlockIdx().Y*tileDim + ty
	indexIn := xIndex + yIndex*width
	xIndex = t.BlockIdx().Y*tileDim + tx
	yIndex = t.BlockIdx().X*tileDim + ty
	indexOut := xIndex + yIndex*height
	for i := 0; i < tileDim; i += blockRows {
		tile[ty+i][tx] = idata[indexIn+i*width]
	}
	t.Barrier()
	for i := 0; i < tileDim; i += blockRows {
		odata[indexOut+i*height] = tile[tx][ty+i]
	}
}

// TransposeDiagonal is the sample's transposeDiagonal: the padded tile,
// with the blocks renumbered along diagonals (partition camping).
//
//gpu:kernel block=32,8
func TransposeDiagonal(t gpu.Thread, odata, idata []float32, width, height int) {
	if width%tileDim != 0 || height%tileDim != 0 || t.GridDim().X*tileDim != width || t.GridDim().Y*tileDim != height {
		panic("width and height must be multiples of 32 and the grid width/32 × height/32")
	}
	tile := gpu.Shared[[tileDim][tileDim + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	var bx, by int
	if width == height {
		by = t.BlockIdx().X
		bx = (t.BlockIdx().X + t.BlockIdx().Y) % t.GridDim().X
	} else {
		bid := t.BlockIdx().X + t.GridDim().X*t.BlockIdx().Y
		by = bid % t.GridDim().Y
		bx = (bid/t.GridDim().Y + by) % t.GridDim().X
	}
	xIndex := bx*tileDim + tx
	yIndex := by*tileDim + ty
	indexIn := xIndex + yIndex*width
	xIndex = by*tileDim + tx
	yIndex = bx*tileDim + ty
	indexOut := xIndex + yIndex*height
	for i := 0; i < tileDim; i += blockRows {
		tile[ty+i][tx] = idata[indexIn+i*width]
	}
	t.Barrier()
	for i := 0; i < tileDim; i += blockRows {
		//gpukvet:ignore races the diagonal renumbering (bx, by) is a bijection of the grid's blocks, which the solver does not see through %: each block writes its own 32×32 tile
		odata[indexOut+i*height] = tile[tx][ty+i]
	}
}

// convolutionSeparable's filter and blocking.
const (
	kernelRadius = 8
	kernelLength = 2*kernelRadius + 1

	rowsBlockDimX   = 16
	rowsBlockDimY   = 4
	rowsResultSteps = 8
	rowsHaloSteps   = 1

	columnsBlockDimX   = 16
	columnsBlockDimY   = 8
	columnsResultSteps = 8
	columnsHaloSteps   = 1
)

// ConvolutionRows is the sample's convolutionRowsKernel: each block loads
// 8 result steps and a halo step each side of a 16×4 strip into shared
// memory, then convolves each row with the 17-tap filter kern (the
// sample's constant c_Kernel).
//
//gpu:kernel block=16,4
func ConvolutionRows(t gpu.Thread, dst, src, kern []float32, imageW, imageH, pitch int) {
	// The sample's host code asserts these before launching.
	if pitch != imageW || imageW%(rowsResultSteps*rowsBlockDimX) != 0 || imageH%rowsBlockDimY != 0 ||
		t.GridDim().X*rowsResultSteps*rowsBlockDimX != imageW || t.GridDim().Y*rowsBlockDimY != imageH {
		panic("the grid must tile the imageW×imageH image (pitch imageW) in 128×4 strips")
	}
	sData := gpu.Shared[[rowsBlockDimY][(rowsResultSteps + 2*rowsHaloSteps) * rowsBlockDimX]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	// Offset to the left halo edge.
	baseX := (t.BlockIdx().X*rowsResultSteps-rowsHaloSteps)*rowsBlockDimX + tx
	baseY := t.BlockIdx().Y*rowsBlockDimY + ty
	base := baseY*pitch + baseX // the sample moves d_Src and d_Dst by this
	for i := rowsHaloSteps; i < rowsHaloSteps+rowsResultSteps; i++ {
		sData[ty][tx+i*rowsBlockDimX] = src[base+i*rowsBlockDimX]
	}
	for i := 0; i < rowsHaloSteps; i++ {
		var v float32
		if baseX >= -i*rowsBlockDimX {
			v = src[base+i*rowsBlockDimX]
		}
		sData[ty][tx+i*rowsBlockDimX] = v
	}
	for i := rowsHaloSteps + rowsResultSteps; i < rowsHaloSteps+rowsResultSteps+rowsHaloSteps; i++ {
		var v float32
		if imageW-baseX > i*rowsBlockDimX {
			v = src[base+i*rowsBlockDimX]
		}
		sData[ty][tx+i*rowsBlockDimX] = v
	}
	t.Barrier()
	for i := rowsHaloSteps; i < rowsHaloSteps+rowsResultSteps; i++ {
		var sum float32
		for j := -kernelRadius; j <= kernelRadius; j++ {
			sum += kern[kernelRadius-j] * sData[ty][tx+i*rowsBlockDimX+j]
		}
		dst[base+i*rowsBlockDimX] = sum
	}
}

// ConvolutionColumns is the sample's convolutionColumnsKernel: the same
// down the columns, 16×8 threads, the tile padded by one.
//
//gpu:kernel block=16,8
func ConvolutionColumns(t gpu.Thread, dst, src, kern []float32, imageW, imageH, pitch int) {
	if pitch != imageW || imageW%columnsBlockDimX != 0 || imageH%(columnsResultSteps*columnsBlockDimY) != 0 ||
		t.GridDim().X*columnsBlockDimX != imageW || t.GridDim().Y*columnsResultSteps*columnsBlockDimY != imageH {
		panic("the grid must tile the imageW×imageH image (pitch imageW) in 16×64 strips")
	}
	sData := gpu.Shared[[columnsBlockDimX][(columnsResultSteps+2*columnsHaloSteps)*columnsBlockDimY + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	// Offset to the upper halo edge.
	baseX := t.BlockIdx().X*columnsBlockDimX + tx
	baseY := (t.BlockIdx().Y*columnsResultSteps-columnsHaloSteps)*columnsBlockDimY + ty
	base := baseY*pitch + baseX
	for i := columnsHaloSteps; i < columnsHaloSteps+columnsResultSteps; i++ {
		sData[tx][ty+i*columnsBlockDimY] = src[base+i*columnsBlockDimY*pitch]
	}
	for i := 0; i < columnsHaloSteps; i++ {
		var v float32
		if baseY >= -i*columnsBlockDimY {
			v = src[base+i*columnsBlockDimY*pitch]
		}
		sData[tx][ty+i*columnsBlockDimY] = v
	}
	for i := columnsHaloSteps + columnsResultSteps; i < columnsHaloSteps+columnsResultSteps+columnsHaloSteps; i++ {
		var v float32
		if imageH-baseY > i*columnsBlockDimY {
			v = src[base+i*columnsBlockDimY*pitch]
		}
		sData[tx][ty+i*columnsBlockDimY] = v
	}
	t.Barrier()
	for i := columnsHaloSteps; i < columnsHaloSteps+columnsResultSteps; i++ {
		var sum float32
		for j := -kernelRadius; j <= kernelRadius; j++ {
			sum += kern[kernelRadius-j] * sData[tx][ty+i*columnsBlockDimY+j]
		}
		dst[base+i*columnsBlockDimY*pitch] = sum
	}
}
