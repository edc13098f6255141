package divergence

// Held-out kernels, third set (testdata/corpus/HELDOUT.md, "issue 20"):
// hand translations of public kernels the corpus did not cover (AMD APP
// SDK's DwtHaar1D and PrefixSum, LonestarGPU's block-level worklist loops,
// Rodinia hotspot's pyramid loop with its `computed` flag, HeCBench-style
// early returns before a block scan), each with a near-twin of the other
// verdict, written and scored before any analyzer ran on them.

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
)

// DwtHaar1DAmd is AMD APP SDK's dwtHaar1D as written: per level, the
// active threads (half as many each level) average and difference a pair
// of local cells; the barrier is outside the guard and the level count is
// a parameter. (Within a level, thread 1 writes sharedArray[1] while
// thread 0 reads it: a data race, racecorpus.DwtHaar1DAmdInPlace; this
// corpus asks only about the barrier.)
//
// verdict: clean
// launch: block=64 grid=2 tLevels=6 signalLength=256 levelsDone=0 mLevels=6
//
//gpu:kernel block=64
func DwtHaar1DAmd(t gpu.Thread, inSignal, coefsSignal, averageSignal []float32, tLevels, signalLength, levelsDone, mLevels int) {
	sharedArray := gpu.Shared[[128]float32](t)
	localID := t.ThreadIdx().X
	groupID := t.BlockIdx().X
	localSize := t.BlockDim().X
	sharedArray[localID*2] = inSignal[groupID*localSize*2+localID*2]
	sharedArray[localID*2+1] = inSignal[groupID*localSize*2+localID*2+1]
	if levelsDone == 0 {
		sharedArray[localID*2] /= float32(math.Sqrt(float64(signalLength)))
		sharedArray[localID*2+1] /= float32(math.Sqrt(float64(signalLength)))
	}
	t.Barrier()
	levels := min(tLevels, mLevels)
	activeThreads := (1 << levels) / 2
	midOutPos := signalLength / 2
	for i := 0; i < levels; i++ {
		if localID < activeThreads {
			data0 := sharedArray[2*localID]
			data1 := sharedArray[2*localID+1]
			sharedArray[localID] = (data0 + data1) / math.Sqrt2
			globalPos := midOutPos + groupID*activeThreads + localID
			coefsSignal[globalPos] = (data0 - data1) / math.Sqrt2
			midOutPos >>= 1
		}
		activeThreads >>= 1
		t.Barrier()
	}
	if localID == 0 {
		averageSignal[groupID] = sharedArray[0]
	}
}

// DwtHaar1DBreakInactive: the same transform with the guard turned into a
// `break`: the inactive threads leave the level loop and skip the barriers
// the active ones still take.
//
// verdict: divergent
// launch: block=64 grid=2 tLevels=6 signalLength=256 levelsDone=0 mLevels=6
//
//gpu:kernel block=64
func DwtHaar1DBreakInactive(t gpu.Thread, inSignal, coefsSignal, averageSignal []float32, tLevels, signalLength, levelsDone, mLevels int) {
	sharedArray := gpu.Shared[[128]float32](t)
	localID := t.ThreadIdx().X
	groupID := t.BlockIdx().X
	localSize := t.BlockDim().X
	sharedArray[localID*2] = inSignal[groupID*localSize*2+localID*2]
	sharedArray[localID*2+1] = inSignal[groupID*localSize*2+localID*2+1]
	if levelsDone == 0 {
		sharedArray[localID*2] /= float32(math.Sqrt(float64(signalLength)))
		sharedArray[localID*2+1] /= float32(math.Sqrt(float64(signalLength)))
	}
	t.Barrier()
	levels := min(tLevels, mLevels)
	activeThreads := (1 << levels) / 2
	midOutPos := signalLength / 2
	for i := 0; i < levels; i++ {
		if localID >= activeThreads {
			break
		}
		data0 := sharedArray[2*localID]
		data1 := sharedArray[2*localID+1]
		sharedArray[localID] = (data0 + data1) / math.Sqrt2
		globalPos := midOutPos + groupID*activeThreads + localID
		coefsSignal[globalPos] = (data0 - data1) / math.Sqrt2
		midOutPos >>= 1
		activeThreads >>= 1
		t.Barrier()
	}
	if localID == 0 {
		averageSignal[groupID] = sharedArray[0]
	}
}

