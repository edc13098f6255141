package divergence

// Held-out kernels, sixth set (testdata/corpus/HELDOUT.md, "round 9"):
// hand translations of NVIDIA cuda-samples kernels the corpus did not
// cover (fastWalshTransform, reduction's reduce0, binomialOptions,
// convolutionSeparable's column pass, sortingNetworks' odd-even merge sort,
// histogram64's merge, MonteCarloMultiGPU), each with a near-twin of the
// other verdict, written and scored before any analyzer ran on them.

import "github.com/gpukvet/gpukvet/gpu"

// FwtBatch1OddStep is cuda-samples fwtBatch1Kernel: radix-4 steps with a
// barrier each (a uniform trip count: the stride falls from N/4 by fours),
// then the radix-2 step with its barrier under `log2N & 1`, a parameter.
//
// verdict: clean
// launch: block=256 grid=2 log2N=9 len=4096
//
//gpu:kernel block=256
func FwtBatch1OddStep(t gpu.Thread, data []float32, log2N int) {
	n := 1 << log2N
	base := t.BlockIdx().X << log2N
	sData := gpu.Shared[[2048]float32](t)
	for pos := t.ThreadIdx().X; pos < n; pos += t.BlockDim().X {
		sData[pos] = data[base+pos]
	}
	pos := t.ThreadIdx().X
	for stride := n >> 2; stride > 0; stride >>= 2 {
		lo := pos & (stride - 1)
		i0 := ((pos - lo) << 2) + lo
		i1 := i0 + stride
		i2 := i1 + stride
		i3 := i2 + stride
		t.Barrier()
		d0, d1, d2, d3 := sData[i0], sData[i1], sData[i2], sData[i3]
		sData[i0] = d0 + d2 + d1 + d3
		sData[i1] = d0 + d2 - d1 - d3
		sData[i2] = d0 - d2 + d1 - d3
		sData[i3] = d0 - d2 - d1 + d3
	}
	if log2N&1 != 0 {
		t.Barrier()
		for pos := t.ThreadIdx().X; pos < n/2; pos += t.BlockDim().X {
			i0 := pos << 1
			i1 := i0 + 1
			d0, d1 := sData[i0], sData[i1]
			sData[i0] = d0 + d1
			sData[i1] = d0 - d1
		}
	}
	t.Barrier()
	for pos := t.ThreadIdx().X; pos < n; pos += t.BlockDim().X {
		data[base+pos] = sData[pos]
	}
}

