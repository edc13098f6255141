package shifts

import "github.com/gpukvet/gpukvet/gpu"

// Division and remainder by a parameter that may be negative: Go's
// truncated division gives tid%step the sign of tid (0 ≤ tid%step <
// |step|), so the butterfly pairs stay disjoint for a negative step too
// (a thread whose match is negative traps on it).

// StepPairs: thread tid owns (2·step·(tid/step) + tid%step, that + step).
//
//gpu:kernel
func StepPairs(t gpu.Thread, a []float32, step int) {
	tid := t.GlobalIdx().X
	pair := 2*step*(tid/step) + tid%step
	match := pair + step
	if match >= len(a) {
		return
	}
	x, y := a[pair], a[match]
	a[pair] = x + y
	a[match] = x - y
}

// StepPairsOverlap: the factor 2 dropped: thread tid+step's pair element
// is thread tid's match.
//
//gpu:kernel
func StepPairsOverlap(t gpu.Thread, a []float32, step int) {
	tid := t.GlobalIdx().X
	pair := step*(tid/step) + tid%step
	match := pair + step
	if match >= len(a) {
		return
	}
	x, y := a[pair], a[match]
	a[pair] = x + y  // want `data race on global a`
	a[match] = x - y // want `data race on global a`
}

// StepBlocks: the remainder spelled tid − (tid/step)·step, the block base
// 2·step·(tid/step) held in a local.
//
//gpu:kernel
func StepBlocks(t gpu.Thread, a []float32, step int) {
	tid := t.GlobalIdx().X
	q := tid / step
	base := q * 2 * step
	pair := base + tid - q*step
	if match := pair + step; match < len(a) {
		a[pair], a[match] = a[match], a[pair]
	}
}

// StepBlocksOverlap: a block width of 3·step leaves a gap, but the
// match two steps up is the next block's pair element.
//
//gpu:kernel
func StepBlocksOverlap(t gpu.Thread, a []float32, step int) {
	tid := t.GlobalIdx().X
	q := tid / step
	base := q * 3 * step
	pair := base + tid - q*step
	if match := pair + 3*step; match < len(a) {
		a[pair], a[match] = a[match], a[pair] // want `data race on global a`
	}
}
