// Package refused holds a kernel that fails a check: the codegen must
// refuse it, citing the diagnostic.
package refused

import "github.com/gpukvet/gpukvet/gpu"

// EarlyReturn returns before a barrier that the other threads wait at.
//
//gpu:kernel
func EarlyReturn(t gpu.Thread, x []float32) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	t.Barrier()
	x[i] = 1
}
