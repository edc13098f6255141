package divergence

// Held-out kernels, second set (testdata/corpus/HELDOUT.md, "issue 13"):
// hand translations of public kernels the corpus did not cover (CUDA by
// Example, cuda-samples, Rodinia, SHOC, HeCBench, GPUVerify's CUDASamples
// tests), written and scored before the analyzer was changed for them.

import "github.com/gpukvet/gpukvet/gpu"

// DotByExample is CUDA by Example's dot product (chapter 5): a grid-stride
// partial sum, then a halving reduction with the barrier outside the guard.
//
// verdict: clean
// launch: block=64 grid=2
//
//gpu:kernel block=64
func DotByExample(t gpu.Thread, a, b, c []float32) {
	cache := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X + t.BlockIdx().X*t.BlockDim().X
	ci := t.ThreadIdx().X
	var temp float32
	for tid < len(a) {
		temp += a[tid] * b[tid]
		tid += t.BlockDim().X * t.GridDim().X
	}
	cache[ci] = temp
	t.Barrier()
	i := t.BlockDim().X / 2
	for i != 0 {
		if ci < i {
			cache[ci] += cache[ci+i]
		}
		t.Barrier()
		i /= 2
	}
	if ci == 0 {
		c[t.BlockIdx().X] = cache[0]
	}
}

// DotByExampleSyncInGuard is the book's warning example: the "optimisation"
// that moves __syncthreads() into `if (cacheIndex < i)` hangs the GPU.
//
// verdict: divergent
// launch: block=64 grid=2
//
//gpu:kernel block=64
func DotByExampleSyncInGuard(t gpu.Thread, a, b, c []float32) {
	cache := gpu.Shared[[64]float32](t)
	ci := t.ThreadIdx().X
	cache[ci] = a[t.GlobalIdx().X] * b[t.GlobalIdx().X]
	t.Barrier()
	for i := t.BlockDim().X / 2; i != 0; i /= 2 {
		if ci < i {
			cache[ci] += cache[ci+i]
			t.Barrier()
		}
	}
	if ci == 0 {
		c[t.BlockIdx().X] = cache[0]
	}
}

func reduceBlockShared(t gpu.Thread, s *[64]float32, v float32) {
	tid := t.ThreadIdx().X
	s[tid] = v
	t.Barrier()
	for k := 32; k > 0; k >>= 1 {
		if tid < k {
			s[tid] += s[tid+k]
		}
		t.Barrier()
	}
}

// LastBlockReduce is cuda-samples' threadFenceReduction (reduceSinglePass):
// thread 0 takes a ticket from a global counter and stores "am I last" in
// shared memory; after the barrier the whole block reads the same flag and
// the last block reduces the partial sums with barriers.
//
// verdict: clean
// launch: block=64 grid=4
//
//gpu:kernel block=64
func LastBlockReduce(t gpu.Thread, in, partial []float32, count []uint32) {
	s := gpu.Shared[[64]float32](t)
	amLast := gpu.Shared[[1]bool](t)
	tid := t.ThreadIdx().X
	reduceBlockShared(t, s, in[t.GlobalIdx().X])
	if tid == 0 {
		partial[t.BlockIdx().X] = s[0]
		ticket := gpu.AtomicAdd(&count[0], 1)
		amLast[0] = ticket == uint32(t.GridDim().X-1)
	}
	t.Barrier()
	if amLast[0] {
		var sum float32
		for i := tid; i < t.GridDim().X; i += 64 {
			sum += partial[i]
		}
		reduceBlockShared(t, s, sum)
		if tid == 0 {
			partial[0] = s[0]
		}
	}
}

// LastBlockReduceNoBarrier drops the barrier between the ticket taken by the
// block's last thread and
// the block's test of the flag: the other threads may test it before it is
// set, and only the taker of the last block enters the barrier loop.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel block=64
func LastBlockReduceNoBarrier(t gpu.Thread, in, partial []float32, count []uint32) {
	s := gpu.Shared[[64]float32](t)
	amLast := gpu.Shared[[1]bool](t)
	tid := t.ThreadIdx().X
	if tid == t.BlockDim().X-1 {
		ticket := gpu.AtomicAdd(&count[0], 1)
		amLast[0] = ticket == uint32(t.GridDim().X-1)
	}
	if amLast[0] {
		reduceBlockShared(t, s, in[t.GlobalIdx().X])
		if tid == 0 {
			partial[0] = s[0]
		}
	}
}