// Reduce0AsWritten is cuda-samples reduction's reduce0: the interleaved
// step `if tid % (2*s) == 0` and the barrier after it, outside the branch.
//
// verdict: clean
// launch: block=256 grid=2 n=500 len=4096
//
//gpu:kernel block=256
func Reduce0AsWritten(t gpu.Thread, idata, odata []float32, n int) {
	sdata := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	i := t.BlockIdx().X*t.BlockDim().X + tid
	if i < n {
		sdata[tid] = idata[i]
	} else {
		sdata[tid] = 0
	}
	t.Barrier()
	for s := 1; s < t.BlockDim().X; s *= 2 {
		if tid%(2*s) == 0 {
			sdata[tid] += sdata[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		odata[t.BlockIdx().X] = sdata[0]
	}
}

// Reduce0BarrierInGuard is reduce0 with the step's barrier moved inside
// `if tid % (2*s) == 0`: the odd threads never reach it.
//
// verdict: divergent
// launch: block=256 grid=2 n=500 len=4096
//
//gpu:kernel block=256
func Reduce0BarrierInGuard(t gpu.Thread, idata, odata []float32, n int) {
	sdata := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	i := t.BlockIdx().X*t.BlockDim().X + tid
	if i < n {
		sdata[tid] = idata[i]
	} else {
		sdata[tid] = 0
	}
	t.Barrier()
	for s := 1; s < t.BlockDim().X; s *= 2 {
		if tid%(2*s) == 0 {
			sdata[tid] += sdata[tid+s]
			t.Barrier()
		}
	}
	if tid == 0 {
		odata[t.BlockIdx().X] = sdata[0]
	}
}

// binomialOptions' sizes, as in the races corpus: 256 steps, 128 threads.
const (
	d9BinSteps   = 256
	d9BinThreads = 128
	d9BinElems   = d9BinSteps / d9BinThreads
)

// d9ExpiryCallValue is binomialOptions' expiryCallValue with __expf
// written as its first-order term (this corpus's loader has no math32; the
// control flow is the sample's).
func d9ExpiryCallValue(s, x, vDt float32, i int) float32 {
	d := s*(1+vDt*(2*float32(i)-d9BinSteps)) - x
	if d > 0 {
		return d
	}
	return 0
}

// BinomialAsWritten is cuda-samples binomialOptionsKernel: the step loop
// runs NUM_STEPS times in every thread, with both barriers; only the
// arithmetic is under the thread-dependent `i > final_it`.
//
// verdict: clean
// launch: block=128 grid=2 len=4096
//
//gpu:kernel block=128
func BinomialAsWritten(t gpu.Thread, optionData, callValue []float32) {
	callExchange := gpu.Shared[[d9BinThreads + 1]float32](t)
	tid := t.ThreadIdx().X
	bx := t.BlockIdx().X
	s, x, vDt := optionData[5*bx], optionData[5*bx+1], optionData[5*bx+2]
	puByDf, pdByDf := optionData[5*bx+3], optionData[5*bx+4]
	var call [d9BinElems + 1]float32
	for i := 0; i < d9BinElems; i++ {
		call[i] = d9ExpiryCallValue(s, x, vDt, tid*d9BinElems+i)
	}
	if tid == 0 {
		callExchange[d9BinThreads] = d9ExpiryCallValue(s, x, vDt, d9BinSteps)
	}
	finalIt := max(0, tid*d9BinElems-1)
	for i := d9BinSteps; i > 0; i-- {
		callExchange[tid] = call[0]
		t.Barrier()
		call[d9BinElems] = callExchange[tid+1]
		t.Barrier()
		if i > finalIt {
			for j := 0; j < d9BinElems; j++ {
				call[j] = puByDf*call[j+1] + pdByDf*call[j]
			}
		}
	}
	if tid == 0 {
		callValue[bx] = call[0]
	}
}

// BinomialBreakWhenDone "saves work" by leaving the step loop once
// i ≤ final_it: thread tid leaves after 256 − 2·tid + 1 steps, while the
// others still wait at the loop's barriers.
//
// verdict: divergent
// launch: block=128 grid=2 len=4096
//
//gpu:kernel block=128
func BinomialBreakWhenDone(t gpu.Thread, optionData, callValue []float32) {
	callExchange := gpu.Shared[[d9BinThreads + 1]float32](t)
	tid := t.ThreadIdx().X
	bx := t.BlockIdx().X
	s, x, vDt := optionData[5*bx], optionData[5*bx+1], optionData[5*bx+2]
	puByDf, pdByDf := optionData[5*bx+3], optionData[5*bx+4]
	var call [d9BinElems + 1]float32
	for i := 0; i < d9BinElems; i++ {
		call[i] = d9ExpiryCallValue(s, x, vDt, tid*d9BinElems+i)
	}
	if tid == 0 {
		callExchange[d9BinThreads] = d9ExpiryCallValue(s, x, vDt, d9BinSteps)
	}
	finalIt := max(0, tid*d9BinElems-1)
	for i := d9BinSteps; i > 0; i-- {
		if i <= finalIt {
			break
		}
		callExchange[tid] = call[0]
		t.Barrier()
		call[d9BinElems] = callExchange[tid+1]
		t.Barrier()
		for j := 0; j < d9BinElems; j++ {
			call[j] = puByDf*call[j+1] + pdByDf*call[j]
		}
	}
	if tid == 0 {
		callValue[bx] = call[0]
	}
}

// ConvColumnsGuardedAccesses is convolutionSeparable's column pass over
// an image whose width need not fill the last block: the loads and the
// store are under `baseX < w`, the barrier is not.
//
// verdict: clean
// launch: block=16,8 grid=2,2 w=24 h=32 len=4096
//
//gpu:kernel block=16,8
func ConvColumnsGuardedAccesses(t gpu.Thread, dst, src, kern []float32, w, h int) {
	sData := gpu.Shared[[16][4*8 + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	baseX := t.BlockIdx().X*16 + tx
	baseY := (t.BlockIdx().Y*2-1)*8 + ty
	at := baseY*w + baseX
	inside := baseX < w
	if inside {
		for i := 0; i < 4; i++ {
			if baseY+i*8 >= 0 && baseY+i*8 < h {
				sData[tx][ty+i*8] = src[at+i*8*w]
			} else {
				sData[tx][ty+i*8] = 0
			}
		}
	}
	t.Barrier()
	if inside {
		for i := 1; i < 3; i++ {
			var sum float32
			for j := -8; j <= 8; j++ {
				sum += kern[8-j] * sData[tx][ty+i*8+j]
			}
			dst[at+i*8*w] = sum
		}
	}
}

// ConvColumnsGuardAroundBarrier puts the barrier inside the `baseX < w`
// guard too: with w = 24 threads 8..15 of the right blocks skip it.
//
// verdict: divergent
// launch: block=16,8 grid=2,2 w=24 h=32 len=4096
//
//gpu:kernel block=16,8
func ConvColumnsGuardAroundBarrier(t gpu.Thread, dst, src, kern []float32, w, h int) {
	sData := gpu.Shared[[16][4*8 + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	baseX := t.BlockIdx().X*16 + tx
	baseY := (t.BlockIdx().Y*2-1)*8 + ty
	at := baseY*w + baseX
	if baseX < w {
		for i := 0; i < 4; i++ {
			if baseY+i*8 >= 0 && baseY+i*8 < h {
				sData[tx][ty+i*8] = src[at+i*8*w]
			} else {
				sData[tx][ty+i*8] = 0
			}
		}
		t.Barrier()
		for i := 1; i < 3; i++ {
			var sum float32
			for j := -8; j <= 8; j++ {
				sum += kern[8-j] * sData[tx][ty+i*8+j]
			}
			dst[at+i*8*w] = sum
		}
	}
}

// d9Comparator is sortingNetworks' Comparator.
func d9Comparator(keyA, valA, keyB, valB *uint32, dir int) {
	if (*keyA > *keyB) == (dir == 1) {
		*keyA, *keyB = *keyB, *keyA
		*valA, *valB = *valB, *valA
	}
}

// OddEvenMergeSharedAsWritten is cuda-samples oddEvenMergeSortShared: the
// size and stride loops are uniform (arrayLength is a parameter) and
// every barrier is outside `offset >= stride`.
//
// verdict: clean
// launch: block=512 grid=2 arrayLength=64 dir=1 len=4096
//
//gpu:kernel block=512
func OddEvenMergeSharedAsWritten(t gpu.Thread, dstKey, dstVal, srcKey, srcVal []uint32, arrayLength, dir int) {
	sKey := gpu.Shared[[1024]uint32](t)
	sVal := gpu.Shared[[1024]uint32](t)
	tid := t.ThreadIdx().X
	at := t.BlockIdx().X*1024 + tid
	sKey[tid], sVal[tid] = srcKey[at], srcVal[at]
	sKey[tid+512], sVal[tid+512] = srcKey[at+512], srcVal[at+512]
	for size := 2; size <= arrayLength; size <<= 1 {
		stride := size / 2
		offset := tid & (stride - 1)
		{
			t.Barrier()
			pos := 2*tid - (tid & (stride - 1))
			d9Comparator(&sKey[pos], &sVal[pos], &sKey[pos+stride], &sVal[pos+stride], dir)
			stride >>= 1
		}
		for ; stride > 0; stride >>= 1 {
			t.Barrier()
			pos := 2*tid - (tid & (stride - 1))
			if offset >= stride {
				d9Comparator(&sKey[pos-stride], &sVal[pos-stride], &sKey[pos], &sVal[pos], dir)
			}
		}
	}
	t.Barrier()
	dstKey[at], dstVal[at] = sKey[tid], sVal[tid]
	dstKey[at+512], dstVal[at+512] = sKey[tid+512], sVal[tid+512]
}

// OddEvenMergeBarrierUnderOffset moves the later steps' barrier inside
// `offset >= stride`: the threads with a smaller offset skip it.
//
// verdict: divergent
// launch: block=512 grid=2 arrayLength=64 dir=1 len=4096
//
//gpu:kernel block=512
func OddEvenMergeBarrierUnderOffset(t gpu.Thread, dstKey, dstVal, srcKey, srcVal []uint32, arrayLength, dir int) {
	sKey := gpu.Shared[[1024]uint32](t)
	sVal := gpu.Shared[[1024]uint32](t)
	tid := t.ThreadIdx().X
	at := t.BlockIdx().X*1024 + tid
	sKey[tid], sVal[tid] = srcKey[at], srcVal[at]
	sKey[tid+512], sVal[tid+512] = srcKey[at+512], srcVal[at+512]
	for size := 2; size <= arrayLength; size <<= 1 {
		stride := size / 2
		offset := tid & (stride - 1)
		{
			t.Barrier()
			pos := 2*tid - (tid & (stride - 1))
			d9Comparator(&sKey[pos], &sVal[pos], &sKey[pos+stride], &sVal[pos+stride], dir)
			stride >>= 1
		}
		for ; stride > 0; stride >>= 1 {
			pos := 2*tid - (tid & (stride - 1))
			if offset >= stride {
				t.Barrier()
				d9Comparator(&sKey[pos-stride], &sVal[pos-stride], &sKey[pos], &sVal[pos], dir)
			}
		}
	}
	t.Barrier()
	dstKey[at], dstVal[at] = sKey[tid], sVal[tid]
	dstKey[at+512], dstVal[at+512] = sKey[tid+512], sVal[tid+512]
}

// MergeHistogram64AsWritten is cuda-samples mergeHistogram64Kernel: the
// strided sum's trip count depends on the thread, but it holds no barrier;
// the tree's loop is uniform.
//
// verdict: clean
// launch: block=256 grid=2 histogramCount=60 len=4096
//
//gpu:kernel block=256
func MergeHistogram64AsWritten(t gpu.Thread, histogram, partial []uint32, histogramCount int) {
	data := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	var sum uint32
	for i := tid; i < histogramCount; i += 256 {
		sum += partial[t.BlockIdx().X+i*64]
	}
	data[tid] = sum
	for stride := 128; stride > 0; stride >>= 1 {
		t.Barrier()
		if tid < stride {
			data[tid] += data[tid+stride]
		}
	}
	if tid == 0 {
		histogram[t.BlockIdx().X] = data[0]
	}
}

// MergeHistogram64IdleReturn lets the threads with no partial histogram
// to add return early (`if tid >= histogramCount`), before the tree's
// barriers.
//
// verdict: divergent
// launch: block=256 grid=2 histogramCount=60 len=4096
//
//gpu:kernel block=256
func MergeHistogram64IdleReturn(t gpu.Thread, histogram, partial []uint32, histogramCount int) {
	data := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	data[tid] = 0
	if tid >= histogramCount {
		return
	}
	var sum uint32
	for i := tid; i < histogramCount; i += 256 {
		sum += partial[t.BlockIdx().X+i*64]
	}
	data[tid] = sum
	for stride := 128; stride > 0; stride >>= 1 {
		t.Barrier()
		if tid < stride {
			data[tid] += data[tid+stride]
		}
	}
	if tid == 0 {
		histogram[t.BlockIdx().X] = data[0]
	}
}

// d9SumReduce is MonteCarlo's sumReduce (the warp sync as the block
// barrier) for a block of up to 256 threads.
func d9SumReduce(t gpu.Thread, sum *[256]float32, callValue []float32, optionIndex int) {
	tid := t.ThreadIdx().X
	beta := sum[tid]
	for i := 16; i > 0; i >>= 1 {
		if tid%32 < i {
			beta += sum[tid+i]
			sum[tid] = beta
		}
		t.Barrier()
	}
	t.Barrier()
	if tid == 0 {
		beta = 0
		for i := 0; i < t.BlockDim().X; i += 32 {
			beta += sum[i]
		}
		callValue[optionIndex] = beta
	}
	t.Barrier()
}

// MonteCarloPathLoopThenReduce is MonteCarloMultiGPU's kernel: the
// per-thread loop over the sums iSum = tid, tid+blockDim, ... holds no
// barrier; sumReduce runs after it, in every thread. (endCallValue's
// exponential is written as its first-order term.)
//
// verdict: clean
// launch: block=192 grid=2 pathN=600 optionN=4 len=4096
//
//gpu:kernel
func MonteCarloPathLoopThenReduce(t gpu.Thread, samples, optionData, callValue []float32, pathN, optionN int) {
	sSum := gpu.Shared[[256]float32](t)
	for optionIndex := t.BlockIdx().X; optionIndex < optionN; optionIndex += t.GridDim().X {
		s, x := optionData[4*optionIndex], optionData[4*optionIndex+1]
		for iSum := t.ThreadIdx().X; iSum < 256; iSum += t.BlockDim().X {
			var expected float32
			for i := iSum; i < pathN; i += 256 {
				expected += max(s*(1+samples[i])-x, 0)
			}
			sSum[iSum] = expected
		}
		t.Barrier()
		d9SumReduce(t, sSum, callValue, optionIndex)
	}
}

// MonteCarloReduceInPathLoop calls sumReduce inside the per-thread loop
// over the sums: with 192 threads, threads 0..63 run it twice and the
// others once.
//
// verdict: divergent
// launch: block=192 grid=2 pathN=600 optionN=4 len=4096
//
//gpu:kernel
func MonteCarloReduceInPathLoop(t gpu.Thread, samples, optionData, callValue []float32, pathN, optionN int) {
	sSum := gpu.Shared[[256]float32](t)
	for optionIndex := t.BlockIdx().X; optionIndex < optionN; optionIndex += t.GridDim().X {
		s, x := optionData[4*optionIndex], optionData[4*optionIndex+1]
		for iSum := t.ThreadIdx().X; iSum < 256; iSum += t.BlockDim().X {
			var expected float32
			for i := iSum; i < pathN; i += 256 {
				expected += max(s*(1+samples[i])-x, 0)
			}
			sSum[iSum] = expected
			t.Barrier()
			d9SumReduce(t, sSum, callValue, optionIndex)
		}
	}
}
