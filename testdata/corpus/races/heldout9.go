package racecorpus

// Held-out probes, ninth batch (issue 20, round 9): kernels translated
// statement for statement from public code the corpora had not used:
// NVIDIA cuda-samples fastWalshTransform (fwtBatch1Kernel,
// fwtBatch2Kernel), histogram64 (histogram64Kernel and
// mergeHistogram64Kernel), sortingNetworks' odd-even merge sort
// (oddEvenMergeSortShared, oddEvenMergeGlobal), mergeSort
// (mergeSortSharedKernel), MonteCarloMultiGPU (MonteCarloOneBlockPerOption
// with its sumReduce), binomialOptions, convolutionSeparable's column
// pass, reduction's reduce1 and quasirandomGenerator; PolyBench-ACC atax,
// adi, correlation, convolution-3d and syr2k. Each has a near-twin of the
// other verdict where the source suggests one. Verdicts were decided from
// the code and DIALECT.md before any analyzer ran (testdata/corpus/HELDOUT.md,
// "round 9").

import (
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// fwtElementaryN is fastWalshTransform's 1 << ELEMENTARY_LOG2SIZE: the
// largest batch fwtBatch1Kernel transforms in shared memory.
const fwtElementaryN = 1 << 11

// FwtBatch1Shared: cuda-samples fastWalshTransform's fwtBatch1Kernel, in
// place as its host calls it (d_Output == d_Input): each block loads its
// batch of N = 2^log2N values into shared memory, runs radix-4 butterflies
// with strides N/4, N/16, ... (a barrier before each), one radix-2 step
// when log2N is odd, and stores the batch back. For a power-of-two stride
// the four cells pos ↦ 4(pos − lo) + lo + {0,1,2,3}·stride of two threads
// are disjoint.
// verdict: clean
//
//gpu:kernel block=256
func FwtBatch1Shared(t gpu.Thread, data []float32, log2N int) {
	n := 1 << log2N
	base := t.BlockIdx().X << log2N
	sData := gpu.Shared[[fwtElementaryN]float32](t)
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
		d0 := sData[i0]
		d1 := sData[i1]
		d2 := sData[i2]
		d3 := sData[i3]
		tmp := d0
		d0 = d0 + d2
		d2 = tmp - d2
		tmp = d1
		d1 = d1 + d3
		d3 = tmp - d3
		tmp = d0
		sData[i0] = d0 + d1
		sData[i1] = tmp - d1
		tmp = d2
		sData[i2] = d2 + d3
		sData[i3] = tmp - d3
	}
	if log2N&1 != 0 {
		t.Barrier()
		for pos := t.ThreadIdx().X; pos < n/2; pos += t.BlockDim().X {
			i0 := pos << 1
			i1 := i0 + 1
			d0 := sData[i0]
			d1 := sData[i1]
			sData[i0] = d0 + d1
			sData[i1] = d0 - d1
		}
	}
	t.Barrier()
	for pos := t.ThreadIdx().X; pos < n; pos += t.BlockDim().X {
		data[base+pos] = sData[pos]
	}
}

// FwtBatch1NoLoopBarrier: fwtBatch1Kernel with the barrier at the top of
// the butterfly loop dropped: the first step's loads read cells other
// threads stored in the copy loop, and each later step's loads read cells
// the previous step's other threads store.
// verdict: race
//
//gpu:kernel block=256
func FwtBatch1NoLoopBarrier(t gpu.Thread, data []float32, log2N int) {
	n := 1 << log2N
	base := t.BlockIdx().X << log2N
	sData := gpu.Shared[[fwtElementaryN]float32](t)
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
		d0 := sData[i0]
		d1 := sData[i1]
		d2 := sData[i2]
		d3 := sData[i3]
		tmp := d0
		d0 = d0 + d2
		d2 = tmp - d2
		tmp = d1
		d1 = d1 + d3
		d3 = tmp - d3
		tmp = d0
		sData[i0] = d0 + d1
		sData[i1] = tmp - d1
		tmp = d2
		sData[i2] = d2 + d3
		sData[i3] = tmp - d3
	}
	t.Barrier()
	for pos := t.ThreadIdx().X; pos < n; pos += t.BlockDim().X {
		data[base+pos] = sData[pos]
	}
}

// FwtBatch2Pow2: cuda-samples fwtBatch2Kernel, in place, on a 2-D grid of
// 1-D blocks (row y of the grid transforms batch y of N = 4·blockDim·
// gridDim.x values), with a guard stating that the stride is a power of
// two no larger than N/4. First written as clean; the guard is not enough:
// the host's N is a power of two too, and without that a batch's cells
// spill into the next. With gridDim = (3, 2) and stride 512 (N = 3072),
// thread 767 of row 0 stores data[2303 + k·512] and thread 255 of row 1
// stores data[3072 + 255 + k·512]: both store data[3327] and data[3839]
// (HELDOUT.md, round 9).
// verdict: race
//
//gpu:kernel block=256
func FwtBatch2Pow2(t gpu.Thread, data []float32, stride int) {
	pos := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	n := t.BlockDim().X * t.GridDim().X * 4
	if stride <= 0 || stride&(stride-1) != 0 || 4*stride > n {
		panic("fwtBatch2Kernel: stride must be a power of two no larger than N/4")
	}
	src := data[t.BlockIdx().Y*n:]
	dst := data[t.BlockIdx().Y*n:]
	lo := pos & (stride - 1)
	i0 := ((pos - lo) << 2) + lo
	i1 := i0 + stride
	i2 := i1 + stride
	i3 := i2 + stride
	d0 := src[i0]
	d1 := src[i1]
	d2 := src[i2]
	d3 := src[i3]
	tmp := d0
	d0 = d0 + d2
	d2 = tmp - d2
	tmp = d1
	d1 = d1 + d3
	d3 = tmp - d3
	tmp = d0
	dst[i0] = d0 + d1
	dst[i1] = tmp - d1
	tmp = d2
	dst[i2] = d2 + d3
	dst[i3] = tmp - d3
}

// FwtBatch2Pow2Batch: fwtBatch2Kernel with all the host's promises in
// the guard (added after the score): N = 4·blockDim·gridDim.x and the
// stride powers of two, stride ≤ N/4, so the stride divides N/4 and every
// thread's four cells stay in its batch.
// verdict: clean
// known false positive: a power of two no larger than another divides it; the
// model does not relate the two guarded powers of two.
//
//gpu:kernel block=256
func FwtBatch2Pow2Batch(t gpu.Thread, data []float32, stride int) {
	pos := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	n := t.BlockDim().X * t.GridDim().X * 4
	if n&(n-1) != 0 || stride <= 0 || stride&(stride-1) != 0 || 4*stride > n {
		panic("fwtBatch2Kernel: N and stride must be powers of two, stride no larger than N/4")
	}
	src := data[t.BlockIdx().Y*n:]
	dst := data[t.BlockIdx().Y*n:]
	lo := pos & (stride - 1)
	i0 := ((pos - lo) << 2) + lo
	i1 := i0 + stride
	i2 := i1 + stride
	i3 := i2 + stride
	d0 := src[i0]
	d1 := src[i1]
	d2 := src[i2]
	d3 := src[i3]
	tmp := d0
	d0 = d0 + d2
	d2 = tmp - d2
	tmp = d1
	d1 = d1 + d3
	d3 = tmp - d3
	tmp = d0
	dst[i0] = d0 + d1
	dst[i1] = tmp - d1
	tmp = d2
	dst[i2] = d2 + d3
	dst[i3] = tmp - d3
}