// PathFinder is Rodinia's pathfinder dynproc_kernel: a pyramid of
// iterations over a row tile, each thread computing only inside a shrinking
// range, with a uniform early exit on the last iteration between the two
// barriers.
//
// verdict: clean
// launch: block=64 grid=2 iteration=3 cols=100 border=3
//
//gpu:kernel block=64
func PathFinder(t gpu.Thread, iteration int, wall, src, results []int32, cols, border int) {
	prev := gpu.Shared[[64]int32](t)
	result := gpu.Shared[[64]int32](t)
	bx, tx := t.BlockIdx().X, t.ThreadIdx().X
	small := 64 - iteration*2
	blkX := small*bx - border
	blkXmax := blkX + 63
	xidx := blkX + tx
	validXmin := 0
	if blkX < 0 {
		validXmin = -blkX
	}
	validXmax := 63
	if blkXmax > cols-1 {
		validXmax = 63 - (blkXmax - cols + 1)
	}
	W, E := tx-1, tx+1
	if W < validXmin {
		W = validXmin
	}
	if E > validXmax {
		E = validXmax
	}
	isValid := tx >= validXmin && tx <= validXmax
	if xidx >= 0 && xidx <= cols-1 {
		prev[tx] = src[xidx]
	}
	t.Barrier()
	computed := false
	for i := 0; i < iteration; i++ {
		computed = false
		if tx >= i+1 && tx <= 64-i-2 && isValid {
			computed = true
			m := prev[tx]
			if prev[W] < m {
				m = prev[W]
			}
			if prev[E] < m {
				m = prev[E]
			}
			result[tx] = m + wall[(cols*i+xidx+cols)%len(wall)]
		}
		t.Barrier()
		if i == iteration-1 {
			break
		}
		if computed {
			prev[tx] = result[tx]
		}
		t.Barrier()
	}
	if computed && xidx >= 0 && xidx < len(results) {
		results[xidx] = result[tx]
	}
}

// ShocReduce is SHOC's reduction kernel: a shared-memory tree down to 64
// elements with barriers, then the last warp without barriers.
//
// verdict: clean
// launch: block=128 grid=2
//
//gpu:kernel block=128
func ShocReduce(t gpu.Thread, in, out []float32) {
	sdata := gpu.Shared[[128]float32](t)
	tid := t.ThreadIdx().X
	i := t.BlockIdx().X*t.BlockDim().X*2 + tid
	var sum float32
	for i < len(in) {
		sum += in[i]
		if i+t.BlockDim().X < len(in) {
			sum += in[i+t.BlockDim().X]
		}
		i += t.BlockDim().X * 2 * t.GridDim().X
	}
	sdata[tid] = sum
	t.Barrier()
	for s := t.BlockDim().X / 2; s > 32; s >>= 1 {
		if tid < s {
			sdata[tid] += sdata[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		var w float32
		for k := 0; k < 64; k++ {
			w += sdata[k]
		}
		out[t.BlockIdx().X] = w
	}
}

// BitonicSortShared is cuda-samples' bitonicSortShared: the direction ddd
// differs per thread, but only selects the comparison; every barrier sits
// in loops whose bounds are uniform.
//
// verdict: clean
// launch: block=32 grid=1 dir=1
//
//gpu:kernel block=32 grid=1
func BitonicSortShared(t gpu.Thread, keys []uint32, dir int) {
	s := gpu.Shared[[64]uint32](t)
	tid := t.ThreadIdx().X
	s[tid] = keys[tid]
	s[tid+32] = keys[tid+32]
	for size := 2; size < 64; size <<= 1 {
		ddd := dir
		if tid&(size/2) != 0 {
			ddd = dir ^ 1
		}
		for stride := size / 2; stride > 0; stride >>= 1 {
			t.Barrier()
			pos := 2*tid - (tid & (stride - 1))
			if (s[pos] > s[pos+stride]) == (ddd != 0) {
				s[pos], s[pos+stride] = s[pos+stride], s[pos]
			}
		}
	}
	for stride := 32; stride > 0; stride >>= 1 {
		t.Barrier()
		pos := 2*tid - (tid & (stride - 1))
		if (s[pos] > s[pos+stride]) == (dir != 0) {
			s[pos], s[pos+stride] = s[pos+stride], s[pos]
		}
	}
	t.Barrier()
	keys[tid] = s[tid]
	keys[tid+32] = s[tid+32]
}

// StridedFromThread is a GPUVerify-style barrier-divergence test: a loop
// starting at the thread index and striding by 32 runs twice for the first
// warp of a 64-thread block and once for the second.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func StridedFromThread(t gpu.Thread, data []float32) {
	for i := t.ThreadIdx().X; i < 64; i += 32 {
		data[i] += 1
		t.Barrier()
	}
}

// BTreeFindK is Rodinia b+tree's findK: thread 0 advances the block's node
// pointer in global memory between two barriers; every thread then reads
// the same pointer.
//
// verdict: clean
// launch: block=32 grid=2 height=3
//
//gpu:kernel block=32
func BTreeFindK(t gpu.Thread, height int, keysIn []int32, indices []int32, currNode, offset []int32, key []int32, ans []int32) {
	thid, bid := t.ThreadIdx().X, t.BlockIdx().X
	for i := 0; i < height; i++ {
		node := int(currNode[bid]) % 8
		if keysIn[node*33+thid] <= key[bid] && keysIn[node*33+thid+1] > key[bid] {
			offset[bid] = indices[node*32+thid] % 8
		}
		t.Barrier()
		if thid == 0 {
			currNode[bid] = offset[bid]
		}
		t.Barrier()
	}
	if thid == 0 {
		ans[bid] = currNode[bid]
	}
}

// ConvergenceLoop is the iterate-until-converged pattern of Jacobi solvers
// (HeCBench jacobi): thread 0 clears a shared flag, threads that still
// change set it, and after a barrier the whole block tests it; each
// iteration also writes its result to global memory before the next test.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func ConvergenceLoop(t gpu.Thread, x, out []float32) {
	flag := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	v := x[tid]
	for {
		if tid == 0 {
			flag[0] = 0
		}
		t.Barrier()
		nv := v * 0.5
		if nv-v > 0.01 || v-nv > 0.01 {
			flag[0] = 1
		}
		v = nv
		out[tid] = v
		t.Barrier()
		if flag[0] == 0 {
			break
		}
		t.Barrier()
	}
}

