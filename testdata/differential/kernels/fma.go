package kernels

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// FMA: math.FMA and math32.FMA, x*y+z with one rounding, in a case of its
// own so that a device that rounds twice (Vulkan allows it) is told apart
// from the rest of the math functions.
//
//gpu:kernel
func FMA(t gpu.Thread, x, y []float64, x32, y32 []float32, o []float64, o32 []float32) {
	i := t.GlobalIdx().X
	if i < len(x) && i < len(x32) {
		o[i] = math.FMA(x[i], y[i], 1)
		o32[i] = math32.FMA(x32[i], y32[i], 1)
	}
}
