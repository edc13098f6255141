package xorpartner

import "github.com/gpukvet/gpukvet/gpu"

// BitonicStep: the thread with the lower index of each pair (i, i^j) does
// the compare-and-swap; pairs of distinct threads are disjoint.
//
//gpu:kernel block=256
func BitonicStep(t gpu.Thread, j, k int, a []int32) {
	i := t.GlobalIdx().X
	ixj := i ^ j
	if ixj > i && ixj < len(a) {
		x, y := a[i], a[ixj]
		if (i&k == 0) == (x > y) {
			a[i], a[ixj] = y, x
		}
	}
}

// BitonicShared: the same in shared memory, one barrier per stage.
//
//gpu:kernel block=256
func BitonicShared(t gpu.Thread, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = a[t.GlobalIdx().X]
	t.Barrier()
	for j := 128; j > 0; j >>= 1 {
		ixj := tid ^ j
		if tid < ixj && s[tid] > s[ixj] {
			s[tid], s[ixj] = s[ixj], s[tid]
		}
		t.Barrier()
	}
	a[t.GlobalIdx().X] = s[tid]
}

// BothSwap: without the ixj > i guard both threads of a pair swap it.
//
//gpu:kernel block=256
func BothSwap(t gpu.Thread, j int, a []int32) {
	i := t.GlobalIdx().X
	ixj := i ^ j
	if ixj < len(a) {
		x, y := a[i], a[ixj]
		if x > y {
			a[i], a[ixj] = y, x // want `possible data race on global a`
		}
	}
}

// PartnerRead: reading the partner's element while it writes its own.
//
//gpu:kernel block=256
func PartnerRead(t gpu.Thread, j int, a, b []int32) {
	i := t.GlobalIdx().X
	ixj := i ^ j
	if ixj < len(a) {
		a[i] = a[ixj] + 1 // want `possible data race on global a`
	}
}

// BitonicNested: the shared-memory bitonic sort with nested stage loops;
// the inner loop always runs (j starts at k/2 ≥ 1) and each of its
// iterations ends at a barrier, so j is one value for all threads; the
// read after the loops cannot meet the swap of the inner loop in one
// interval (both threads take the same exit test the same way).
//
//gpu:kernel block=256
func BitonicNested(t gpu.Thread, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = a[t.GlobalIdx().X]
	t.Barrier()
	for k := 2; k <= 256; k <<= 1 {
		for j := k >> 1; j > 0; j >>= 1 {
			ixj := tid ^ j
			if ixj > tid && (s[tid] > s[ixj]) == (tid&k == 0) {
				s[tid], s[ixj] = s[ixj], s[tid]
			}
			t.Barrier()
		}
	}
	a[t.GlobalIdx().X] = s[tid]
}

// NestedNoInnerBarrier: the same with the barrier after the inner loop.
//
//gpu:kernel block=256
func NestedNoInnerBarrier(t gpu.Thread, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = a[t.GlobalIdx().X]
	t.Barrier()
	for k := 2; k <= 256; k <<= 1 {
		for j := k >> 1; j > 0; j >>= 1 {
			ixj := tid ^ j
			if ixj > tid && s[tid] > s[ixj] {
				s[tid], s[ixj] = s[ixj], s[tid] // want `possible data race on shared s`
			}
		}
		t.Barrier()
	}
	a[t.GlobalIdx().X] = s[tid]
}

// AfterLoopTail: the body's write after its barrier and the read after the
// loop share the last iteration's interval.
//
//gpu:kernel block=256
func AfterLoopTail(t gpu.Thread, n int, a []float32) {
	s := gpu.Shared[[257]float32](t)
	tid := t.ThreadIdx().X
	for j := 0; j < n; j++ {
		s[tid] = a[t.GlobalIdx().X]
		t.Barrier()
		s[tid] += 1
	}
	a[t.GlobalIdx().X] = s[tid+1] // want `data race on shared s`
}
