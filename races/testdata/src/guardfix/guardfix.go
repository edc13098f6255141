// Package guardfix holds races that happen only for sizes a guard at the
// kernel's top excludes; the diagnostic offers the guard as a fix.
package guardfix

import "github.com/gpukvet/gpukvet/gpu"

// ColumnScale races only for an empty row (n = 0: every thread writes
// q[k]).
//
//gpu:kernel block=256
func ColumnScale(t gpu.Thread, m, n, k int, a, q []float32) {
	i := t.GlobalIdx().X
	if i < m {
		q[i*n+k] = a[i*n+k] * 2 // want `data race on global q: .*\(when .*n = 0\); it needs n < 1, which the kernel can exclude as a precondition: if n < 1 \{ panic\(...\) \} at its top`
	}
}

// Tiles races only without tiles: each thread's four cells are x·(tiles+3)
// + r, overlapping the next thread's when tiles+3 < 4.
//
//gpu:kernel block=16 grid=1
func Tiles(t gpu.Thread, out []float32, tiles int) {
	x := t.ThreadIdx().X
	for r := 0; r < 4; r++ {
		out[x*(tiles+3)+r] = 1 // want `it needs tiles < 1`
	}
}

// Shifted races for every size: no guard is offered.
//
//gpu:kernel block=64 grid=1
func Shifted(t gpu.Thread, out []float32, n int) {
	x := t.ThreadIdx().X
	if x < n {
		out[x/2] = 1 // want `data race on global out: thread 0 and thread 1 both write out\[0\] \(line 35\) with no barrier between \(when n = 2\)$`
	}
}