// FwtBatch2AsWritten: fwtBatch2Kernel as the sample writes it, without the
// host's promise on stride: with stride = 3 (mask 2) thread 3's cells
// 6, 9, 12, 15 meet thread 0's 0, 3, 6, 9.
// verdict: race
//
//gpu:kernel block=256
func FwtBatch2AsWritten(t gpu.Thread, data []float32, stride int) {
	pos := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	n := t.BlockDim().X * t.GridDim().X * 4
	src := data[t.BlockIdx().Y*n:]
	dst := data[t.BlockIdx().Y*n:]
	lo := pos & (stride - 1)
	i0 := ((pos - lo) << 2) + lo
	i1 := i0 + stride
	i2 := i1 + stride
	i3 := i2 + stride
	d0 := src[i0]
	d1 := src[i1]
	d2 := src[i2]
	d3 := src[i3]
	tmp := d0
	d0 = d0 + d2
	d2 = tmp - d2
	tmp = d1
	d1 = d1 + d3
	d3 = tmp - d3
	tmp = d0
	dst[i0] = d0 + d1
	dst[i1] = tmp - d1
	tmp = d2
	dst[i2] = d2 + d3
	dst[i3] = tmp - d3
}

// histogram64's sizes: 64 bins, HISTOGRAM64_THREADBLOCK_SIZE = 4 ·
// SHARED_MEMORY_BANKS threads, 16 banks.
const (
	hist64Bins    = 64
	hist64Threads = 64
	hist64Banks   = 16
)

// hist64AddByte is histogram64's addByte: one 8-bit counter of the
// thread's own column.
func hist64AddByte(sThreadBase []uint8, data uint32) {
	sThreadBase[data*hist64Threads]++
}

// hist64AddWord is histogram64's addWord: the four 6-bit bins of a word.
func hist64AddWord(sThreadBase []uint8, data uint32) {
	hist64AddByte(sThreadBase, (data>>2)&0x3F)
	hist64AddByte(sThreadBase, (data>>10)&0x3F)
	hist64AddByte(sThreadBase, (data>>18)&0x3F)
	hist64AddByte(sThreadBase, (data>>26)&0x3F)
}

// Histogram64Swizzled: cuda-samples histogram64Kernel: every thread counts
// into its own column of a bins × threads byte matrix, the column chosen
// by a bank-spreading permutation of the thread index (threadPos =
// (tid &^ 63) | (tid&15)<<2 | (tid&48)>>4); after a barrier, thread b < 64
// sums row b. The uint4 input is four uint32 words per element; its
// element count, dataCount, is named n (the race check passes 1024).
// verdict: clean
// known false positive: the fields of threadPos are disjoint bits (their | is
// their sum, and tid &^ 63 is 64·(tid/64)), but tid & 48, a run of bits,
// is not modelled; modelled as two remainders it leaves 4Δc + Δb + 64Δd =
// 0 undecided over the integers, at 50 times the time.
//
//gpu:kernel block=64
func Histogram64Swizzled(t gpu.Thread, partial, data []uint32, n int) {
	tid := t.ThreadIdx().X
	threadPos := (tid &^ (hist64Banks*4 - 1)) | ((tid & (hist64Banks - 1)) << 2) | ((tid & (hist64Banks * 3)) >> 4)
	sHist := gpu.Shared[[hist64Threads * hist64Bins]uint8](t)
	sThreadBase := sHist[threadPos:]
	for i := 0; i < hist64Bins/4; i++ {
		w := 4 * (tid + i*hist64Threads)
		sHist[w] = 0
		sHist[w+1] = 0
		sHist[w+2] = 0
		sHist[w+3] = 0
	}
	t.Barrier()
	for pos := t.BlockIdx().X*t.BlockDim().X + tid; pos < n; pos += t.BlockDim().X * t.GridDim().X {
		hist64AddWord(sThreadBase, data[4*pos])
		hist64AddWord(sThreadBase, data[4*pos+1])
		hist64AddWord(sThreadBase, data[4*pos+2])
		hist64AddWord(sThreadBase, data[4*pos+3])
	}
	t.Barrier()
	if tid < hist64Bins {
		sHistBase := sHist[tid*hist64Threads:]
		var sum uint32
		pos := 4 * (tid & (hist64Banks - 1))
		for i := 0; i < hist64Threads/4; i++ {
			sum += uint32(sHistBase[pos]) + uint32(sHistBase[pos+1]) + uint32(sHistBase[pos+2]) + uint32(sHistBase[pos+3])
			pos = (pos + 4) & (hist64Threads - 1)
		}
		partial[t.BlockIdx().X*hist64Bins+tid] = sum
	}
}

// Histogram64NoHighBits: histogram64Kernel with the permutation's last
// term, (tid&48)>>4, left out: threads 0, 16, 32 and 48 share column 0
// and increment its counters with plain read-modify-writes.
// verdict: race
//
//gpu:kernel block=64
func Histogram64NoHighBits(t gpu.Thread, partial, data []uint32, n int) {
	tid := t.ThreadIdx().X
	threadPos := (tid &^ (hist64Banks*4 - 1)) | ((tid & (hist64Banks - 1)) << 2)
	sHist := gpu.Shared[[hist64Threads * hist64Bins]uint8](t)
	sThreadBase := sHist[threadPos:]
	for i := 0; i < hist64Bins/4; i++ {
		w := 4 * (tid + i*hist64Threads)
		sHist[w] = 0
		sHist[w+1] = 0
		sHist[w+2] = 0
		sHist[w+3] = 0
	}
	t.Barrier()
	for pos := t.BlockIdx().X*t.BlockDim().X + tid; pos < n; pos += t.BlockDim().X * t.GridDim().X {
		hist64AddWord(sThreadBase, data[4*pos])
		hist64AddWord(sThreadBase, data[4*pos+1])
		hist64AddWord(sThreadBase, data[4*pos+2])
		hist64AddWord(sThreadBase, data[4*pos+3])
	}
	t.Barrier()
	if tid < hist64Bins {
		sHistBase := sHist[tid*hist64Threads:]
		var sum uint32
		pos := 4 * (tid & (hist64Banks - 1))
		for i := 0; i < hist64Threads/4; i++ {
			sum += uint32(sHistBase[pos]) + uint32(sHistBase[pos+1]) + uint32(sHistBase[pos+2]) + uint32(sHistBase[pos+3])
			pos = (pos + 4) & (hist64Threads - 1)
		}
		partial[t.BlockIdx().X*hist64Bins+tid] = sum
	}
}

