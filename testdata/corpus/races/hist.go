package racecorpus

import "github.com/gpukvet/gpukvet/gpu"

// HistogramShared is the SDK's histogram256 pattern: per-block bins in
// shared memory cleared, filled with shared atomics, then merged into the
// global histogram with global atomics, with barriers in between.
// verdict: clean
//
//gpu:kernel block=256
func HistogramShared(t gpu.Thread, data []uint32, hist []uint32) {
	bins := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	bins[tid] = 0
	t.Barrier()
	v := data[t.GlobalIdx().X]
	gpu.AtomicAdd(&bins[v&255], 1)
	t.Barrier()
	gpu.AtomicAdd(&hist[tid], bins[tid])
}

// HistogramNonAtomic increments shared bins with a plain read-modify-write.
// verdict: race
//
//gpu:kernel block=256
func HistogramNonAtomic(t gpu.Thread, data []uint32, hist []uint32) {
	bins := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	bins[tid] = 0
	t.Barrier()
	v := data[t.GlobalIdx().X]
	bins[v&255]++
	t.Barrier()
	gpu.AtomicAdd(&hist[tid], bins[tid])
}

// HistogramNoClearBarrier starts adding before every bin is cleared.
// verdict: race
//
//gpu:kernel block=256
func HistogramNoClearBarrier(t gpu.Thread, data []uint32, hist []uint32) {
	bins := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	bins[tid] = 0
	v := data[t.GlobalIdx().X]
	gpu.AtomicAdd(&bins[v&255], 1)
	t.Barrier()
	gpu.AtomicAdd(&hist[tid], bins[tid])
}

// HistogramNoMergeBarrier reads its bin while others may still add to it.
// verdict: race
//
//gpu:kernel block=256
func HistogramNoMergeBarrier(t gpu.Thread, data []uint32, hist []uint32) {
	bins := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	bins[tid] = 0
	t.Barrier()
	v := data[t.GlobalIdx().X]
	gpu.AtomicAdd(&bins[v&255], 1)
	gpu.AtomicAdd(&hist[tid], bins[tid])
}

// HistogramGlobalNonAtomic adds straight into the global histogram with a
// plain increment.
// verdict: race
//
//gpu:kernel
func HistogramGlobalNonAtomic(t gpu.Thread, data []uint32, hist []uint32) {
	v := data[t.GlobalIdx().X]
	hist[v&255]++
}

// HistogramGlobalAtomic adds straight into the global histogram atomically.
// verdict: clean
//
//gpu:kernel
func HistogramGlobalAtomic(t gpu.Thread, data []uint32, hist []uint32) {
	v := data[t.GlobalIdx().X]
	gpu.AtomicAdd(&hist[v&255], 1)
}

// CounterAtomicThenPlainRead reads a shared counter while other threads
// may still be adding to it.
// verdict: race
//
//gpu:kernel
func CounterAtomicThenPlainRead(t gpu.Thread, out []int32) {
	c := gpu.Shared[[1]int32](t)
	if t.ThreadIdx().X == 0 {
		c[0] = 0
	}
	t.Barrier()
	gpu.AtomicAdd(&c[0], 1)
	out[t.GlobalIdx().X] = c[0]
}

// CounterAtomicBarrierRead reads the shared counter after a barrier.
// verdict: clean
//
//gpu:kernel
func CounterAtomicBarrierRead(t gpu.Thread, out []int32) {
	c := gpu.Shared[[1]int32](t)
	if t.ThreadIdx().X == 0 {
		c[0] = 0
	}
	t.Barrier()
	gpu.AtomicAdd(&c[0], 1)
	t.Barrier()
	out[t.GlobalIdx().X] = c[0]
}
