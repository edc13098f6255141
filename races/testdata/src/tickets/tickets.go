// Package tickets holds kernels whose blocks claim ranges of an output with
// a global atomic add that one thread makes and publishes to its block
// through shared memory (issue 20): the ranges of different executions of
// the add are apart by its addend, so blocks write different elements.
// Each clean kernel has a racy twin that claims less than it writes.
package tickets

import "github.com/gpukvet/gpukvet/gpu"

// A leader claims the block's range and publishes its base.
//
//gpu:kernel block=256
func LeaderBase(t gpu.Thread, out, count, in []int32) {
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		base[0] = gpu.AtomicAdd(&count[0], 256)
	}
	t.Barrier()
	out[int(base[0])+tx] = in[t.GlobalIdx().X]
}

//gpu:kernel block=256
func LeaderBaseShort(t gpu.Thread, out, count, in []int32) {
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		base[0] = gpu.AtomicAdd(&count[0], 128)
	}
	t.Barrier()
	out[int(base[0])+tx] = in[t.GlobalIdx().X] // want `data race on global out`
}

// The base kept in a local after the barrier, two elements per thread,
// the claim in uint32 and the shared cell one of several.
//
//gpu:kernel block=128
func LeaderBasePairs(t gpu.Thread, out []float32, count []uint32) {
	cells := gpu.Shared[[4]uint32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		cells[2] = gpu.AtomicAdd(&count[1], 256)
	}
	t.Barrier()
	b := int(cells[2])
	out[b+2*tx] = 1
	out[b+2*tx+1] = 2
}

//gpu:kernel block=128
func LeaderBasePairsShort(t gpu.Thread, out []float32, count []uint32) {
	cells := gpu.Shared[[4]uint32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		cells[2] = gpu.AtomicAdd(&count[1], 255)
	}
	t.Barrier()
	b := int(cells[2])
	out[b+2*tx] = 1
	out[b+2*tx+1] = 2 // want `data race on global out`
}

// The published cell is also written with something else: its value is
// not a ticket.
//
//gpu:kernel block=256
func LeaderBaseOverwritten(t gpu.Thread, out, count []int32, reset int32) {
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		base[0] = gpu.AtomicAdd(&count[0], 256)
	}
	t.Barrier()
	if tx == 1 {
		base[0] = reset
	}
	t.Barrier()
	out[int(base[0])+tx] = 1 // want `data race on global out`
}

// The leader publishes only when a condition of the data holds: a block
// that does not reads shared memory no thread wrote.
//
//gpu:kernel block=256
func LeaderBaseConditional(t gpu.Thread, out, count, in []int32) {
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 && in[t.BlockIdx().X] > 0 {
		base[0] = gpu.AtomicAdd(&count[0], 256)
	}
	t.Barrier()
	out[int(base[0])+tx] = 1 // want `data race on global out`
}

// The base is read before the leader publishes it: shared memory no thread
// wrote yet.
//
//gpu:kernel block=256
func LeaderBaseReadEarly(t gpu.Thread, out, count []int32) {
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	b := int(base[0])
	t.Barrier()
	if tx == 0 {
		base[0] = gpu.AtomicAdd(&count[0], 256)
	}
	t.Barrier()
	out[b+tx] = 1 // want `data race on global out`
}

// The leader's test spelled 0 == tx, the claim through a device function.
//
//gpu:device
func claim(count []int64, n int64) int64 { return gpu.AtomicAdd(&count[0], n) }

//gpu:kernel block=64
func LeaderBaseDevice(t gpu.Thread, out []int64, count []int64) {
	base := gpu.Shared[[1]int64](t)
	if 0 == t.ThreadIdx().X {
		base[0] = claim(count, 64)
	}
	t.Barrier()
	out[base[0]+int64(t.ThreadIdx().X)] = 1
}
