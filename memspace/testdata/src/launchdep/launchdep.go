// Package launchdep holds kernels that package launch launches.
package launchdep

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=128
func Fill(t gpu.Thread, v float32, out []float32) {
	out[t.GlobalIdx().X] = v
}

// NotKernel looks like a kernel but has no directive.
func NotKernel(t gpu.Thread, out []float32) {}
