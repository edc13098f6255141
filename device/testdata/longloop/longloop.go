// Package longloop holds a kernel whose one loop runs as many iterations as
// its caller asks: device's TestLoopLimitDeviation runs it past lavapipe's
// loop limiter.
package longloop

import "github.com/gpukvet/gpukvet/gpu"

// Count writes n to out[0] by adding the ones of a, one per iteration.
//
//gpu:kernel block=1
func Count(t gpu.Thread, n int32, a []int32, out []int32) {
	s := int32(0)
	for i := int32(0); i < n; i++ {
		s += a[i&7]
	}
	if t.GlobalIdx().X == 0 {
		out[0] = s
	}
}
