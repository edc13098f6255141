package kernels

import "github.com/gpukvet/gpukvet/gpu"

// TrapBeforeBarrier: one thread indexes past x before a barrier the rest of
// its block waits at. On PTX the trapping thread exits and the barrier
// counts only the threads left; on Vulkan an invocation cannot leave before
// a barrier, so the trapped one must keep reaching the barriers with its
// side effects off. Either way the launch ends with the trap: it must not hang.
//
//gpu:kernel
func TrapBeforeBarrier(t gpu.Thread, k []int, x []int32, out []int32) {
	tile := gpu.Shared[[128]int32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	tile[tid] = x[k[i]]
	t.Barrier()
	out[i] = tile[127-tid]
}

// TrapInBarrierLoop: a thread traps in the third of four steps of a loop
// with two barriers per step, which the other threads keep running.
//
//gpu:kernel
func TrapInBarrierLoop(t gpu.Thread, k []int, x []int32, out []int32) {
	tile := gpu.Shared[[128]int32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	sum := int32(0)
	for s := 0; s < 4; s++ {
		tile[tid] = x[k[i]+s]
		t.Barrier()
		sum += tile[(tid+s)%128]
		t.Barrier()
	}
	out[i] = sum
}
