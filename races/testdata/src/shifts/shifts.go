// Package shifts holds indices built with shifts by a count that is not a
// constant: 1<<k, 1<<(a−b), x>>k, x<<k and (1<<k)/2 for a kernel
// parameter k, and divisions by a parameter that may be negative
// (divisors.go). Go panics on a negative shift count, so 1<<k is a power
// of two p ≥ 1 wherever a thread goes on; each clean kernel has a racy
// twin.
package shifts

import "github.com/gpukvet/gpukvet/gpu"

// ButterflyPairs: thread tid owns the pair (tid%p + (tid/p)·2p, that + p)
// of a butterfly stage with distance p = 1<<k; no two threads' pairs meet.
//
//gpu:kernel
func ButterflyPairs(t gpu.Thread, a []float32, k int) {
	tid := t.GlobalIdx().X
	p := 1 << k
	left := tid%p + (tid/p)*2*p
	right := left + p
	if right >= len(a) {
		return
	}
	x, y := a[left], a[right]
	a[left] = x + y
	a[right] = x - y
}

// ButterflyNoWidth: the block width p instead of 2p: thread tid's right
// element is thread tid+p's left one.
//
//gpu:kernel
func ButterflyNoWidth(t gpu.Thread, a []float32, k int) {
	tid := t.GlobalIdx().X
	p := 1 << k
	left := tid%p + (tid/p)*p
	right := left + p
	if right >= len(a) {
		return
	}
	x, y := a[left], a[right]
	a[left] = x + y  // want `data race on global a`
	a[right] = x - y // want `data race on global a`
}

// ButterflyStagePass: the distance 1<<(stage−pass) of a bitonic sort's
// pass.
//
//gpu:kernel
func ButterflyStagePass(t gpu.Thread, a []uint32, stage, pass int) {
	tid := t.GlobalIdx().X
	d := 1 << (stage - pass)
	left := tid%d + (tid/d)*(2*d)
	right := left + d
	if right >= len(a) {
		return
	}
	if x, y := a[left], a[right]; x > y {
		a[left], a[right] = y, x
	}
}

// ButterflyStagePassOverlap: the right element two distances away: thread
// tid's right element is thread tid+d's left one when d = 1 ... and
// thread tid+2d's in general.
//
//gpu:kernel
func ButterflyStagePassOverlap(t gpu.Thread, a []uint32, stage, pass int) {
	tid := t.GlobalIdx().X
	d := 1 << (stage - pass)
	left := tid%d + (tid/d)*(2*d)
	right := left + 2*d
	if right >= len(a) {
		return
	}
	if x, y := a[left], a[right]; x > y {
		a[left], a[right] = y, x // want `data race on global a`
	}
}

// GroupLeaders: the first thread of each group of 1<<k threads writes its
// group's slot tid>>k.
//
//gpu:kernel
func GroupLeaders(t gpu.Thread, in, out []float32, k int) {
	tid := t.GlobalIdx().X
	g := tid >> k
	if tid-g<<k == 0 && g < len(out) && tid < len(in) {
		out[g] = in[tid]
	}
}

// GroupAll: every thread of a group writes its group's slot.
//
//gpu:kernel
func GroupAll(t gpu.Thread, in, out []float32, k int) {
	tid := t.GlobalIdx().X
	g := tid >> k
	if g < len(out) && tid < len(in) {
		out[g] = in[tid] // want `data race on global out`
	}
}

// Strided: thread tid writes element tid<<k, distinct for distinct
// threads.
//
//gpu:kernel
func Strided(t gpu.Thread, out []float32, k int) {
	tid := t.GlobalIdx().X
	if i := tid << k; i < len(out) {
		out[i] = 1
	}
}

// StridedNext: thread tid writes tid<<k and the element after it: with
// k = 0 that is thread tid+1's.
//
//gpu:kernel
func StridedNext(t gpu.Thread, out []float32, k int) {
	tid := t.GlobalIdx().X
	if i := tid << k; i+1 < len(out) {
		out[i] = 1
		out[i+1] = 2 // want `data race on global out`
	}
}

// HalfActive: the threads below half = (1<<k)/2 each write their element
// and the one half above it.
//
//gpu:kernel
func HalfActive(t gpu.Thread, out []float32, k int) {
	tid := t.GlobalIdx().X
	half := (1 << k) / 2
	if tid < half && tid+half < len(out) {
		out[tid] = 1
		out[tid+half] = 2
	}
}

// HalfAll: every thread writes its element and the one half above it,
// which is thread tid+half's.
//
//gpu:kernel
func HalfAll(t gpu.Thread, out []float32, k int) {
	tid := t.GlobalIdx().X
	half := (1 << k) / 2
	if tid+half < len(out) {
		out[tid] = 1
		out[tid+half] = 2 // want `data race on global out`
	}
}