// mergeThreads is histogram64's MERGE_THREADBLOCK_SIZE.
const mergeThreads = 256

// MergeHistogram64: cuda-samples mergeHistogram64Kernel: block b sums bin
// b over the partial histograms (a strided loop), then a tree reduction in
// shared memory with the barrier at the top of each step.
// verdict: clean
//
//gpu:kernel block=256
func MergeHistogram64(t gpu.Thread, histogram, partial []uint32, histogramCount int) {
	data := gpu.Shared[[mergeThreads]uint32](t)
	tid := t.ThreadIdx().X
	var sum uint32
	for i := tid; i < histogramCount; i += mergeThreads {
		sum += partial[t.BlockIdx().X+i*hist64Bins]
	}
	data[tid] = sum
	for stride := mergeThreads / 2; stride > 0; stride >>= 1 {
		t.Barrier()
		if tid < stride {
			data[tid] += data[tid+stride]
		}
	}
	if tid == 0 {
		histogram[t.BlockIdx().X] = data[0]
	}
}

// MergeHistogram64BarrierAfterAdd: the merge with each step's barrier
// moved after the add: the first step reads data[tid+128] that thread
// tid+128 has just stored, with no barrier between.
// verdict: race
//
//gpu:kernel block=256
func MergeHistogram64BarrierAfterAdd(t gpu.Thread, histogram, partial []uint32, histogramCount int) {
	data := gpu.Shared[[mergeThreads]uint32](t)
	tid := t.ThreadIdx().X
	var sum uint32
	for i := tid; i < histogramCount; i += mergeThreads {
		sum += partial[t.BlockIdx().X+i*hist64Bins]
	}
	data[tid] = sum
	for stride := mergeThreads / 2; stride > 0; stride >>= 1 {
		if tid < stride {
			data[tid] += data[tid+stride]
		}
		t.Barrier()
	}
	if tid == 0 {
		histogram[t.BlockIdx().X] = data[0]
	}
}

// sortSharedLimit is sortingNetworks' and mergeSort's SHARED_SIZE_LIMIT:
// a block of 512 threads sorts 1024 keys.
const sortSharedLimit = 1024

// oemComparator is sortingNetworks' Comparator: it orders one key/value
// pair against another, through references.
func oemComparator(keyA, valA, keyB, valB *uint32, dir int) {
	if (*keyA > *keyB) == (dir == 1) {
		*keyA, *keyB = *keyB, *keyA
		*valA, *valB = *valB, *valA
	}
}

// OddEvenMergeSortShared: cuda-samples oddEvenMergeSortShared: each
// thread loads two keys, then for every merge size the first step compares
// pos and pos+stride (pos = 2·tid − tid&(stride−1)) and each later step,
// after a barrier, compares pos−stride and pos for the threads whose
// offset in the merge is at least stride.
// verdict: clean
//
//gpu:kernel block=512
func OddEvenMergeSortShared(t gpu.Thread, dstKey, dstVal, srcKey, srcVal []uint32, arrayLength, dir int) {
	sKey := gpu.Shared[[sortSharedLimit]uint32](t)
	sVal := gpu.Shared[[sortSharedLimit]uint32](t)
	tid := t.ThreadIdx().X
	at := t.BlockIdx().X*sortSharedLimit + tid
	sKey[tid] = srcKey[at]
	sVal[tid] = srcVal[at]
	sKey[tid+sortSharedLimit/2] = srcKey[at+sortSharedLimit/2]
	sVal[tid+sortSharedLimit/2] = srcVal[at+sortSharedLimit/2]
	for size := 2; size <= arrayLength; size <<= 1 {
		stride := size / 2
		offset := tid & (stride - 1)
		{
			t.Barrier()
			pos := 2*tid - (tid & (stride - 1))
			oemComparator(&sKey[pos], &sVal[pos], &sKey[pos+stride], &sVal[pos+stride], dir)
			stride >>= 1
		}
		for ; stride > 0; stride >>= 1 {
			t.Barrier()
			pos := 2*tid - (tid & (stride - 1))
			if offset >= stride {
				oemComparator(&sKey[pos-stride], &sVal[pos-stride], &sKey[pos], &sVal[pos], dir)
			}
		}
	}
	t.Barrier()
	dstKey[at] = sKey[tid]
	dstVal[at] = sVal[tid]
	dstKey[at+sortSharedLimit/2] = sKey[tid+sortSharedLimit/2]
	dstVal[at+sortSharedLimit/2] = sVal[tid+sortSharedLimit/2]
}

// OddEvenMergeSortNoInnerBarrier: the shared sort without the barrier of
// the later steps: at size 4, thread 1's stride-1 comparison of cells 1
// and 2 meets thread 0's stride-2 comparison of cells 0 and 2.
// verdict: race
//
//gpu:kernel block=512
func OddEvenMergeSortNoInnerBarrier(t gpu.Thread, dstKey, dstVal, srcKey, srcVal []uint32, arrayLength, dir int) {
	sKey := gpu.Shared[[sortSharedLimit]uint32](t)
	sVal := gpu.Shared[[sortSharedLimit]uint32](t)
	tid := t.ThreadIdx().X
	at := t.BlockIdx().X*sortSharedLimit + tid
	sKey[tid] = srcKey[at]
	sVal[tid] = srcVal[at]
	sKey[tid+sortSharedLimit/2] = srcKey[at+sortSharedLimit/2]
	sVal[tid+sortSharedLimit/2] = srcVal[at+sortSharedLimit/2]
	for size := 2; size <= arrayLength; size <<= 1 {
		stride := size / 2
		offset := tid & (stride - 1)
		{
			t.Barrier()
			pos := 2*tid - (tid & (stride - 1))
			oemComparator(&sKey[pos], &sVal[pos], &sKey[pos+stride], &sVal[pos+stride], dir)
			stride >>= 1
		}
		for ; stride > 0; stride >>= 1 {
			pos := 2*tid - (tid & (stride - 1))
			if offset >= stride {
				oemComparator(&sKey[pos-stride], &sVal[pos-stride], &sKey[pos], &sVal[pos], dir)
			}
		}
	}
	t.Barrier()
	dstKey[at] = sKey[tid]
	dstVal[at] = sVal[tid]
	dstKey[at+sortSharedLimit/2] = sKey[tid+sortSharedLimit/2]
	dstVal[at+sortSharedLimit/2] = sVal[tid+sortSharedLimit/2]
}