// WorklistLoopSharedFlag: LonestarGPU-style block-level fixpoint: thread 0
// clears a shared `changed` flag, a barrier, threads that relax an edge set
// it, a barrier, and every thread tests it; the next clear waits behind the
// loop's first barrier.
//
// verdict: clean
// launch: block=64 grid=2 maxIter=8
//
//gpu:kernel block=64
func WorklistLoopSharedFlag(t gpu.Thread, dist, weight []int32, maxIter int) {
	changed := gpu.Shared[[1]int32](t)
	v := t.GlobalIdx().X
	for iter := 0; iter < maxIter; iter++ {
		t.Barrier()
		if t.ThreadIdx().X == 0 {
			changed[0] = 0
		}
		t.Barrier()
		if v+1 < len(dist) && v < len(weight) {
			if nd := dist[v] + weight[v]; nd < dist[v+1] {
				dist[v+1] = nd
				changed[0] = 1
			}
		}
		t.Barrier()
		if changed[0] == 0 {
			break
		}
	}
}

// WorklistLoopOwnFlag: the fixpoint loop with each thread testing its
// own `changed` flag instead of the block's: a thread that relaxed nothing
// leaves the loop while one that did goes on to the next barrier.
//
// verdict: divergent
// launch: block=64 grid=1 maxIter=8
//
//gpu:kernel block=64
func WorklistLoopOwnFlag(t gpu.Thread, dist, weight []int32, maxIter int) {
	v := t.GlobalIdx().X
	for iter := 0; iter < maxIter; iter++ {
		t.Barrier()
		changed := false
		if v+1 < len(dist) && v < len(weight) {
			if nd := dist[v] + weight[v]; nd < dist[v+1] {
				dist[v+1] = nd
				changed = true
			}
		}
		t.Barrier()
		if !changed {
			break
		}
	}
}

// BlockScanReturnPastN: a block scan that starts with `if gid >= n
// { return }`, as many HeCBench kernels do before their barriers: in the
// last block the threads past n skip the scan's barriers.
//
// verdict: divergent
// launch: block=64 grid=2 n=100
//
//gpu:kernel block=64
func BlockScanReturnPastN(t gpu.Thread, in, out []float32, n int) {
	temp := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	if gid >= n || gid >= len(in) || gid >= len(out) {
		return
	}
	temp[tid] = in[gid]
	t.Barrier()
	for off := 1; off < 64; off *= 2 {
		var a float32
		if tid >= off {
			a = temp[tid-off]
		}
		t.Barrier()
		temp[tid] += a
		t.Barrier()
	}
	out[gid] = temp[tid]
}

// BlockScanGuardedLoad: the same scan with the bound tested around the
// load and the store only; every thread takes every barrier.
//
// verdict: clean
// launch: block=64 grid=2 n=100
//
//gpu:kernel block=64
func BlockScanGuardedLoad(t gpu.Thread, in, out []float32, n int) {
	temp := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	inRange := gid < n && gid < len(in) && gid < len(out)
	var v float32
	if inRange {
		v = in[gid]
	}
	temp[tid] = v
	t.Barrier()
	for off := 1; off < 64; off *= 2 {
		var a float32
		if tid >= off {
			a = temp[tid-off]
		}
		t.Barrier()
		temp[tid] += a
		t.Barrier()
	}
	if inRange {
		out[gid] = temp[tid]
	}
}

// ExpandOwnDegree: a frontier expansion that stages each vertex's
// neighbours (up to 64, from its own row of cols) through shared memory,
// one neighbour per round with a barrier per round, looping over the
// thread's own degree.
//
// verdict: divergent
// launch: block=64 grid=1 len=4096
//
//gpu:kernel block=64
func ExpandOwnDegree(t gpu.Thread, degree, cols, out []int32) {
	stage := gpu.Shared[[64]int32](t)
	tid := t.ThreadIdx().X
	v := t.GlobalIdx().X
	if v >= len(degree) {
		return
	}
	start := v * 64
	end := start + int(degree[v])
	for e := start; e < end && e < len(cols); e++ {
		stage[tid] = cols[e]
		t.Barrier()
		if e < len(out) {
			out[e] = stage[(tid+1)%64]
		}
		t.Barrier()
	}
}

// ExpandBlockMaxDegree: the expansion as LonestarGPU writes it: the block
// first agrees on its largest degree (a shared AtomicMax published by a
// barrier) and every thread runs that many rounds.
//
// verdict: clean
// launch: block=64 grid=1 len=4096
//
//gpu:kernel block=64
func ExpandBlockMaxDegree(t gpu.Thread, degree, cols, out []int32) {
	stage := gpu.Shared[[64]int32](t)
	maxDeg := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	v := t.GlobalIdx().X
	if tid == 0 {
		maxDeg[0] = 0
	}
	t.Barrier()
	start := int32(v * 64)
	var end int32
	if v < len(degree) {
		end = start + degree[v]
		gpu.AtomicMax(&maxDeg[0], degree[v])
	}
	t.Barrier()
	rounds := maxDeg[0]
	for k := int32(0); k < rounds; k++ {
		e := int(start + k)
		var c int32 = -1
		if start+k < end && e < len(cols) {
			c = cols[e]
		}
		stage[tid] = c
		t.Barrier()
		if start+k < end && e < len(out) {
			out[e] = stage[(tid+1)%64]
		}
		t.Barrier()
	}
}

