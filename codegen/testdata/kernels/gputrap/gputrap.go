// Package gputrap holds kernels that trap before a barrier the rest of their
// block waits at: the GPU test checks that the block does not hang (threads
// that exit count as arrived) and that the trap is reported. The divergence
// check rightly refuses them; the test compiles them with the checks off.
package gputrap

import "github.com/gpukvet/gpukvet/gpu"

// TrapBeforeBarrier reads x[tid]: threads at or past len(x) trap before the
// barrier.
//
//gpu:kernel block=64
func TrapBeforeBarrier(t gpu.Thread, x []int64, out []int64) {
	tid := t.ThreadIdx().X
	v := x[tid]
	t.Barrier()
	out[t.GlobalIdx().X] = v + 1
}

// TrapInLoop traps in one thread of one block in the middle of a loop of
// barriers.
//
//gpu:kernel block=128
func TrapInLoop(t gpu.Thread, bad int64, out []int64) {
	buf := gpu.Shared[[128]int64](t)
	tid := t.ThreadIdx().X
	buf[tid] = int64(tid)
	t.Barrier()
	for s := 64; s > 0; s /= 2 {
		if int64(t.GlobalIdx().X) == bad && s == 16 {
			panic("bad thread")
		}
		if tid < s {
			buf[tid] += buf[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = buf[0]
	}
}