// OddEvenMergeGlobalPow2: cuda-samples oddEvenMergeGlobal, in place as the
// host calls it (source and destination one array). The merge size is
// named n here so that the race-check launch passes 1024; the guard states
// what the host guarantees (size and stride powers of two, stride ≤
// size/2). Every pair (pos−stride, pos) or (pos, pos+stride) belongs to one
// thread.
// verdict: clean
//
//gpu:kernel
func OddEvenMergeGlobalPow2(t gpu.Thread, key, val []uint32, n, stride, dir int) {
	size := n
	if size <= 0 || size&(size-1) != 0 || stride <= 0 || stride&(stride-1) != 0 || 2*stride > size {
		panic("oddEvenMergeGlobal: size and stride must be powers of two, stride at most size/2")
	}
	g := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	pos := 2*g - (g & (stride - 1))
	if stride < size/2 {
		offset := g & (size/2 - 1)
		if offset >= stride {
			keyA := key[pos-stride]
			valA := val[pos-stride]
			keyB := key[pos]
			valB := val[pos]
			oemComparator(&keyA, &valA, &keyB, &valB, dir)
			key[pos-stride] = keyA
			val[pos-stride] = valA
			key[pos] = keyB
			val[pos] = valB
		}
	} else {
		keyA := key[pos]
		valA := val[pos]
		keyB := key[pos+stride]
		valB := val[pos+stride]
		oemComparator(&keyA, &valA, &keyB, &valB, dir)
		key[pos] = keyA
		val[pos] = valA
		key[pos+stride] = keyB
		val[pos+stride] = valB
	}
}

// msBinarySearchInclusive is mergeSort's binarySearchInclusive: the number
// of the l sorted keys of data that come at or before val.
func msBinarySearchInclusive(val uint32, data []uint32, l, stride, dir int) int {
	if l == 0 {
		return 0
	}
	pos := 0
	for ; stride > 0; stride >>= 1 {
		newPos := min(pos+stride, l)
		if (dir != 0 && data[newPos-1] <= val) || (dir == 0 && data[newPos-1] >= val) {
			pos = newPos
		}
	}
	return pos
}

// msBinarySearchExclusive is mergeSort's binarySearchExclusive: the number
// of the l sorted keys of data that come strictly before val.
func msBinarySearchExclusive(val uint32, data []uint32, l, stride, dir int) int {
	if l == 0 {
		return 0
	}
	pos := 0
	for ; stride > 0; stride >>= 1 {
		newPos := min(pos+stride, l)
		if (dir != 0 && data[newPos-1] < val) || (dir == 0 && data[newPos-1] > val) {
			pos = newPos
		}
	}
	return pos
}

// MergeSortShared: cuda-samples mergeSortSharedKernel: for stride 1, 2,
// 4, ... each thread takes key lPos of the left and of the right sorted
// run of its segment, ranks each in the other run by binary search, and
// after a barrier stores both at their merged positions. The ranks of a
// merge of two sorted runs (exclusive on the left, inclusive on the right)
// are a permutation of the segment, so no two threads store one cell; that
// the runs are sorted holds by induction from stride 1, for any input.
// verdict: clean
// known false positive: the merged positions are distinct because the runs are
// sorted, a fact about the data the model does not have.
//
//gpu:kernel block=512
func MergeSortShared(t gpu.Thread, dstKey, dstVal, srcKey, srcVal []uint32, arrayLength, dir int) {
	sKey := gpu.Shared[[sortSharedLimit]uint32](t)
	sVal := gpu.Shared[[sortSharedLimit]uint32](t)
	tid := t.ThreadIdx().X
	at := t.BlockIdx().X*sortSharedLimit + tid
	sKey[tid] = srcKey[at]
	sVal[tid] = srcVal[at]
	sKey[tid+sortSharedLimit/2] = srcKey[at+sortSharedLimit/2]
	sVal[tid+sortSharedLimit/2] = srcVal[at+sortSharedLimit/2]
	for stride := 1; stride < arrayLength; stride <<= 1 {
		lPos := tid & (stride - 1)
		baseKey := sKey[2*(tid-lPos):]
		baseVal := sVal[2*(tid-lPos):]
		t.Barrier()
		keyA := baseKey[lPos]
		valA := baseVal[lPos]
		keyB := baseKey[lPos+stride]
		valB := baseVal[lPos+stride]
		posA := msBinarySearchExclusive(keyA, baseKey[stride:], stride, stride, dir) + lPos
		posB := msBinarySearchInclusive(keyB, baseKey, stride, stride, dir) + lPos
		t.Barrier()
		baseKey[posA] = keyA
		baseVal[posA] = valA
		baseKey[posB] = keyB
		baseVal[posB] = valB
	}
	t.Barrier()
	dstKey[at] = sKey[tid]
	dstVal[at] = sVal[tid]
	dstKey[at+sortSharedLimit/2] = sKey[tid+sortSharedLimit/2]
	dstVal[at+sortSharedLimit/2] = sVal[tid+sortSharedLimit/2]
}

// MergeSortSharedNoSecondBarrier: the merge without the barrier between
// the binary searches and the stores: a thread stores its key at its
// merged position while another thread's search still reads that cell.
// verdict: race
//
//gpu:kernel block=512
func MergeSortSharedNoSecondBarrier(t gpu.Thread, dstKey, dstVal, srcKey, srcVal []uint32, arrayLength, dir int) {
	sKey := gpu.Shared[[sortSharedLimit]uint32](t)
	sVal := gpu.Shared[[sortSharedLimit]uint32](t)
	tid := t.ThreadIdx().X
	at := t.BlockIdx().X*sortSharedLimit + tid
	sKey[tid] = srcKey[at]
	sVal[tid] = srcVal[at]
	sKey[tid+sortSharedLimit/2] = srcKey[at+sortSharedLimit/2]
	sVal[tid+sortSharedLimit/2] = srcVal[at+sortSharedLimit/2]
	for stride := 1; stride < arrayLength; stride <<= 1 {
		lPos := tid & (stride - 1)
		baseKey := sKey[2*(tid-lPos):]
		baseVal := sVal[2*(tid-lPos):]
		t.Barrier()
		keyA := baseKey[lPos]
		valA := baseVal[lPos]
		keyB := baseKey[lPos+stride]
		valB := baseVal[lPos+stride]
		posA := msBinarySearchExclusive(keyA, baseKey[stride:], stride, stride, dir) + lPos
		posB := msBinarySearchInclusive(keyB, baseKey, stride, stride, dir) + lPos
		baseKey[posA] = keyA
		baseVal[posA] = valA
		baseKey[posB] = keyB
		baseVal[posB] = valB
	}
	t.Barrier()
	dstKey[at] = sKey[tid]
	dstVal[at] = sVal[tid]
	dstKey[at+sortSharedLimit/2] = sKey[tid+sortSharedLimit/2]
	dstVal[at+sortSharedLimit/2] = sVal[tid+sortSharedLimit/2]
}

// mcThreads is MonteCarlo's THREAD_N, which is also its SUM_N.
const mcThreads = 256

// mcEndCallValue is MonteCarlo's endCallValue.
func mcEndCallValue(s, x, r, muByT, vBySqrtT float32) float32 {
	callValue := s*math32.Exp(muByT+vBySqrtT*r) - x
	if callValue > 0 {
		return callValue
	}
	return 0
}

