package racecorpus

import "github.com/gpukvet/gpukvet/gpu"

// TransposePadded is the SDK's transposeNoBankConflicts: a 16×17 padded
// tile, written by rows and read by columns after a barrier.
// verdict: clean
//
//gpu:kernel block=16,16
func TransposePadded(t gpu.Thread, in, out []float32, w, h int) {
	tile := gpu.Shared[[16][17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx
	y := t.BlockIdx().Y*16 + ty
	if x < w && y < h {
		tile[ty][tx] = in[y*w+x]
	}
	t.Barrier()
	x = t.BlockIdx().Y*16 + tx
	y = t.BlockIdx().X*16 + ty
	if x < h && y < w {
		out[y*h+x] = tile[tx][ty]
	}
}

// TransposeNoBarrier reads the transposed element before its writer has
// stored it.
// verdict: race
//
//gpu:kernel block=16,16
func TransposeNoBarrier(t gpu.Thread, in, out []float32, w, h int) {
	tile := gpu.Shared[[16][17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx
	y := t.BlockIdx().Y*16 + ty
	if x < w && y < h {
		tile[ty][tx] = in[y*w+x]
	}
	x = t.BlockIdx().Y*16 + tx
	y = t.BlockIdx().X*16 + ty
	if x < h && y < w {
		out[y*h+x] = tile[tx][ty]
	}
}

// TransposeFlat uses a flat tile indexed ty*17+tx, and the free block
// shape's BlockDim is not needed for it to be injective.
// verdict: clean
//
//gpu:kernel block=16,16
func TransposeFlat(t gpu.Thread, in, out []float32, w, h int) {
	tile := gpu.Shared[[16 * 17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx
	y := t.BlockIdx().Y*16 + ty
	if x < w && y < h {
		tile[ty*17+tx] = in[y*w+x]
	}
	t.Barrier()
	x = t.BlockIdx().Y*16 + tx
	y = t.BlockIdx().X*16 + ty
	if x < h && y < w {
		out[y*h+x] = tile[tx*17+ty]
	}
}

// TileFlattenedBlockDim flattens a 2-D block with the symbolic BlockDim.X,
// which is injective because tx < BlockDim.X (one block: grid=1).
// verdict: clean
//
//gpu:kernel grid=1
func TileFlattenedBlockDim(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[1024]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	bx := t.BlockDim().X
	l := ty*bx + tx
	sh[l] = in[l]
	t.Barrier()
	out[l] = sh[l] * 2
}

// TileFlattenedWrongWidth flattens with a width of 8 while the block may
// be wider: threads (8,0) and (0,1) share slot 8.
// verdict: race
//
//gpu:kernel block=16,16
func TileFlattenedWrongWidth(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	sh[ty*8+tx] = in[t.GlobalIdx().X]
	t.Barrier()
	if tx == 0 && ty == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// MatMulTiled is the SDK's matrixMul: As and Bs loaded per tile, a barrier
// before the products and one after, so the next load waits for readers.
// verdict: clean
//
//gpu:kernel block=16,16
func MatMulTiled(t gpu.Thread, a, b, c []float32, w int) {
	as := gpu.Shared[[16][16]float32](t)
	bs := gpu.Shared[[16][16]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*16 + ty
	col := t.BlockIdx().X*16 + tx
	var sum float32
	for m := 0; m < w/16; m++ {
		as[ty][tx] = a[row*w+m*16+tx]
		bs[ty][tx] = b[(m*16+ty)*w+col]
		t.Barrier()
		for k := 0; k < 16; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	if row < w && col < w {
		c[row*w+col] = sum
	}
}

// MatMulNoSecondBarrier lets fast threads load the next tile while slow
// ones still read the current one (the race crosses the loop's back edge).
// verdict: race
//
//gpu:kernel block=16,16
func MatMulNoSecondBarrier(t gpu.Thread, a, b, c []float32, w int) {
	as := gpu.Shared[[16][16]float32](t)
	bs := gpu.Shared[[16][16]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*16 + ty
	col := t.BlockIdx().X*16 + tx
	var sum float32
	for m := 0; m < w/16; m++ {
		as[ty][tx] = a[row*w+m*16+tx]
		bs[ty][tx] = b[(m*16+ty)*w+col]
		t.Barrier()
		for k := 0; k < 16; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
	}
	if row < w && col < w {
		c[row*w+col] = sum
	}
}

// MatMulNoFirstBarrier multiplies before the tile is loaded.
// verdict: race
//
//gpu:kernel block=16,16
func MatMulNoFirstBarrier(t gpu.Thread, a, b, c []float32, w int) {
	as := gpu.Shared[[16][16]float32](t)
	bs := gpu.Shared[[16][16]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*16 + ty
	col := t.BlockIdx().X*16 + tx
	var sum float32
	for m := 0; m < w/16; m++ {
		as[ty][tx] = a[row*w+m*16+tx]
		bs[ty][tx] = b[(m*16+ty)*w+col]
		for k := 0; k < 16; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	if row < w && col < w {
		c[row*w+col] = sum
	}
}

// Stencil1D is the textbook 1-D stencil with a halo of radius 3: the first
// three threads also load the halo on both sides.
// verdict: clean
//
//gpu:kernel block=256
func Stencil1D(t gpu.Thread, in, out []float32) {
	const r = 3
	temp := gpu.Shared[[256 + 2*r]float32](t)
	g := t.GlobalIdx().X + r
	l := t.ThreadIdx().X + r
	temp[l] = in[g]
	if t.ThreadIdx().X < r {
		temp[l-r] = in[g-r]
		temp[l+256] = in[g+256]
	}
	t.Barrier()
	var s float32
	for off := -r; off <= r; off++ {
		s += temp[l+off]
	}
	out[g-r] = s
}

// Stencil1DNoBarrier reads neighbours' slots without waiting.
// verdict: race
//
//gpu:kernel block=256
func Stencil1DNoBarrier(t gpu.Thread, in, out []float32) {
	const r = 3
	temp := gpu.Shared[[256 + 2*r]float32](t)
	g := t.GlobalIdx().X + r
	l := t.ThreadIdx().X + r
	temp[l] = in[g]
	if t.ThreadIdx().X < r {
		temp[l-r] = in[g-r]
		temp[l+256] = in[g+256]
	}
	var s float32
	for off := -r; off <= r; off++ {
		s += temp[l+off]
	}
	out[g-r] = s
}

// Stencil1DHaloOverlap loads the right halo at l+r instead of l+256, so
// halo threads overwrite slots their neighbours load.
// verdict: race
//
//gpu:kernel block=256
func Stencil1DHaloOverlap(t gpu.Thread, in, out []float32) {
	const r = 3
	temp := gpu.Shared[[256 + 2*r]float32](t)
	g := t.GlobalIdx().X + r
	l := t.ThreadIdx().X + r
	temp[l] = in[g]
	if t.ThreadIdx().X < r {
		temp[l-r] = in[g-r]
		temp[l+r] = in[g+256]
	}
	t.Barrier()
	out[g-r] = temp[l-1] + temp[l] + temp[l+1]
}

// Stencil2D loads a 16×16 tile with a one-element halo on each side
// (18×18), the edge threads loading the halo, then averages the 5-point
// neighbourhood.
// verdict: clean
//
//gpu:kernel block=16,16
func Stencil2D(t gpu.Thread, in, out []float32, w int) {
	tile := gpu.Shared[[18][18]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx + 1
	y := t.BlockIdx().Y*16 + ty + 1
	tile[ty+1][tx+1] = in[y*w+x]
	if tx == 0 {
		tile[ty+1][0] = in[y*w+x-1]
	}
	if tx == 15 {
		tile[ty+1][17] = in[y*w+x+1]
	}
	if ty == 0 {
		tile[0][tx+1] = in[(y-1)*w+x]
	}
	if ty == 15 {
		tile[17][tx+1] = in[(y+1)*w+x]
	}
	t.Barrier()
	s := tile[ty+1][tx+1] + tile[ty][tx+1] + tile[ty+2][tx+1] + tile[ty+1][tx] + tile[ty+1][tx+2]
	if x < w {
		out[y*w+x] = s / 5
	}
}

// Stencil2DNoBarrier is Stencil2D without its barrier.
// verdict: race
//
//gpu:kernel block=16,16
func Stencil2DNoBarrier(t gpu.Thread, in, out []float32, w int) {
	tile := gpu.Shared[[18][18]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx + 1
	y := t.BlockIdx().Y*16 + ty + 1
	tile[ty+1][tx+1] = in[y*w+x]
	if tx == 0 {
		tile[ty+1][0] = in[y*w+x-1]
	}
	if tx == 15 {
		tile[ty+1][17] = in[y*w+x+1]
	}
	if ty == 0 {
		tile[0][tx+1] = in[(y-1)*w+x]
	}
	if ty == 15 {
		tile[17][tx+1] = in[(y+1)*w+x]
	}
	s := tile[ty+1][tx+1] + tile[ty][tx+1] + tile[ty+2][tx+1] + tile[ty+1][tx] + tile[ty+1][tx+2]
	if x < w {
		out[y*w+x] = s / 5
	}
}

// Tile2DNeighbourNoBarrier reads the right neighbour's slot of a 2-D tile
// without a barrier.
// verdict: race
//
//gpu:kernel block=16,16
func Tile2DNeighbourNoBarrier(t gpu.Thread, in, out []float32, w int) {
	tile := gpu.Shared[[16][17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.GlobalIdx().X
	y := t.GlobalIdx().Y
	tile[ty][tx] = in[y*w+x]
	if x < w {
		out[y*w+x] = tile[ty][tx+1]
	}
}
