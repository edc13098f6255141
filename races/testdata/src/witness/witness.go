package witness

import "github.com/gpukvet/gpukvet/gpu"

// ColumnScale races only for an empty row (n = 0, every thread then writes
// q[k]); the diagnostic names that size.
//
//gpu:kernel block=256
func ColumnScale(t gpu.Thread, m, n, k int, a, q []float32) {
	i := t.GlobalIdx().X
	if i < m {
		q[i*n+k] = a[i*n+k] * 2 // want `data race on global q: .*\(when .*n = 0\)`
	}
}

// ColumnScaleGuarded states the size it needs and is silent.
//
//gpu:kernel block=256
func ColumnScaleGuarded(t gpu.Thread, m, n, k int, a, q []float32) {
	if k < 0 || k >= n {
		return
	}
	i := t.GlobalIdx().X
	if i < m {
		q[i*n+k] = a[i*n+k] * 2
	}
}