// mcSumReduce is MonteCarlo_reduction.cuh's sumReduce: a warp-level tree
// (cg::sync(tile32) written as the block barrier, the dialect having no
// warp barrier), a block barrier, thread 0 adding the warps' sums into the
// option's result, and a last barrier before the block's next option.
func mcSumReduce(t gpu.Thread, sum, sum2 *[mcThreads]float32, callValue []float32, optionIndex int) {
	const vec = 32
	tid := t.ThreadIdx().X
	beta := sum[tid]
	beta2 := sum2[tid]
	for i := vec / 2; i > 0; i >>= 1 {
		if tid%vec < i {
			temp := sum[tid+i]
			temp2 := sum2[tid+i]
			beta += temp
			beta2 += temp2
			sum[tid] = beta
			sum2[tid] = beta2
		}
		t.Barrier()
	}
	t.Barrier()
	if tid == 0 {
		beta = 0
		beta2 = 0
		for i := 0; i < t.BlockDim().X; i += vec {
			beta += sum[i]
			beta2 += sum2[i]
		}
		callValue[2*optionIndex] = beta
		callValue[2*optionIndex+1] = beta2
	}
	t.Barrier()
}

// mcSumReduceNoTail is sumReduce without its last barrier.
func mcSumReduceNoTail(t gpu.Thread, sum, sum2 *[mcThreads]float32, callValue []float32, optionIndex int) {
	const vec = 32
	tid := t.ThreadIdx().X
	beta := sum[tid]
	beta2 := sum2[tid]
	for i := vec / 2; i > 0; i >>= 1 {
		if tid%vec < i {
			temp := sum[tid+i]
			temp2 := sum2[tid+i]
			beta += temp
			beta2 += temp2
			sum[tid] = beta
			sum2[tid] = beta2
		}
		t.Barrier()
	}
	t.Barrier()
	if tid == 0 {
		beta = 0
		beta2 = 0
		for i := 0; i < t.BlockDim().X; i += vec {
			beta += sum[i]
			beta2 += sum2[i]
		}
		callValue[2*optionIndex] = beta
		callValue[2*optionIndex+1] = beta2
	}
}

// MonteCarloOneBlockPerOption: cuda-samples MonteCarloMultiGPU's kernel:
// block b prices options b, b+gridDim, ...; each thread sums the paths
// iSum, iSum+SUM_N, ... into its own shared cell, then sumReduce. An
// option's record (S, X, MuByT, VBySqrtT) is four float32s, its result
// (Expected, Confidence) two; the paths' normal samples come from an array
// (curand_normal stands in for it); the option count is named n.
// verdict: clean
//
//gpu:kernel block=256
func MonteCarloOneBlockPerOption(t gpu.Thread, samples, optionData, callValue []float32, pathN, n int) {
	sSumCall := gpu.Shared[[mcThreads]float32](t)
	sSum2Call := gpu.Shared[[mcThreads]float32](t)
	for optionIndex := t.BlockIdx().X; optionIndex < n; optionIndex += t.GridDim().X {
		s := optionData[4*optionIndex]
		x := optionData[4*optionIndex+1]
		muByT := optionData[4*optionIndex+2]
		vBySqrtT := optionData[4*optionIndex+3]
		for iSum := t.ThreadIdx().X; iSum < mcThreads; iSum += t.BlockDim().X {
			var expected, confidence float32
			for i := iSum; i < pathN; i += mcThreads {
				r := samples[i]
				callValue := mcEndCallValue(s, x, r, muByT, vBySqrtT)
				expected += callValue
				confidence += callValue * callValue
			}
			sSumCall[iSum] = expected
			sSum2Call[iSum] = confidence
		}
		t.Barrier()
		mcSumReduce(t, sSumCall, sSum2Call, callValue, optionIndex)
	}
}

// MonteCarloNoTrailingBarrier: the same kernel with sumReduce's last
// barrier left out: when a block prices a second option, its threads store
// their new sums while thread 0 still reads sum[32], sum[64], ... of the
// first.
// verdict: race
//
//gpu:kernel block=256
func MonteCarloNoTrailingBarrier(t gpu.Thread, samples, optionData, callValue []float32, pathN, n int) {
	sSumCall := gpu.Shared[[mcThreads]float32](t)
	sSum2Call := gpu.Shared[[mcThreads]float32](t)
	for optionIndex := t.BlockIdx().X; optionIndex < n; optionIndex += t.GridDim().X {
		s := optionData[4*optionIndex]
		x := optionData[4*optionIndex+1]
		muByT := optionData[4*optionIndex+2]
		vBySqrtT := optionData[4*optionIndex+3]
		for iSum := t.ThreadIdx().X; iSum < mcThreads; iSum += t.BlockDim().X {
			var expected, confidence float32
			for i := iSum; i < pathN; i += mcThreads {
				r := samples[i]
				callValue := mcEndCallValue(s, x, r, muByT, vBySqrtT)
				expected += callValue
				confidence += callValue * callValue
			}
			sSumCall[iSum] = expected
			sSum2Call[iSum] = confidence
		}
		t.Barrier()
		mcSumReduceNoTail(t, sSumCall, sSum2Call, callValue, optionIndex)
	}
}

// binomialOptions' sizes: NUM_STEPS is 256 here (2048 in the sample, so
// that the race check runs quickly), THREADBLOCK_SIZE 128.
const (
	binSteps   = 256
	binThreads = 128
	binElems   = binSteps / binThreads
)

// binExpiryCallValue is binomialOptions' expiryCallValue.
func binExpiryCallValue(s, x, vDt float32, i int) float32 {
	d := s*math32.Exp(vDt*(2*float32(i)-binSteps)) - x
	if d > 0 {
		return d
	}
	return 0
}

// BinomialOptionsTwoBarriers: cuda-samples binomialOptionsKernel: each
// thread holds ELEMS_PER_THREAD+1 tree values in a local array; every step
// publishes call[0] in call_exchange[tid], reads the right neighbour's
// after a barrier, and a second barrier keeps the next step's store from
// overtaking that read. The option record (__constant__ in the sample) is
// five float32s of a slice.
// verdict: clean
//
//gpu:kernel block=128
func BinomialOptionsTwoBarriers(t gpu.Thread, optionData, callValue []float32) {
	callExchange := gpu.Shared[[binThreads + 1]float32](t)
	tid := t.ThreadIdx().X
	bx := t.BlockIdx().X
	s := optionData[5*bx]
	x := optionData[5*bx+1]
	vDt := optionData[5*bx+2]
	puByDf := optionData[5*bx+3]
	pdByDf := optionData[5*bx+4]
	var call [binElems + 1]float32
	for i := 0; i < binElems; i++ {
		call[i] = binExpiryCallValue(s, x, vDt, tid*binElems+i)
	}
	if tid == 0 {
		callExchange[binThreads] = binExpiryCallValue(s, x, vDt, binSteps)
	}
	finalIt := max(0, tid*binElems-1)
	for i := binSteps; i > 0; i-- {
		callExchange[tid] = call[0]
		t.Barrier()
		call[binElems] = callExchange[tid+1]
		t.Barrier()
		if i > finalIt {
			for j := 0; j < binElems; j++ {
				call[j] = puByDf*call[j+1] + pdByDf*call[j]
			}
		}
	}
	if tid == 0 {
		callValue[bx] = call[0]
	}
}

