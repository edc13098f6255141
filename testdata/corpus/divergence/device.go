package divergence

import "github.com/gpukvet/gpukvet/gpu"

// syncAll makes every thread of the block wait.
func syncAll(t gpu.Thread) { t.Barrier() }

// syncIf waits only if ok: every thread must pass the same ok.
func syncIf(t gpu.Thread, ok bool) {
	if ok {
		t.Barrier()
	}
}

// guarded returns early for i >= n, then waits.
func guarded(t gpu.Thread, i, n int) {
	if i >= n {
		return
	}
	t.Barrier()
}

// blocksFor returns how many blocks of the current size cover n elements.
func blocksFor(t gpu.Thread, n int) int {
	bd := t.BlockDim().X
	return (n + bd - 1) / bd
}

// lane returns the thread's index within its 32-thread warp.
func lane(t gpu.Thread) int { return t.ThreadIdx().X % 32 }

// stage loads one element per thread into s and waits until all are there.
func stage(t gpu.Thread, s *[256]float32, in []float32, base int) {
	s[t.ThreadIdx().X] = in[base+t.ThreadIdx().X]
	t.Barrier()
}

// leaderSync waits in thread 0 only: divergent whoever calls it.
func leaderSync(t gpu.Thread) {
	if t.ThreadIdx().X != 0 {
		return
	}
	t.Barrier()
}
