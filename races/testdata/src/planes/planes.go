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