// BinomialOptionsOneBarrier: the kernel without the second barrier:
// thread tid+1's next store to call_exchange[tid+1] races with thread
// tid's read of it.
// verdict: race
//
//gpu:kernel block=128
func BinomialOptionsOneBarrier(t gpu.Thread, optionData, callValue []float32) {
	callExchange := gpu.Shared[[binThreads + 1]float32](t)
	tid := t.ThreadIdx().X
	bx := t.BlockIdx().X
	s := optionData[5*bx]
	x := optionData[5*bx+1]
	vDt := optionData[5*bx+2]
	puByDf := optionData[5*bx+3]
	pdByDf := optionData[5*bx+4]
	var call [binElems + 1]float32
	for i := 0; i < binElems; i++ {
		call[i] = binExpiryCallValue(s, x, vDt, tid*binElems+i)
	}
	if tid == 0 {
		callExchange[binThreads] = binExpiryCallValue(s, x, vDt, binSteps)
	}
	finalIt := max(0, tid*binElems-1)
	for i := binSteps; i > 0; i-- {
		callExchange[tid] = call[0]
		t.Barrier()
		call[binElems] = callExchange[tid+1]
		if i > finalIt {
			for j := 0; j < binElems; j++ {
				call[j] = puByDf*call[j+1] + pdByDf*call[j]
			}
		}
	}
	if tid == 0 {
		callValue[bx] = call[0]
	}
}

// convolutionSeparable's column pass: 16×8 blocks, one halo step of 8
// rows above and below, COLUMNS_RESULT_STEPS = 2 (8 in the sample, so that
// a 2×2 grid covers a 32×32 image), KERNEL_RADIUS 8.
const (
	colBlockX = 16
	colBlockY = 8
	colSteps  = 2
	colHalo   = 1
	colRadius = 8
)

