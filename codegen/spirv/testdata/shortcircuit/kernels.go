// Package shortcircuit holds kernels whose if conditions are chains of
// || and && where a test's false edge and a later test's true edge reach
// the same block from inside the first test's construct (issue 21's
// random kernels): TestShortCircuitChains structures them for SPIR-V.
package shortcircuit

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=64
func NotOrAnd(t gpu.Thread, x, y []float32, u []uint16, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(out) || i >= len(x) || i >= len(y) || i >= len(u) {
		return
	}
	v, w, k := x[i], y[i], u[i]
	if !(max(float32(-1), v) < v*w) || !(k != k-k) && k&uint16(i) <= k {
		v++
	}
	out[i] = v
}

//gpu:kernel block=64
func OrAndElse(t gpu.Thread, x, y, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(out) || i >= len(x) || i >= len(y) {
		return
	}
	v, w := x[i], y[i]
	if v < w || min(v, w) != 0 && v*w > 1 {
		v += w
	} else {
		v -= w
	}
	out[i] = v
}

//gpu:kernel block=64
func AndOrAndOr(t gpu.Thread, x, y, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(out) || i >= len(x) || i >= len(y) {
		return
	}
	v, w := x[i], y[i]
	if v < w && !(w < 0) || !(v == w) && w > 2 || v > 3 {
		v *= 2
	}
	out[i] = v
}

//gpu:kernel block=64
func NestedChains(t gpu.Thread, x, y, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(out) || i >= len(x) || i >= len(y) {
		return
	}
	v, w := x[i], y[i]
	for j := 0; j < 4; j++ {
		if !(v < w) || !(max(v, w) != 1) && w <= float32(j) {
			v++
			if v > w || !(w > 0) && v < 2 {
				w--
			}
		}
	}
	out[i] = v + w
}

//gpu:kernel block=64
func ChainInLoop(t gpu.Thread, x, y, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(out) || i >= len(x) || i >= len(y) {
		return
	}
	v, w := x[i], y[i]
	for j := 0; j < 4; j++ {
		switch j & 3 {
		case 0:
			v++
		default:
			if !(v <= float32(j)) || !(v+w > w) && v <= w {
				v -= w
				w *= 2
			}
			if v > w {
				w++
			}
		}
	}
	out[i] = v + w
}