// PrefixSumAmdStrides: AMD APP SDK PrefixSum's group scan: the stride loop
// runs to the block's length (a parameter), with the barrier outside the
// thread's guard.
//
// verdict: clean
// launch: block=64 grid=2 length=64
//
//gpu:kernel block=64
func PrefixSumAmdStrides(t gpu.Thread, output, input []float32, length int) {
	block := gpu.Shared[[64]float32](t)
	lid := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	if gid < len(input) {
		block[lid] = input[gid]
	}
	t.Barrier()
	for stride := 1; stride < length && stride < 64; stride *= 2 {
		var cache float32
		if lid >= stride {
			cache = block[lid-stride]
		}
		t.Barrier()
		block[lid] += cache
		t.Barrier()
	}
	if gid < len(output) {
		output[gid] = block[lid]
	}
}

// PrefixSumStrideToLid: the stride loop bounded by the thread's own index
// (`stride <= lid`) instead of the length: thread 0 takes no round, thread
// 63 six, each with its barriers.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel block=64
func PrefixSumStrideToLid(t gpu.Thread, output, input []float32) {
	block := gpu.Shared[[64]float32](t)
	lid := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	if gid < len(input) {
		block[lid] = input[gid]
	}
	t.Barrier()
	for stride := 1; stride <= lid; stride *= 2 {
		cache := block[lid-stride]
		t.Barrier()
		block[lid] += cache
		t.Barrier()
	}
	if gid < len(output) {
		output[gid] = block[lid]
	}
}

// HotspotPyramid is Rodinia hotspot's pyramid loop on one row of cells:
// each iteration sets `computed` for the threads inside the shrinking
// valid region, a barrier, breaks on the last iteration (uniform), then the
// computed threads copy their result back, and a barrier.
//
// verdict: clean
// launch: block=64 grid=2 iteration=4
//
//gpu:kernel block=64
func HotspotPyramid(t gpu.Thread, tempSrc, tempDst []float32, iteration int) {
	tempOn := gpu.Shared[[64]float32](t)
	tempT := gpu.Shared[[64]float32](t)
	tx := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	if gid < len(tempSrc) {
		tempOn[tx] = tempSrc[gid]
	}
	t.Barrier()
	computed := false
	for i := 0; i < iteration; i++ {
		computed = false
		if tx >= i+1 && tx <= 64-i-2 {
			computed = true
			tempT[tx] = tempOn[tx] + 0.1*(tempOn[tx-1]+tempOn[tx+1]-2*tempOn[tx])
		}
		t.Barrier()
		if i == iteration-1 {
			break
		}
		if computed {
			tempOn[tx] = tempT[tx]
		}
		t.Barrier()
	}
	if computed && gid < len(tempDst) {
		tempDst[gid] = tempT[tx]
	}
}

// HotspotPyramidComputedBreak: the loop's exit written `if computed && i
// == iteration-1`: on the last iteration only the computed threads leave,
// the others go on to the second barrier.
//
// verdict: divergent
// launch: block=64 grid=1 iteration=4
//
//gpu:kernel block=64
func HotspotPyramidComputedBreak(t gpu.Thread, tempSrc, tempDst []float32, iteration int) {
	tempOn := gpu.Shared[[64]float32](t)
	tempT := gpu.Shared[[64]float32](t)
	tx := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	if gid < len(tempSrc) {
		tempOn[tx] = tempSrc[gid]
	}
	t.Barrier()
	computed := false
	for i := 0; i < iteration; i++ {
		computed = false
		if tx >= i+1 && tx <= 64-i-2 {
			computed = true
			tempT[tx] = tempOn[tx] + 0.1*(tempOn[tx-1]+tempOn[tx+1]-2*tempOn[tx])
		}
		t.Barrier()
		if computed && i == iteration-1 {
			break
		}
		if computed {
			tempOn[tx] = tempT[tx]
		}
		t.Barrier()
	}
	if computed && gid < len(tempDst) {
		tempDst[gid] = tempT[tx]
	}
}