// ConvolutionColumns: cuda-samples convolutionColumnsKernel: each thread
// loads its column's cells of the block's rows and halos into a padded
// shared tile, a barrier, then convolves down the column. The pitch is the
// image width, as its host passes; the guard states the host's asserts
// (the grid tiles the image exactly), without which blocks of a wider grid
// wrap onto the next row.
// verdict: clean
//
//gpu:kernel block=16,8
func ConvolutionColumns(t gpu.Thread, dst, src, kern []float32, w, h int) {
	if w%colBlockX != 0 || h%(colSteps*colBlockY) != 0 || t.GridDim().X*colBlockX != w || t.GridDim().Y*colSteps*colBlockY != h {
		panic("convolutionColumnsKernel: the grid must tile the image")
	}
	sData := gpu.Shared[[colBlockX][(colSteps+2*colHalo)*colBlockY + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	baseX := t.BlockIdx().X*colBlockX + tx
	baseY := (t.BlockIdx().Y*colSteps-colHalo)*colBlockY + ty
	at := baseY*w + baseX
	for i := colHalo; i < colHalo+colSteps; i++ {
		sData[tx][ty+i*colBlockY] = src[at+i*colBlockY*w]
	}
	for i := 0; i < colHalo; i++ {
		if baseY >= -i*colBlockY {
			sData[tx][ty+i*colBlockY] = src[at+i*colBlockY*w]
		} else {
			sData[tx][ty+i*colBlockY] = 0
		}
	}
	for i := colHalo + colSteps; i < colHalo+colSteps+colHalo; i++ {
		if h-baseY > i*colBlockY {
			sData[tx][ty+i*colBlockY] = src[at+i*colBlockY*w]
		} else {
			sData[tx][ty+i*colBlockY] = 0
		}
	}
	t.Barrier()
	for i := colHalo; i < colHalo+colSteps; i++ {
		var sum float32
		for j := -colRadius; j <= colRadius; j++ {
			sum += kern[colRadius-j] * sData[tx][ty+i*colBlockY+j]
		}
		dst[at+i*colBlockY*w] = sum
	}
}

// ConvolutionColumnsNoBarrier: the column pass without the barrier
// between the loads and the convolution: thread (x, y) reads the cells
// rows y±8 of its column that threads (x, y') load.
// verdict: race
//
//gpu:kernel block=16,8
func ConvolutionColumnsNoBarrier(t gpu.Thread, dst, src, kern []float32, w, h int) {
	if w%colBlockX != 0 || h%(colSteps*colBlockY) != 0 || t.GridDim().X*colBlockX != w || t.GridDim().Y*colSteps*colBlockY != h {
		panic("convolutionColumnsKernel: the grid must tile the image")
	}
	sData := gpu.Shared[[colBlockX][(colSteps+2*colHalo)*colBlockY + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	baseX := t.BlockIdx().X*colBlockX + tx
	baseY := (t.BlockIdx().Y*colSteps-colHalo)*colBlockY + ty
	at := baseY*w + baseX
	for i := colHalo; i < colHalo+colSteps; i++ {
		sData[tx][ty+i*colBlockY] = src[at+i*colBlockY*w]
	}
	for i := 0; i < colHalo; i++ {
		if baseY >= -i*colBlockY {
			sData[tx][ty+i*colBlockY] = src[at+i*colBlockY*w]
		} else {
			sData[tx][ty+i*colBlockY] = 0
		}
	}
	for i := colHalo + colSteps; i < colHalo+colSteps+colHalo; i++ {
		if h-baseY > i*colBlockY {
			sData[tx][ty+i*colBlockY] = src[at+i*colBlockY*w]
		} else {
			sData[tx][ty+i*colBlockY] = 0
		}
	}
	for i := colHalo; i < colHalo+colSteps; i++ {
		var sum float32
		for j := -colRadius; j <= colRadius; j++ {
			sum += kern[colRadius-j] * sData[tx][ty+i*colBlockY+j]
		}
		dst[at+i*colBlockY*w] = sum
	}
}

// ReduceInterleavedIndex: cuda-samples reduction's reduce1: at step s the
// threads with index = 2·s·tid < blockDim add sdata[index+s] into
// sdata[index]; a barrier after each step. Cells index and index+s of two
// threads never meet (index is a multiple of 2s).
// verdict: clean
//
//gpu:kernel block=256
func ReduceInterleavedIndex(t gpu.Thread, idata, odata []float32, n int) {
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
		index := 2 * s * tid
		if index < t.BlockDim().X {
			sdata[index] += sdata[index+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		odata[t.BlockIdx().X] = sdata[0]
	}
}

// ReduceIndexWithoutDouble: reduce1 with index = s·tid: thread tid adds
// sdata[(tid+1)·s], the cell thread tid+1 updates in the same step.
// verdict: race
//
//gpu:kernel block=256
func ReduceIndexWithoutDouble(t gpu.Thread, idata, odata []float32, n int) {
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
		index := s * tid
		if index+s < t.BlockDim().X {
			sdata[index] += sdata[index+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		odata[t.BlockIdx().X] = sdata[0]
	}
}

// quasirandomGenerator's sizes: 3 dimensions, 31 bits of resolution.
const (
	qrngDims       = 3
	qrngResolution = 31
	qrngIntScale   = 1.0 / float32(0x80000001)
)

// QuasirandomGenerator: cuda-samples quasirandomGeneratorKernel: block
// (128, 3); row threadIdx.y of the output holds dimension y's points, each
// thread a grid-stride set of positions. The direction table
// (__constant__ in the sample) is a slice argument. The sample's host
// launches a 1-D grid, but the kernel reads a Y index, so by DIALECT.md it
// is two-dimensional and may be launched with gridDim.y > 1: blocks (0,0)
// and (0,1) then store the same points. (First written as clean; see
// HELDOUT.md, round 9.)
// verdict: race
//
//gpu:kernel block=128,3
func QuasirandomGenerator(t gpu.Thread, output []float32, table []uint32, seed, n int) {
	dimBase := table[t.ThreadIdx().Y*qrngResolution:]
	tid := t.BlockDim().X*t.BlockIdx().X + t.ThreadIdx().X
	threadN := t.BlockDim().X * t.GridDim().X
	for pos := tid; pos < n; pos += threadN {
		var result uint32
		data := uint32(seed + pos)
		for bit := 0; bit < qrngResolution; bit++ {
			if data&1 != 0 {
				result ^= dimBase[bit]
			}
			data >>= 1
		}
		output[t.ThreadIdx().Y*n+pos] = float32(result+1) * qrngIntScale
	}
}

// QuasirandomGeneratorFlatGrid: the generator with the host's 1-D grid
// stated by a guard (added after the score): every block row but one
// traps, so no two blocks store one point.
// verdict: clean
//
//gpu:kernel block=128,3
func QuasirandomGeneratorFlatGrid(t gpu.Thread, output []float32, table []uint32, seed, n int) {
	if t.GridDim().Y != 1 {
		panic("quasirandomGeneratorKernel: the grid is one row of blocks")
	}
	dimBase := table[t.ThreadIdx().Y*qrngResolution:]
	tid := t.BlockDim().X*t.BlockIdx().X + t.ThreadIdx().X
	threadN := t.BlockDim().X * t.GridDim().X
	for pos := tid; pos < n; pos += threadN {
		var result uint32
		data := uint32(seed + pos)
		for bit := 0; bit < qrngResolution; bit++ {
			if data&1 != 0 {
				result ^= dimBase[bit]
			}
			data >>= 1
		}
		output[t.ThreadIdx().Y*n+pos] = float32(result+1) * qrngIntScale
	}
}

// QuasirandomNoDimensionRow: the generator without the row of its
// dimension: the three threads (x, 0..2) store their points at one cell.
// verdict: race
//
//gpu:kernel block=128,3
func QuasirandomNoDimensionRow(t gpu.Thread, output []float32, table []uint32, seed, n int) {
	dimBase := table[t.ThreadIdx().Y*qrngResolution:]
	tid := t.BlockDim().X*t.BlockIdx().X + t.ThreadIdx().X
	threadN := t.BlockDim().X * t.GridDim().X
	for pos := tid; pos < n; pos += threadN {
		var result uint32
		data := uint32(seed + pos)
		for bit := 0; bit < qrngResolution; bit++ {
			if data&1 != 0 {
				result ^= dimBase[bit]
			}
			data >>= 1
		}
		output[pos] = float32(result+1) * qrngIntScale
	}
}

// AtaxKernel1: PolyBench-ACC atax_kernel1: tmp = A·x, one row per thread.
// verdict: clean
//
//gpu:kernel
func AtaxKernel1(t gpu.Thread, a, x, tmp []float32, nx, ny int) {
	i := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if i < nx {
		tmp[i] = 0
		for j := 0; j < ny; j++ {
			tmp[i] += a[i*ny+j] * x[j]
		}
	}
}

// AtaxOneLaunch: atax's two kernels fused into one launch: thread j's
// y[j] = Aᵀ·tmp reads every tmp[i] while thread i is still computing it
// (only the kernel boundary ordered them).
// verdict: race
//
//gpu:kernel
func AtaxOneLaunch(t gpu.Thread, a, x, y, tmp []float32, nx, ny int) {
	i := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if i < nx {
		tmp[i] = 0
		for j := 0; j < ny; j++ {
			tmp[i] += a[i*ny+j] * x[j]
		}
	}
	j := i
	if j < ny {
		y[j] = 0
		for i := 0; i < nx; i++ {
			y[j] += a[i*ny+j] * tmp[i]
		}
	}
}

// AdiKernel1: PolyBench-ACC adi_kernel1: thread i1 sweeps its own row,
// each cell reading the one before it.
// verdict: clean
//
//gpu:kernel
func AdiKernel1(t gpu.Thread, a, b, x []float32, n int) {
	i1 := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if i1 < n {
		for i2 := 1; i2 < n; i2++ {
			x[i1*n+i2] = x[i1*n+i2] - x[i1*n+(i2-1)]*a[i1*n+i2]/b[i1*n+(i2-1)]
			b[i1*n+i2] = b[i1*n+i2] - a[i1*n+i2]*a[i1*n+i2]/b[i1*n+(i2-1)]
		}
	}
}

// AdiColumnSweepFused: adi_kernel4's column step with its host loop over
// i1 moved into the kernel: thread i2 sweeps its own column down the rows.
// verdict: clean
//
//gpu:kernel
func AdiColumnSweepFused(t gpu.Thread, a, b, x []float32, n int) {
	i2 := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if i2 < n {
		for i1 := 1; i1 < n; i1++ {
			x[i1*n+i2] = x[i1*n+i2] - x[(i1-1)*n+i2]*a[i1*n+i2]/b[(i1-1)*n+i2]
			b[i1*n+i2] = b[i1*n+i2] - a[i1*n+i2]*a[i1*n+i2]/b[(i1-1)*n+i2]
		}
	}
}

// AdiColumnSweepByRow: adi_kernel4's column step parallelised over the
// wrong index: thread i1 ≥ 1 updates row i1 from row i1−1, which thread
// i1−1 is updating at the same time.
// verdict: race
//
//gpu:kernel
func AdiColumnSweepByRow(t gpu.Thread, a, b, x []float32, n int) {
	i1 := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if i1 >= 1 && i1 < n {
		for i2 := 0; i2 < n; i2++ {
			x[i1*n+i2] = x[i1*n+i2] - x[(i1-1)*n+i2]*a[i1*n+i2]/b[(i1-1)*n+i2]
			b[i1*n+i2] = b[i1*n+i2] - a[i1*n+i2]*a[i1*n+i2]/b[(i1-1)*n+i2]
		}
	}
}

// CorrKernel: PolyBench-ACC correlation's corr_kernel: thread j1 < m−1
// fills row j1 right of the diagonal and mirrors each value into column
// j1 below it (symmat[j2·m+j1], j2 > j1), accumulating in place.
// verdict: clean
//
//gpu:kernel
func CorrKernel(t gpu.Thread, symmat, data []float32, m, n int) {
	j1 := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if j1 < m-1 {
		symmat[j1*m+j1] = 1
		for j2 := j1 + 1; j2 < m; j2++ {
			symmat[j1*m+j2] = 0
			for i := 0; i < n; i++ {
				symmat[j1*m+j2] += data[i*m+j1] * data[i*m+j2]
			}
			symmat[j2*m+j1] = symmat[j1*m+j2]
		}
	}
}

// CorrFullRow: corr_kernel with the whole row computed (j2 from 0): thread
// j1's mirror store symmat[j2·m+j1] lands in row j2, which thread j2 fills.
// verdict: race
//
//gpu:kernel
func CorrFullRow(t gpu.Thread, symmat, data []float32, m, n int) {
	j1 := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if j1 < m {
		for j2 := 0; j2 < m; j2++ {
			symmat[j1*m+j2] = 0
			for i := 0; i < n; i++ {
				symmat[j1*m+j2] += data[i*m+j1] * data[i*m+j2]
			}
			symmat[j2*m+j1] = symmat[j1*m+j2]
		}
	}
}

// Conv3D: PolyBench-ACC convolution3D_kernel: plane i is the launch's
// parameter, thread (k, j) writes interior cell (i, j, k) of b from a's 3-D
// neighbourhood. The extents ni and nk are named n and w so that the race
// check launches it in bounds.
// verdict: clean
//
//gpu:kernel
func Conv3D(t gpu.Thread, a, b []float32, n, nj, w, i int) {
	ni, nk := n, w
	k := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	j := t.BlockIdx().Y*t.BlockDim().Y + t.ThreadIdx().Y
	const c11, c12, c13, c21, c22, c23, c31, c32, c33 = 2, -3, 4, 5, 6, 7, -8, -9, 10
	if i < ni-1 && j < nj-1 && k < nk-1 && i > 0 && j > 0 && k > 0 {
		b[i*(nk*nj)+j*nk+k] = c11*a[(i-1)*(nk*nj)+(j-1)*nk+(k-1)] + c13*a[(i+1)*(nk*nj)+(j-1)*nk+(k-1)] +
			c21*a[(i-1)*(nk*nj)+(j-1)*nk+(k-1)] + c23*a[(i+1)*(nk*nj)+(j-1)*nk+(k-1)] +
			c31*a[(i-1)*(nk*nj)+(j-1)*nk+(k-1)] + c33*a[(i+1)*(nk*nj)+(j-1)*nk+(k-1)] +
			c12*a[(i+0)*(nk*nj)+(j-1)*nk+(k+0)] + c22*a[(i+0)*(nk*nj)+(j+0)*nk+(k+0)] +
			c32*a[(i+0)*(nk*nj)+(j+1)*nk+(k+0)] + c11*a[(i-1)*(nk*nj)+(j-1)*nk+(k+1)] +
			c13*a[(i+1)*(nk*nj)+(j-1)*nk+(k+1)] + c21*a[(i-1)*(nk*nj)+(j+0)*nk+(k+1)] +
			c23*a[(i+1)*(nk*nj)+(j+0)*nk+(k+1)] + c31*a[(i-1)*(nk*nj)+(j+1)*nk+(k+1)] +
			c33*a[(i+1)*(nk*nj)+(j+1)*nk+(k+1)]
	}
}

// Conv3DInPlace: the 3-D convolution with input and output one array:
// thread (k, j) reads cell (i, j+1, k) of plane i, which thread (k, j+1)
// writes.
// verdict: race
//
//gpu:kernel
func Conv3DInPlace(t gpu.Thread, a []float32, n, nj, w, i int) {
	ni, nk := n, w
	k := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	j := t.BlockIdx().Y*t.BlockDim().Y + t.ThreadIdx().Y
	const c11, c12, c13, c21, c22, c23, c31, c32, c33 = 2, -3, 4, 5, 6, 7, -8, -9, 10
	if i < ni-1 && j < nj-1 && k < nk-1 && i > 0 && j > 0 && k > 0 {
		a[i*(nk*nj)+j*nk+k] = c11*a[(i-1)*(nk*nj)+(j-1)*nk+(k-1)] + c13*a[(i+1)*(nk*nj)+(j-1)*nk+(k-1)] +
			c21*a[(i-1)*(nk*nj)+(j-1)*nk+(k-1)] + c23*a[(i+1)*(nk*nj)+(j-1)*nk+(k-1)] +
			c31*a[(i-1)*(nk*nj)+(j-1)*nk+(k-1)] + c33*a[(i+1)*(nk*nj)+(j-1)*nk+(k-1)] +
			c12*a[(i+0)*(nk*nj)+(j-1)*nk+(k+0)] + c22*a[(i+0)*(nk*nj)+(j+0)*nk+(k+0)] +
			c32*a[(i+0)*(nk*nj)+(j+1)*nk+(k+0)] + c11*a[(i-1)*(nk*nj)+(j-1)*nk+(k+1)] +
			c13*a[(i+1)*(nk*nj)+(j-1)*nk+(k+1)] + c21*a[(i-1)*(nk*nj)+(j+0)*nk+(k+1)] +
			c23*a[(i+1)*(nk*nj)+(j+0)*nk+(k+1)] + c31*a[(i-1)*(nk*nj)+(j+1)*nk+(k+1)] +
			c33*a[(i+1)*(nk*nj)+(j+1)*nk+(k+1)]
	}
}

// Syr2k: PolyBench-ACC syr2k_kernel: thread (j, i) scales and accumulates
// its own cell c[i·ni+j].
// verdict: clean
//
//gpu:kernel
func Syr2k(t gpu.Thread, a, b, c []float32, alpha, beta float32, ni, nj int) {
	j := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	i := t.BlockIdx().Y*t.BlockDim().Y + t.ThreadIdx().Y
	if i < ni && j < ni {
		c[i*ni+j] *= beta
		for k := 0; k < nj; k++ {
			c[i*ni+j] += alpha*a[i*nj+k]*b[j*nj+k] + alpha*b[i*nj+k]*a[j*nj+k]
		}
	}
}

// Syr2kMirrored: syr2k that also stores each result into the mirrored
// cell c[j·ni+i], which thread (i, j) computes.
// verdict: race
//
//gpu:kernel
func Syr2kMirrored(t gpu.Thread, a, b, c []float32, alpha, beta float32, ni, nj int) {
	j := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	i := t.BlockIdx().Y*t.BlockDim().Y + t.ThreadIdx().Y
	if i < ni && j < ni {
		c[i*ni+j] *= beta
		for k := 0; k < nj; k++ {
			c[i*ni+j] += alpha*a[i*nj+k]*b[j*nj+k] + alpha*b[i*nj+k]*a[j*nj+k]
		}
		c[j*ni+i] = c[i*ni+j]
	}
}