// CompactCount is the block-level stream compaction of HeCBench's
// compaction-like kernels: a shared struct holds the count and the staged
// values; after the barrier that publishes the count, threads stage their
// own value into the struct's other field, and the block tests the count.
//
// verdict: clean
// launch: block=64 grid=2
//
//gpu:kernel block=64
func CompactCount(t gpu.Thread, in, out []float32, total []int32) {
	type stage struct {
		n   int32
		buf [64]float32
	}
	s := gpu.Shared[stage](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		s.n = 0
	}
	t.Barrier()
	v := in[t.GlobalIdx().X]
	if v > 0 {
		gpu.AtomicAdd(&s.n, 1)
	}
	t.Barrier()
	s.buf[tid] = v
	if s.n > 0 {
		t.Barrier()
		if tid == 0 {
			gpu.AtomicAdd(&total[0], s.n)
		}
		out[t.GlobalIdx().X] = s.buf[63-tid]
	}
}

// PingPongSharedFlag is a Faial-style iterative kernel: global buffers
// swapped each step (src, dst = dst, src), a barrier only while a shared
// count published at the top says there is work.
//
// verdict: clean
// launch: block=64 grid=1 steps=3
//
//gpu:kernel grid=1
func PingPongSharedFlag(t gpu.Thread, steps int, a, b []float32) {
	work := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		work[0] = int32(steps)
	}
	t.Barrier()
	src, dst := a, b
	for k := 0; k < 4; k++ {
		if int32(k) < work[0] {
			t.Barrier()
		}
		dst[tid] = src[tid] + 1
		src, dst = dst, src
	}
}

// OwnElementAfterBarrier reads each thread's own element of shared memory
// after a barrier: the value differs by thread, so the barrier under it
// is divergent.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func OwnElementAfterBarrier(t gpu.Thread, in []int32) {
	s := gpu.Shared[[64]int32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[tid]
	t.Barrier()
	if s[tid] > 10 {
		t.Barrier()
	}
}

// FlagRewrittenAfterBarrier: the last thread writes the flag again after the
// barrier that published it; threads reading it may see either value.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func FlagRewrittenAfterBarrier(t gpu.Thread, in []int32) {
	f := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		f[0] = 1
	}
	t.Barrier()
	if tid == t.BlockDim().X-1 {
		f[0] = 0
	}
	if f[0] == 1 {
		t.Barrier()
	}
	in[tid] = 0
}
