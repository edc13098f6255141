// Package floatsum holds a kernel that device's tests compile at test time
// (codegen.Build) to validate float atomics on the vulkan backend.
package floatsum

import "github.com/gpukvet/gpukvet/gpu"

// Sum adds xs into four float32 sums with float atomics: a correct kernel
// whose sums round differently in each order of the threads.
//
//gpu:kernel
func Sum(t gpu.Thread, xs []float32, s32 []float32) {
	if i := t.GlobalIdx().X; i < len(xs) {
		gpu.AtomicAdd(&s32[i%4], xs[i])
	}
}
