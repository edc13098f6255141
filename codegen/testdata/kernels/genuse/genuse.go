// Package genuse calls generic device functions of another package.
package genuse

import (
	"github.com/gpukvet/gpukvet/codegen/testdata/kernels/genlib"
	"github.com/gpukvet/gpukvet/gpu"
)

// ClampAll clamps x into out through a generic function and a generic
// method of another package.
//
//gpu:kernel
func ClampAll(t gpu.Thread, x []float32, n []int32, out []float32) {
	i := t.GlobalIdx().X
	if i < len(x) && i < len(n) && i < len(out) {
		p := genlib.Pair[int32]{A: n[i], B: 1}
		out[i] = genlib.Clamp(x[i], -1, 1) + float32(genlib.Clamp(p.Sum(), 0, 10))
	}
}
