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

// FMAExact: math.FMA and math32.FMA on the operands of three slices each,
// which the test fills with the hard cases of a once-rounded FMA: ties
// and near-ties that a tiny z decides, cancellation, subnormal and
// overflowing results, signed zeros, infinities and NaNs. Nine slices: its
// parameters (152 bytes) are more than Vulkan's minimum push-constant
// space, so it also runs through the argument buffer.
//
//gpu:kernel
func FMAExact(t gpu.Thread, x, y, z []float64, x32, y32, z32 []float32, o []float64, o32 []float32) {
	i := t.GlobalIdx().X
	if i < len(o) && i < len(x) && i < len(y) && i < len(z) {
		o[i] = math.FMA(x[i], y[i], z[i])
	}
	if i < len(o32) && i < len(x32) && i < len(y32) && i < len(z32) {
		o32[i] = math32.FMA(x32[i], y32[i], z32[i])
	}
}
