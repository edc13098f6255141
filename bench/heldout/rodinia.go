package heldout

import "github.com/gpukvet/gpukvet/gpu"

// Rodinia 3.1 (CUDA): hotspot, lud, backprop.

// hotspotBlock is hotspot's BLOCK_SIZE.
const hotspotBlock = 16

// Hotspot is Rodinia's calculate_temp: iteration steps of the thermal
// simulation on a 16×16 tile in shared memory (a pyramid: each step the
// valid region shrinks by one cell each side), writing the inner
// (16-2·iteration)² cells of each tile.
//
//gpu:kernel block=16,16
func Hotspot(t gpu.Thread, iteration int, power, tempSrc, tempDst []float32, gridCols, gridRows, borderCols, borderRows int, capacitance, rx, ry, rz, step float32) {
	// Rodinia's host code sets the borders to the pyramid height, which
	// leaves a small block of at least 2×2.
	if iteration < 1 || iteration > hotspotBlock/2-1 || borderCols != iteration || borderRows != iteration {
		panic("iteration must be in 1..7 and the borders equal to it")
	}
	tempOn := gpu.Shared[[hotspotBlock][hotspotBlock]float32](t)
	powerOn := gpu.Shared[[hotspotBlock][hotspotBlock]float32](t)
	tempT := gpu.Shared[[hotspotBlock][hotspotBlock]float32](t) // the temperature after each step
	const ambTemp = 80.0
	bx, by := t.BlockIdx().X, t.BlockIdx().Y
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	stepDivCap := step / capacitance
	rx1, ry1, rz1 := 1/rx, 1/ry, 1/rz
	// Each block computes a small block of the result after iteration
	// steps; the small blocks cover the grid without overlap.
	smallBlockRows := hotspotBlock - iteration*2
	smallBlockCols := hotspotBlock - iteration*2
	blkY := smallBlockRows*by - borderRows
	blkX := smallBlockCols*bx - borderCols
	blkYmax := blkY + hotspotBlock - 1
	blkXmax := blkX + hotspotBlock - 1
	yidx := blkY + ty
	xidx := blkX + tx
	loadYidx, loadXidx := yidx, xidx
	index := gridCols*loadYidx + loadXidx
	if inRange(loadYidx, 0, gridRows-1) && inRange(loadXidx, 0, gridCols-1) {
		tempOn[ty][tx] = tempSrc[index]
		powerOn[ty][tx] = power[index]
	}
	t.Barrier()
	// The part of the tile inside the grid.
	validYmin, validYmax := 0, hotspotBlock-1
	if blkY < 0 {
		validYmin = -blkY
	}
	if blkYmax > gridRows-1 {
		validYmax = hotspotBlock - 1 - (blkYmax - gridRows + 1)
	}
	validXmin, validXmax := 0, hotspotBlock-1
	if blkX < 0 {
		validXmin = -blkX
	}
	if blkXmax > gridCols-1 {
		validXmax = hotspotBlock - 1 - (blkXmax - gridCols + 1)
	}
	n, s, w, e := ty-1, ty+1, tx-1, tx+1
	if n < validYmin {
		n = validYmin
	}
	if s > validYmax {
		s = validYmax
	}
	if w < validXmin {
		w = validXmin
	}
	if e > validXmax {
		e = validXmax
	}
	computed := false
	for i := 0; i < iteration; i++ {
		computed = false
		if inRange(tx, i+1, hotspotBlock-i-2) && inRange(ty, i+1, hotspotBlock-i-2) &&
			inRange(tx, validXmin, validXmax) && inRange(ty, validYmin, validYmax) {
			computed = true
			tempT[ty][tx] = tempOn[ty][tx] + stepDivCap*(powerOn[ty][tx]+
				(tempOn[s][tx]+tempOn[n][tx]-2*tempOn[ty][tx])*ry1+
				(tempOn[ty][e]+tempOn[ty][w]-2*tempOn[ty][tx])*rx1+
				(ambTemp-tempOn[ty][tx])*rz1)
		}
		t.Barrier()
		if i == iteration-1 {
			break
		}
		if computed {
			tempOn[ty][tx] = tempT[ty][tx]
		}
		t.Barrier()
	}
	// After the last step only the threads of the small block computed.
	if computed {
		//gpukvet:ignore races computed holds only inside the block's small block, (16-2·iteration)² cells that tile the grid without overlap; the solver does not carry the loop's flag to here
		tempDst[index] = tempT[ty][tx]
	}
}

// inRange is hotspot's IN_RANGE: lo <= x <= hi.
func inRange(x, lo, hi int) bool { return x >= lo && x <= hi }

// ludBlock is lud's BLOCK_SIZE.
const ludBlock = 16

// LudInternal is Rodinia's lud_internal: the trailing-submatrix update of
// one step of the blocked LU decomposition at offset, one 16×16 block of
// the trailing matrix per thread block.
//
//gpu:kernel block=16,16
func LudInternal(t gpu.Thread, m []float32, matrixDim, offset int) {
	// The host launches (matrixDim-offset)/16 - 1 blocks each way.
	if matrixDim%ludBlock != 0 || offset < 0 || offset%ludBlock != 0 ||
		t.GridDim().X*ludBlock != matrixDim-offset-ludBlock || t.GridDim().Y != t.GridDim().X {
		panic("matrixDim and offset must be multiples of 16 and the grid (matrixDim-offset)/16 - 1 blocks each way")
	}
	periRow := gpu.Shared[[ludBlock][ludBlock]float32](t)
	periCol := gpu.Shared[[ludBlock][ludBlock]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	globalRowID := offset + (t.BlockIdx().Y+1)*ludBlock
	globalColID := offset + (t.BlockIdx().X+1)*ludBlock
	periRow[ty][tx] = m[(offset+ty)*matrixDim+globalColID+tx]
	periCol[ty][tx] = m[(globalRowID+ty)*matrixDim+offset+tx]
	t.Barrier()
	var sum float32
	for i := 0; i < ludBlock; i++ {
		sum += periCol[ty][i] * periRow[i][tx]
	}
	//gpukvet:ignore races the reads of m above are of rows and columns offset..offset+15, this write of rows and columns from offset+16 on (each block its own 16×16 block); the solver does not separate the flattened row*matrixDim+col ranges
	m[(globalRowID+ty)*matrixDim+globalColID+tx] -= sum
}

// backprop's layer height and learning constants.
const (
	bpHeight = 16
	eta      = 0.3
	momentum = 0.3
)

// AdjustWeights is Rodinia's bpnn_adjust_weights_cuda: the weight update
// of a (in+1)×(hid+1) layer with momentum, 16×16 weights per block, and
// the bias row by the first row of threads of block 0.
//
//gpu:kernel block=16,16
func AdjustWeights(t gpu.Thread, delta []float32, hid int, ly []float32, in int, w, oldw []float32) {
	if hid < bpHeight || t.GridDim().X != 1 {
		panic("hid must be at least 16, a block's width, and the grid one block wide")
	}
	by := t.BlockIdx().Y
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	index := (hid+1)*bpHeight*by + (hid+1)*ty + tx + 1 + (hid + 1)
	indexY := bpHeight*by + ty + 1
	indexX := tx + 1
	w[index] += eta*delta[indexX]*ly[indexY] + momentum*oldw[index]
	oldw[index] = eta*delta[indexX]*ly[indexY] + momentum*oldw[index]
	t.Barrier()
	if ty == 0 && by == 0 {
		w[indexX] += eta*delta[indexX] + momentum*oldw[indexX]
		oldw[indexX] = eta*delta[indexX] + momentum*oldw[indexX]
	}
}
