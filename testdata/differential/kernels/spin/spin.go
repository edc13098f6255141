// Package spin has kernels that never end, as Go defines them: a GPU
// backend stops them at the launch's deadline, where their loops poll the
// stop word (codegen/ABI.md, "The trap record"). The cpu backend cannot
// stop a loop that calls nothing, so only GPU backends run them
// (TestDeadlineStopsLoops in package differential).
package spin

import "github.com/gpukvet/gpukvet/gpu"

// Forever writes its element, then loops with no end and no effect (which
// a driver would delete, were the loop not polling).
//
//gpu:kernel
func Forever(t gpu.Thread, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = 1
	}
	for {
	}
}

// WaitFlag waits for a flag nobody sets, then writes its element.
//
//gpu:kernel
func WaitFlag(t gpu.Thread, flag []int32, out []int32) {
	i := t.GlobalIdx().X
	for flag[0] == 0 { // waits
	}
	if i < len(out) {
		out[i] = 2
	}
}
