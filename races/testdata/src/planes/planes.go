// Package planes holds kernels that write a rows×w grid's cell i = y·w + x
// into planes of one slice (plane c at c·n, n = rows·w) and into the
// neighbours i ± w and i ± 1 (Parboil lbm's push step): the row of
// n + i + w is rows + y + 1, which the row-major fact relates to the row
// y of another thread's i. Each clean kernel has a racy twin.
package planes

import "github.com/gpukvet/gpukvet/gpu"

// ---- a plane offset computed once, neighbours ±w ----

//gpu:kernel
func PushNorthSouth(t gpu.Thread, src, dst []float32, rows, w int) {
	x := t.GlobalIdx().X
	y := t.GlobalIdx().Y
	if x < 0 || x >= w || y < 1 || y >= rows-1 {
		return
	}
	n := rows * w
	i := y*w + x
	dst[i] = src[i]
	dst[n+i+w] = src[n+i]
	dst[2*n+i-w] = src[2*n+i]
}

// The rows' test lets y = rows-1 push north into the third plane, where
// row 1 pushes south.
//
//gpu:kernel
func PushNorthSouthEdgeRow(t gpu.Thread, src, dst []float32, rows, w int) {
	x := t.GlobalIdx().X
	y := t.GlobalIdx().Y
	if x < 0 || x >= w || y < 1 || y >= rows {
		return
	}
	n := rows * w
	i := y*w + x
	dst[i] = src[i]
	dst[n+i+w] = src[n+i]
	dst[2*n+i-w] = src[2*n+i] // want `data race on global dst`
}

// ---- the offset written inline ----

//gpu:kernel
func PushInline(t gpu.Thread, src, dst []float32, rows, w int) {
	x := t.GlobalIdx().X
	y := t.GlobalIdx().Y
	if x < 1 || x >= w-1 || y < 1 || y >= rows-1 {
		return
	}
	i := y*w + x
	dst[i] = src[i]
	dst[rows*w+i+w] = src[i]
	dst[2*rows*w+i+1] = src[i]
}

// The second push lands in the first plane: cell (x, y)'s south
// neighbour is cell (x, y+1)'s own.
//
//gpu:kernel
func PushSamePlane(t gpu.Thread, src, dst []float32, rows, w int) {
	x := t.GlobalIdx().X
	y := t.GlobalIdx().Y
	if x < 1 || x >= w-1 || y < 1 || y >= rows-1 {
		return
	}
	i := y*w + x
	dst[i] = src[i]
	dst[i+w] = src[i] // want `data race on global dst`
}

// ---- a cell index carried through a loop by a plane's size ----

// ColumnWalk: Rodinia hotspot3D's walk down a column, the index moved by
// w·h each layer.
//
//gpu:kernel
func ColumnWalk(t gpu.Thread, out []float32, w, h, nz int) {
	i := t.GlobalIdx().X
	j := t.GlobalIdx().Y
	if i >= w || j >= h {
		return
	}
	c := i + j*w
	xy := w * h
	for k := 0; k < nz; k++ {
		out[c] = float32(k)
		c += xy
	}
}

// ColumnWalkFirstLayer: the first layer written before the loop, the rest
// in it and the last after it, as hotspotOpt1 does.
//
//gpu:kernel
func ColumnWalkFirstLayer(t gpu.Thread, out []float32, w, h, nz int) {
	i := t.GlobalIdx().X
	j := t.GlobalIdx().Y
	if i >= w || j >= h {
		return
	}
	c := i + j*w
	out[c] = 0
	c = c + w*h
	for k := 1; k < nz-1; k++ {
		out[c] = float32(k)
		c = c + w*h
	}
	out[c] = float32(nz)
}

// ColumnWalkTallRows: the guard lets j reach h, whose cell of layer k is
// row 0's of layer k+1.
//
//gpu:kernel
func ColumnWalkTallRows(t gpu.Thread, out []float32, w, h, nz int) {
	i := t.GlobalIdx().X
	j := t.GlobalIdx().Y
	if i >= w || j > h {
		return
	}
	c := i + j*w
	xy := w * h
	for k := 0; k < nz; k++ {
		out[c] = float32(k) // want `data race on global out`
		c += xy
	}
}

// ColumnWalkShortStep: the step one row short of a plane: layer k+1 of
// row j is layer k of row j+h-1.
//
//gpu:kernel
func ColumnWalkShortStep(t gpu.Thread, out []float32, w, h, nz int) {
	i := t.GlobalIdx().X
	j := t.GlobalIdx().Y
	if i >= w || j >= h {
		return
	}
	c := i + j*w
	for k := 0; k < nz; k++ {
		out[c] = float32(k) // want `data race on global out`
		c += w * (h - 1)
	}
}

// ---- mirrored columns: w − 1 − x is a column, not a row and a bit ----

// RingRotate: HeCBench matrix-rotate, thread `layer` turning the
// layer-th ring of a w×w matrix by four-way swaps.
//
//gpu:kernel
func RingRotate(t gpu.Thread, m []float32, w int) {
	layer := t.GlobalIdx().X
	if layer < w/2 {
		first := layer
		last := w - 1 - layer
		for i := first; i < last; i++ {
			offset := i - first
			top := m[first*w+i]
			m[first*w+i] = m[(last-offset)*w+first]
			m[(last-offset)*w+first] = m[last*w+last-offset]
			m[last*w+last-offset] = m[i*w+last]
			m[i*w+last] = top
		}
	}
}

// RingRotateThreadIdx: the layer from the thread index alone: thread L of
// every block turns ring L.
//
//gpu:kernel
func RingRotateThreadIdx(t gpu.Thread, m []float32, w int) {
	layer := t.ThreadIdx().X
	if layer < w/2 {
		first := layer
		last := w - 1 - layer
		for i := first; i < last; i++ {
			top := m[first*w+i]
			m[first*w+i] = m[i*w+last] // want `data race on global m`
			m[i*w+last] = top          // want `data race on global m`
		}
	}
}

// ColumnMirror: thread x swaps columns x and w-1-x, row by row.
//
//gpu:kernel
func ColumnMirror(t gpu.Thread, m []float32, w, h int) {
	x := t.GlobalIdx().X
	if 2*x >= w {
		return
	}
	for r := 0; r < h; r++ {
		m[r*w+x], m[r*w+w-1-x] = m[r*w+w-1-x], m[r*w+x]
	}
}

// ColumnMirrorMiddle: 2x ≤ w lets x = w/2 (w even) swap column w/2-1,
// thread w/2-1's own.
//
//gpu:kernel
func ColumnMirrorMiddle(t gpu.Thread, m []float32, w, h int) {
	x := t.GlobalIdx().X
	if 2*x > w {
		return
	}
	for r := 0; r < h; r++ {
		m[r*w+x], m[r*w+w-1-x] = m[r*w+w-1-x], m[r*w+x] // want `data race on global m`
	}
}
