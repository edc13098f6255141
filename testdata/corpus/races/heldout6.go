package racecorpus

// Held-out probes, sixth batch (issue 20): kernels translated statement for
// statement from public code the corpora had not used (AMD APP SDK samples:
// FastWalshTransform, PrefixSum, MatrixTranspose, BitonicSort, Histogram,
// BinomialOption, DwtHaar1D; HeCBench's stencil1d; PolyBench-ACC's trmm and
// gemver; Rodinia hotspot's pyramid; LonestarGPU/Gunrock-style worklist
// pushes; in-tile and tile-diagonal dynamic-programming wavefronts), plus
// the idioms issue 20 names: boolean
// flags computed before a barrier and tested after it, flags set in loops,
// `&&` chains held in locals, atomic tickets published through shared
// memory, accesses that only an out-of-range index could make collide. Each
// has a near-twin of the other verdict. Verdicts were decided from the code
// and DIALECT.md before any analyzer ran (testdata/corpus/HELDOUT.md,
// "issue 20").

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// The rates of AMD's BinomialOption (RISKFREE, VOLATILITY).
const (
	riskFree   = 0.02
	volatility = 0.30
)

// FwtStepAmd: AMD APP SDK FastWalshTransform: one butterfly stage; thread
// tid owns the pair (2*step*(tid/step) + tid%step, that + step), and no two
// threads' pairs share an element.
// verdict: clean
//
//gpu:kernel
func FwtStepAmd(t gpu.Thread, tArray []float32, step int) {
	tid := t.GlobalIdx().X
	group := tid % step
	pair := 2*step*(tid/step) + group
	match := pair + step
	if match >= len(tArray) {
		return
	}
	t1 := tArray[pair]
	t2 := tArray[match]
	tArray[pair] = t1 + t2
	tArray[match] = t1 - t2
}

// FwtStepPairOverlap: the stage with the factor 2 of the pair dropped:
// thread tid+step's pair element is thread tid's match.
// verdict: race
//
//gpu:kernel
func FwtStepPairOverlap(t gpu.Thread, tArray []float32, step int) {
	tid := t.GlobalIdx().X
	group := tid % step
	pair := step*(tid/step) + group
	match := pair + step
	if match >= len(tArray) {
		return
	}
	t1 := tArray[pair]
	t2 := tArray[match]
	tArray[pair] = t1 + t2
	tArray[match] = t1 - t2
}

const stencilRadius = 7

// Stencil1DPadded: HeCBench stencil1d (RADIUS 7, BLOCK_SIZE 256), as
// written: no bound test (the input is padded by RADIUS; a thread past the
// ends traps on Go's bounds check); each block loads its 256 elements and
// the halo cells at both ends into shared memory, a barrier, then sums the
// window.
// verdict: clean
//
//gpu:kernel block=256
func Stencil1DPadded(t gpu.Thread, in, out []int32) {
	temp := gpu.Shared[[256 + 2*stencilRadius]int32](t)
	gindex := t.ThreadIdx().X + t.BlockIdx().X*t.BlockDim().X
	lindex := t.ThreadIdx().X + stencilRadius
	temp[lindex] = in[gindex]
	if t.ThreadIdx().X < stencilRadius {
		if gindex < stencilRadius {
			temp[lindex-stencilRadius] = 0
		} else {
			temp[lindex-stencilRadius] = in[gindex-stencilRadius]
		}
		temp[lindex+256] = in[gindex+256]
	}
	t.Barrier()
	var result int32
	for offset := -stencilRadius; offset <= stencilRadius; offset++ {
		result += temp[lindex+offset]
	}
	out[gindex] = result
}

// Stencil1DPaddedNoBarrier: the same stencil without the barrier: a thread
// reads its neighbours' cells while they load them.
// verdict: race
//
//gpu:kernel block=256
func Stencil1DPaddedNoBarrier(t gpu.Thread, in, out []int32) {
	temp := gpu.Shared[[256 + 2*stencilRadius]int32](t)
	gindex := t.ThreadIdx().X + t.BlockIdx().X*t.BlockDim().X
	lindex := t.ThreadIdx().X + stencilRadius
	temp[lindex] = in[gindex]
	if t.ThreadIdx().X < stencilRadius {
		if gindex < stencilRadius {
			temp[lindex-stencilRadius] = 0
		} else {
			temp[lindex-stencilRadius] = in[gindex-stencilRadius]
		}
		temp[lindex+256] = in[gindex+256]
	}
	var result int32
	for offset := -stencilRadius; offset <= stencilRadius; offset++ {
		result += temp[lindex+offset]
	}
	out[gindex] = result
}

// ScanBlockLastThread: AMD APP SDK PrefixSum / ScanLargeArrays block scan
// (Hillis-Steele, two barriers per step); `lastThread` is computed before
// the first barrier and tested after the loop: only the block's last thread
// writes the block's sum.
// verdict: clean
//
//gpu:kernel block=256
func ScanBlockLastThread(t gpu.Thread, in, out, sums []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	bid := t.BlockIdx().X
	gid := t.GlobalIdx().X
	lastThread := tid+1 == t.BlockDim().X
	inRange := gid < len(in) && gid < len(out)
	var v float32
	if inRange {
		v = in[gid]
	}
	temp[tid] = v
	t.Barrier()
	for off := 1; off < t.BlockDim().X; off *= 2 {
		var a float32
		if tid >= off {
			a = temp[tid-off]
		}
		t.Barrier()
		if tid >= off {
			temp[tid] += a
		}
		t.Barrier()
	}
	if inRange {
		out[gid] = temp[tid]
	}
	if lastThread && bid < len(sums) {
		sums[bid] = temp[tid]
	}
}

// ScanBlockOneBarrier: the scan with the barrier between the read of
// temp[tid-off] and the write of temp[tid] left out.
// verdict: race
//
//gpu:kernel block=256
func ScanBlockOneBarrier(t gpu.Thread, in, out, sums []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	bid := t.BlockIdx().X
	gid := t.GlobalIdx().X
	lastThread := tid+1 == t.BlockDim().X
	inRange := gid < len(in) && gid < len(out)
	var v float32
	if inRange {
		v = in[gid]
	}
	temp[tid] = v
	t.Barrier()
	for off := 1; off < t.BlockDim().X; off *= 2 {
		if tid >= off {
			temp[tid] += temp[tid-off]
		}
		t.Barrier()
	}
	if inRange {
		out[gid] = temp[tid]
	}
	if lastThread && bid < len(sums) {
		sums[bid] = temp[tid]
	}
}

// RowOffsetsSentinel: the CSR row-offset fill of frontier builders
// (Gunrock/LonestarGPU style): thread i writes offsets[i], and the thread
// with `last := i+1 == n` also writes the sentinel offsets[n]; no other
// thread writes offsets[n].
// verdict: clean
//
//gpu:kernel
func RowOffsetsSentinel(t gpu.Thread, degrees, offsets []int32, n int) {
	i := t.GlobalIdx().X
	if i >= n || n >= len(offsets) || i >= len(degrees) {
		return
	}
	last := i+1 == n
	offsets[i] = degrees[i] * 4
	if last {
		offsets[i+1] = degrees[i]*4 + 4
	}
}

// RowOffsetsSentinelTwoWriters: the flag written `i+2 >= n`: thread n-2
// writes offsets[n-1], which thread n-1 writes too.
// verdict: race
//
//gpu:kernel
func RowOffsetsSentinelTwoWriters(t gpu.Thread, degrees, offsets []int32, n int) {
	i := t.GlobalIdx().X
	if i >= n || n >= len(offsets) || i >= len(degrees) {
		return
	}
	last := i+2 >= n
	offsets[i] = degrees[i] * 4
	if last {
		offsets[i+1] = degrees[i]*4 + 4
	}
}

// Jacobi1DBoundaryByThread0: a 1-D Jacobi step over w cells whose interior test is an
// `&&` chain held in a local; thread 0 copies both boundary cells, which no
// interior thread writes.
// verdict: clean
//
//gpu:kernel
func Jacobi1DBoundaryByThread0(t gpu.Thread, a, b []float32, w int) {
	i := t.GlobalIdx().X
	if w < 2 || w > len(a) || w > len(b) {
		return
	}
	inRegion := i > 0 && i < w-1
	if inRegion {
		b[i] = 0.33333 * (a[i-1] + a[i] + a[i+1])
	}
	if i == 0 {
		b[0] = a[0]
		b[w-1] = a[w-1]
	}
}

// Jacobi1DBoundaryOrChain: the chain written with `||`: thread w-1 counts
// as interior and writes b[w-1], which thread 0 writes too.
// verdict: race
//
//gpu:kernel
func Jacobi1DBoundaryOrChain(t gpu.Thread, a, b []float32, w int) {
	i := t.GlobalIdx().X
	if w < 2 || w > len(a) || w > len(b) {
		return
	}
	inRegion := i > 0 || i < w-1
	if inRegion && i < w {
		left, right := a[i], a[i]
		if i > 0 {
			left = a[i-1]
		}
		if i+1 < w {
			right = a[i+1]
		}
		b[i] = 0.33333 * (left + a[i] + right)
	}
	if i == 0 {
		b[0] = a[0]
		b[w-1] = a[w-1]
	}
}

// FrontierPushBlockTicket: the block-aggregated worklist push of
// LonestarGPU's and Gunrock's frontier kernels: each active thread takes a
// ticket from a shared counter, a barrier, the leader reserves the block's
// range with one global AtomicAdd and publishes its base in shared memory,
// a barrier, and every thread writes out[base+ticket].
// First labelled clean, it races: with an empty outLen the leader
// publishes no base, every block's base stays 0, and the first active
// threads of two blocks both write out[0] (the cpu backend's race mode
// reports it at grid 4, block 256, dist all equal to level).
// FrontierPushBlockTicketAlways is the push without that guard.
// verdict: race
//
//gpu:kernel block=256
func FrontierPushBlockTicket(t gpu.Thread, dist []int32, out, outLen []int32, level int32) {
	count := gpu.Shared[[1]int32](t)
	base := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	v := t.GlobalIdx().X
	if tid == 0 {
		count[0] = 0
	}
	t.Barrier()
	active := v < len(dist) && dist[v] == level
	var ticket int32
	if active {
		ticket = gpu.AtomicAdd(&count[0], 1)
	}
	t.Barrier()
	if tid == 0 && len(outLen) > 0 {
		base[0] = gpu.AtomicAdd(&outLen[0], count[0])
	}
	t.Barrier()
	if active {
		pos := int(base[0] + ticket)
		if pos < len(out) {
			out[pos] = int32(v)
		}
	}
}

// FrontierPushBlockTicketAlways: FrontierPushBlockTicket with the leader
// reserving unconditionally (outLen[0] is checked: an empty outLen traps in
// every block before any thread writes out), so every block's range is its
// own and the tickets within it are distinct.
// verdict: clean
//
//gpu:kernel block=256
func FrontierPushBlockTicketAlways(t gpu.Thread, dist []int32, out, outLen []int32, level int32) {
	count := gpu.Shared[[1]int32](t)
	base := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	v := t.GlobalIdx().X
	if tid == 0 {
		count[0] = 0
	}
	t.Barrier()
	active := v < len(dist) && dist[v] == level
	var ticket int32
	if active {
		ticket = gpu.AtomicAdd(&count[0], 1)
	}
	t.Barrier()
	if tid == 0 {
		base[0] = gpu.AtomicAdd(&outLen[0], count[0])
	}
	t.Barrier()
	if active {
		pos := int(base[0] + ticket)
		if pos < len(out) {
			out[pos] = int32(v)
		}
	}
}

// FrontierPushNoCountBarrier: the push with the barrier before the leader's
// reservation left out: the leader reads the shared count while the block
// still adds to it (a plain read against atomic adds), and reserves too
// few slots, so the next block's range overlaps this block's writes.
// verdict: race
//
//gpu:kernel block=256
func FrontierPushNoCountBarrier(t gpu.Thread, dist []int32, out, outLen []int32, level int32) {
	count := gpu.Shared[[1]int32](t)
	base := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	v := t.GlobalIdx().X
	if tid == 0 {
		count[0] = 0
	}
	t.Barrier()
	active := v < len(dist) && dist[v] == level
	var ticket int32
	if active {
		ticket = gpu.AtomicAdd(&count[0], 1)
	}
	if tid == 0 && len(outLen) > 0 {
		base[0] = gpu.AtomicAdd(&outLen[0], count[0])
	}
	t.Barrier()
	if active {
		pos := int(base[0] + ticket)
		if pos < len(out) {
			out[pos] = int32(v)
		}
	}
}

// FrontierPushThreadTicket: LonestarGPU's plain worklist push: every
// active thread takes its slot from the global tail with AtomicAdd.
// verdict: clean
//
//gpu:kernel
func FrontierPushThreadTicket(t gpu.Thread, dist []int32, out, outLen []int32, level int32) {
	v := t.GlobalIdx().X
	if v >= len(dist) || len(outLen) == 0 || dist[v] != level {
		return
	}
	pos := int(gpu.AtomicAdd(&outLen[0], 1))
	if pos < len(out) {
		out[pos] = int32(v)
	}
}

const dpTile = 16

// WavefrontTileShared: the in-tile anti-diagonal sweep of dynamic
// programming kernels (Needleman-Wunsch/Smith-Waterman on GPUs): thread i
// fills cell (i+1, d-i+1) of a 17×17 shared tile on anti-diagonal d from
// cells of diagonals d-1 and d-2, with a barrier per diagonal.
// verdict: clean
//
//gpu:kernel block=16
func WavefrontTileShared(t gpu.Thread, ref, score []int32, penalty int32) {
	s := gpu.Shared[[(dpTile + 1) * (dpTile + 1)]int32](t)
	i := t.ThreadIdx().X
	base := t.BlockIdx().X * (dpTile + 1) * (dpTile + 1)
	if base+(dpTile+1)*(dpTile+1) > len(score) || base+dpTile*dpTile > len(ref) {
		return
	}
	for k := i; k < (dpTile+1)*(dpTile+1); k += dpTile {
		s[k] = score[base+k]
	}
	t.Barrier()
	for d := 0; d < 2*dpTile-1; d++ {
		j := d - i
		if j >= 0 && j < dpTile {
			up := s[i*(dpTile+1)+j+1] - penalty
			left := s[(i+1)*(dpTile+1)+j] - penalty
			diag := s[i*(dpTile+1)+j] + ref[base+i*dpTile+j]
			s[(i+1)*(dpTile+1)+j+1] = max(up, left, diag)
		}
		t.Barrier()
	}
	for k := i; k < (dpTile+1)*(dpTile+1); k += dpTile {
		score[base+k] = s[k]
	}
}

// WavefrontTileSharedNoBarrier: the sweep without the per-diagonal
// barrier: thread i reads cell (i, j+1) that thread i-1 writes on the
// previous diagonal.
// verdict: race
//
//gpu:kernel block=16
func WavefrontTileSharedNoBarrier(t gpu.Thread, ref, score []int32, penalty int32) {
	s := gpu.Shared[[(dpTile + 1) * (dpTile + 1)]int32](t)
	i := t.ThreadIdx().X
	base := t.BlockIdx().X * (dpTile + 1) * (dpTile + 1)
	if base+(dpTile+1)*(dpTile+1) > len(score) || base+dpTile*dpTile > len(ref) {
		return
	}
	for k := i; k < (dpTile+1)*(dpTile+1); k += dpTile {
		s[k] = score[base+k]
	}
	t.Barrier()
	for d := 0; d < 2*dpTile-1; d++ {
		j := d - i
		if j >= 0 && j < dpTile {
			up := s[i*(dpTile+1)+j+1] - penalty
			left := s[(i+1)*(dpTile+1)+j] - penalty
			diag := s[i*(dpTile+1)+j] + ref[base+i*dpTile+j]
			s[(i+1)*(dpTile+1)+j+1] = max(up, left, diag)
		}
	}
	t.Barrier()
	for k := i; k < (dpTile+1)*(dpTile+1); k += dpTile {
		score[base+k] = s[k]
	}
}

// WavefrontTilesGlobal: one launch per tile anti-diagonal `diag` of a
// tiled dynamic-programming sweep: block b takes tile (b, diag-b) and its
// 16 threads fill the tile's 16×16 interior cells of the (w)-wide score
// matrix row by row; tiles of one diagonal share no cell.
// verdict: clean
//
//gpu:kernel block=16
func WavefrontTilesGlobal(t gpu.Thread, score []int32, w, diag int) {
	b := t.BlockIdx().X
	c := diag - b
	tx := t.ThreadIdx().X
	if c < 0 || (c+1)*dpTile+1 > w || ((b+1)*dpTile+1)*w > len(score) {
		return
	}
	for ty := 0; ty < dpTile; ty++ {
		row := b*dpTile + ty + 1
		col := c*dpTile + tx + 1
		score[row*w+col] = score[(row-1)*w+col] + 1
	}
}

// WavefrontTilesOffByOne: the tile loops run to 16 inclusive (17 rows and
// columns): tile (b, c) writes cell ((b+1)*16+1, c*16+1), which tile
// (b+1, c-1) of the same diagonal writes too.
// verdict: race
//
//gpu:kernel block=17
func WavefrontTilesOffByOne(t gpu.Thread, score []int32, w, diag int) {
	b := t.BlockIdx().X
	c := diag - b
	tx := t.ThreadIdx().X
	if c < 0 || (c+1)*dpTile+2 > w || ((b+1)*dpTile+2)*w > len(score) {
		return
	}
	for ty := 0; ty <= dpTile; ty++ {
		row := b*dpTile + ty + 1
		col := c*dpTile + tx + 1
		score[row*w+col] = score[(row-1)*w+col] + 1
	}
}

// GemverRowSlice: PolyBench-ACC gemver kernel 1 (A += u1·v1ᵀ + u2·v2ᵀ),
// one thread per element, written through the row's subslice: a thread
// whose j is past the row's end traps on row[j] (Go's bounds check)
// instead of touching the next row.
// verdict: clean
//
//gpu:kernel
func GemverRowSlice(t gpu.Thread, a, u1, v1, u2, v2 []float32, w int) {
	j := t.GlobalIdx().X
	i := t.GlobalIdx().Y
	if i >= len(u1) || i >= len(u2) || (i+1)*w > len(a) {
		return
	}
	row := a[i*w : (i+1)*w]
	row[j] = row[j] + u1[i]*v1[j] + u2[i]*v2[j]
}

// GemverFlatUnguarded: the same kernel on the flat array with only the
// array's length as guard: thread (i, j) with j ≥ nj writes element
// (i+1, j-nj) of the next row, which its own thread writes too.
// verdict: race
//
//gpu:kernel
func GemverFlatUnguarded(t gpu.Thread, a, u1, v1, u2, v2 []float32, nj int) {
	j := t.GlobalIdx().X
	i := t.GlobalIdx().Y
	if i >= len(u1) || i >= len(u2) || j >= len(v1) || j >= len(v2) || i*nj+j >= len(a) {
		return
	}
	a[i*nj+j] = a[i*nj+j] + u1[i]*v1[j] + u2[i]*v2[j]
}

// TrmmInPlace: PolyBench-ACC trmm's GPU kernel: B(i,j) += A(k,i)·B(k,j)
// for k > i, in place, one thread per (i, j): thread (i, j) reads B(k, j)
// while thread (k, j) updates it.
// verdict: race
//
//gpu:kernel
func TrmmInPlace(t gpu.Thread, a, b []float32, w int) {
	j := t.GlobalIdx().X
	i := t.GlobalIdx().Y
	if i >= w || j >= w || w*w > len(a) || w*w > len(b) {
		return
	}
	for k := i + 1; k < w; k++ {
		b[i*w+j] += a[k*w+i] * b[k*w+j]
	}
}

// TransposeAmdLocal: AMD APP SDK MatrixTranspose (matrixTranspose, block
// size 16, the SDK's precondition that the grid covers the matrix exactly
// stated as a uniform return): each thread copies its element into local
// memory, a barrier, and writes the local cell it wrote itself to the
// transposed position.
// verdict: clean
//
//gpu:kernel block=16,16
func TransposeAmdLocal(t gpu.Thread, output, input []float32, w, h int) {
	block := gpu.Shared[[16 * 16]float32](t)
	if w != t.GridDim().X*16 || h != t.GridDim().Y*16 || w*h > len(input) || w*h > len(output) {
		return
	}
	globalIdx := t.GlobalIdx().X
	globalIdy := t.GlobalIdx().Y
	localIdx := t.ThreadIdx().X
	localIdy := t.ThreadIdx().Y
	block[localIdy*16+localIdx] = input[globalIdy*w+globalIdx]
	t.Barrier()
	groupIdx := t.BlockIdx().X
	groupIdy := t.BlockIdx().Y
	targetGlobalIdx := groupIdy*16 + localIdy
	targetGlobalIdy := groupIdx*16 + localIdx
	targetIndex := targetGlobalIdy*h + targetGlobalIdx
	sourceIndex := localIdy*16 + localIdx
	output[targetIndex] = block[sourceIndex]
}

// TransposeAmdLocalNoBarrier: the SDK kernel without its barrier. Each
// thread reads back only the local cell it wrote, so the barrier was never
// needed.
// verdict: clean
//
//gpu:kernel block=16,16
func TransposeAmdLocalNoBarrier(t gpu.Thread, output, input []float32, w, h int) {
	block := gpu.Shared[[16 * 16]float32](t)
	if w != t.GridDim().X*16 || h != t.GridDim().Y*16 || w*h > len(input) || w*h > len(output) {
		return
	}
	globalIdx := t.GlobalIdx().X
	globalIdy := t.GlobalIdx().Y
	localIdx := t.ThreadIdx().X
	localIdy := t.ThreadIdx().Y
	block[localIdy*16+localIdx] = input[globalIdy*w+globalIdx]
	groupIdx := t.BlockIdx().X
	groupIdy := t.BlockIdx().Y
	targetGlobalIdx := groupIdy*16 + localIdy
	targetGlobalIdy := groupIdx*16 + localIdx
	targetIndex := targetGlobalIdy*h + targetGlobalIdx
	sourceIndex := localIdy*16 + localIdx
	output[targetIndex] = block[sourceIndex]
}

// TransposeCoalescedNoBarrier: the kernel "fixed" to read the local tile
// transposed (block[lx*16+ly], so that the global write is coalesced) with
// the barrier still left out: thread (lx, ly) reads the cell thread
// (ly, lx) writes.
// verdict: race
//
//gpu:kernel block=16,16
func TransposeCoalescedNoBarrier(t gpu.Thread, output, input []float32, w, h int) {
	block := gpu.Shared[[16 * 16]float32](t)
	if w != t.GridDim().X*16 || h != t.GridDim().Y*16 || w*h > len(input) || w*h > len(output) {
		return
	}
	localIdx := t.ThreadIdx().X
	localIdy := t.ThreadIdx().Y
	block[localIdy*16+localIdx] = input[t.GlobalIdx().Y*w+t.GlobalIdx().X]
	targetIndex := (t.BlockIdx().X*16+localIdy)*h + t.BlockIdx().Y*16 + localIdx
	output[targetIndex] = block[localIdx*16+localIdy]
}

// BitonicSortAmd: AMD APP SDK BitonicSort, one pass of one stage: thread
// tid compares leftId = tid%pd + (tid/pd)*2pd with leftId+pd.
// verdict: clean
//
//gpu:kernel
func BitonicSortAmd(t gpu.Thread, theArray []uint32, stage, passOfStage int, direction bool) {
	tid := t.GlobalIdx().X
	pairDistance := 1 << (stage - passOfStage)
	blockWidth := 2 * pairDistance
	leftID := tid%pairDistance + (tid/pairDistance)*blockWidth
	rightID := leftID + pairDistance
	if rightID >= len(theArray) {
		return
	}
	left := theArray[leftID]
	right := theArray[rightID]
	sameDirectionBlockWidth := 1 << stage
	sortIncreasing := direction
	if (tid/sameDirectionBlockWidth)%2 == 1 {
		sortIncreasing = !sortIncreasing
	}
	greater, lesser := right, left
	if left > right {
		greater, lesser = left, right
	}
	if sortIncreasing {
		theArray[leftID] = lesser
		theArray[rightID] = greater
	} else {
		theArray[leftID] = greater
		theArray[rightID] = lesser
	}
}

// BitonicSortAmdNoBlockWidth: leftId computed with pd instead of 2pd as
// the block width: leftId = tid, so thread tid's right element is thread
// tid+pd's left one.
// verdict: race
//
//gpu:kernel
func BitonicSortAmdNoBlockWidth(t gpu.Thread, theArray []uint32, stage, passOfStage int, direction bool) {
	tid := t.GlobalIdx().X
	pairDistance := 1 << (stage - passOfStage)
	leftID := tid%pairDistance + (tid/pairDistance)*pairDistance
	rightID := leftID + pairDistance
	if rightID >= len(theArray) {
		return
	}
	left := theArray[leftID]
	right := theArray[rightID]
	greater, lesser := right, left
	if left > right {
		greater, lesser = left, right
	}
	if direction {
		theArray[leftID] = lesser
		theArray[rightID] = greater
	} else {
		theArray[leftID] = greater
		theArray[rightID] = lesser
	}
}

const histBins = 256

// HistogramAmd256: AMD APP SDK Histogram (histogram256, LINEAR_MEM_ACCESS,
// 64 work-items): each thread counts into its own row of a [64][256]uint8
// local array, a barrier, then each thread merges 4 bins over the 64 rows.
// A value of 256 or more traps on the row's bounds check instead of
// reaching the next thread's row.
// verdict: clean
//
//gpu:kernel block=64
func HistogramAmd256(t gpu.Thread, data []uint32, binResult []uint32) {
	sharedArray := gpu.Shared[[64][histBins]uint8](t)
	localID := t.ThreadIdx().X
	groupID := t.BlockIdx().X
	groupSize := t.BlockDim().X
	for i := 0; i < histBins; i++ {
		sharedArray[localID][i] = 0
	}
	t.Barrier()
	for i := 0; i < histBins; i++ {
		idx := groupID*groupSize*histBins + i*groupSize + localID
		if idx < len(data) {
			value := data[idx]
			sharedArray[localID][value]++
		}
	}
	t.Barrier()
	for i := 0; i < histBins/groupSize; i++ {
		var binCount uint32
		for j := 0; j < groupSize; j++ {
			binCount += uint32(sharedArray[j][i*groupSize+localID])
		}
		if out := groupID*histBins + i*groupSize + localID; out < len(binResult) {
			binResult[out] = binCount
		}
	}
}

// HistogramAmd256Flat: the same kernel on a flat local array, as the
// OpenCL source indexes it (localId*BIN_SIZE + value): a value of 256 or
// more lands in another thread's row, which that thread updates too.
// verdict: race
//
//gpu:kernel block=64
func HistogramAmd256Flat(t gpu.Thread, data []uint32, binResult []uint32) {
	sharedArray := gpu.Shared[[64 * histBins]uint8](t)
	localID := t.ThreadIdx().X
	groupID := t.BlockIdx().X
	groupSize := t.BlockDim().X
	for i := 0; i < histBins; i++ {
		sharedArray[localID*histBins+i] = 0
	}
	t.Barrier()
	for i := 0; i < histBins; i++ {
		idx := groupID*groupSize*histBins + i*groupSize + localID
		if idx < len(data) {
			value := int(data[idx])
			sharedArray[localID*histBins+value]++
		}
	}
	t.Barrier()
	for i := 0; i < histBins/groupSize; i++ {
		var binCount uint32
		for j := 0; j < groupSize; j++ {
			binCount += uint32(sharedArray[j*histBins+i*groupSize+localID])
		}
		if out := groupID*histBins + i*groupSize + localID; out < len(binResult) {
			binResult[out] = binCount
		}
	}
}

// HistogramAmdSharedBins: the per-thread rows replaced by one shared
// 64-bin histogram incremented with a plain `++` by every thread.
// verdict: race
//
//gpu:kernel block=64
func HistogramAmdSharedBins(t gpu.Thread, data []uint32, binResult []uint32, perThread int) {
	hist := gpu.Shared[[64]uint32](t)
	lid := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	hist[lid] = 0
	t.Barrier()
	for k := 0; k < perThread; k++ {
		idx := gid*perThread + k
		if idx < len(data) {
			hist[data[idx]%64]++
		}
	}
	t.Barrier()
	if t.BlockIdx().X*64+lid < len(binResult) {
		binResult[t.BlockIdx().X*64+lid] = hist[lid]
	}
}

// BinomialOptionAmd: AMD APP SDK BinomialOption (binomial_options, with
// float for float4): one block per option; thread tid seeds leaf tid, and
// the tree's values walk back one level per half-step between two shared
// arrays, with a barrier after each half-step.
// verdict: clean
//
//gpu:kernel block=256
func BinomialOptionAmd(t gpu.Thread, randArray, output []float32, numSteps int) {
	callA := gpu.Shared[[257]float32](t)
	callB := gpu.Shared[[257]float32](t)
	tid := t.ThreadIdx().X
	bid := t.BlockIdx().X
	if bid >= len(randArray) || bid >= len(output) || numSteps < 1 || numSteps > 255 {
		return
	}
	inRand := randArray[bid]
	s := (1-inRand)*5 + inRand*30
	x := (1-inRand)*1 + inRand*100
	optionYears := (1-inRand)*0.25 + inRand*10
	dt := optionYears * (1 / float32(numSteps))
	vsdt := volatility * math32.Sqrt(dt)
	rdt := riskFree * dt
	r := math32.Exp(rdt)
	rInv := 1 / r
	u := math32.Exp(vsdt)
	d := 1 / u
	pu := (r - d) / (u - d)
	pd := 1 - pu
	puByr := pu * rInv
	pdByr := pd * rInv
	profit := s*math32.Exp(vsdt*(2*float32(tid)-float32(numSteps))) - x
	callA[tid] = max(profit, 0)
	t.Barrier()
	for j := numSteps; j > 0; j -= 2 {
		if tid < j {
			callB[tid] = puByr*callA[tid] + pdByr*callA[tid+1]
		}
		t.Barrier()
		if tid < j-1 {
			callA[tid] = puByr*callB[tid] + pdByr*callB[tid+1]
		}
		t.Barrier()
	}
	if tid == 0 {
		output[bid] = callA[0]
	}
}

// BinomialOptionNoHalfStepBarrier: the barrier between the two half-steps
// left out: thread tid reads callB[tid+1] while thread tid+1 writes it.
// verdict: race
//
//gpu:kernel block=256
func BinomialOptionNoHalfStepBarrier(t gpu.Thread, randArray, output []float32, numSteps int) {
	callA := gpu.Shared[[257]float32](t)
	callB := gpu.Shared[[257]float32](t)
	tid := t.ThreadIdx().X
	bid := t.BlockIdx().X
	if bid >= len(randArray) || bid >= len(output) || numSteps < 1 || numSteps > 255 {
		return
	}
	inRand := randArray[bid]
	s := (1-inRand)*5 + inRand*30
	x := (1-inRand)*1 + inRand*100
	optionYears := (1-inRand)*0.25 + inRand*10
	dt := optionYears * (1 / float32(numSteps))
	vsdt := volatility * math32.Sqrt(dt)
	rdt := riskFree * dt
	r := math32.Exp(rdt)
	rInv := 1 / r
	u := math32.Exp(vsdt)
	d := 1 / u
	pu := (r - d) / (u - d)
	pd := 1 - pu
	puByr := pu * rInv
	pdByr := pd * rInv
	profit := s*math32.Exp(vsdt*(2*float32(tid)-float32(numSteps))) - x
	callA[tid] = max(profit, 0)
	t.Barrier()
	for j := numSteps; j > 0; j -= 2 {
		if tid < j {
			callB[tid] = puByr*callA[tid] + pdByr*callA[tid+1]
		}
		if tid < j-1 {
			callA[tid] = puByr*callB[tid] + pdByr*callB[tid+1]
		}
		t.Barrier()
	}
	if tid == 0 {
		output[bid] = callA[0]
	}
}

// DwtHaar1DAmdInPlace: AMD APP SDK's dwtHaar1D as the SDK writes it: in
// one level, active thread 1 writes sharedArray[1] while active thread 0
// reads it as its data1; the only barrier is at the end of the level.
// verdict: race
//
//gpu:kernel block=64
func DwtHaar1DAmdInPlace(t gpu.Thread, inSignal, coefsSignal, averageSignal []float32, tLevels, signalLength, levelsDone, mLevels int) {
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
	if signalLength != 2*t.GridDim().X*activeThreads {
		return // the SDK's host sizes: each group's coefficients fill its own slots
	}
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

// DwtHaar1DTwoBarriers: the sample fixed with a barrier between the
// level's reads and its writes. Both kernels state the SDK host's sizes
// (signalLength = 2·groups·activeThreads) as a uniform return: without it a
// level's coefficient slots of one group overlap another level's of
// another group.
// known false positive: `(1 << levels) / 2` is not modelled, so the guard
// on signalLength is lost; in the witness (levels = 1, signalLength = 0)
// every thread returns, and only thread 0 is ever active.
// verdict: clean
//
//gpu:kernel block=64
func DwtHaar1DTwoBarriers(t gpu.Thread, inSignal, coefsSignal, averageSignal []float32, tLevels, signalLength, levelsDone, mLevels int) {
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
	if signalLength != 2*t.GridDim().X*activeThreads {
		return // the SDK's host sizes: each group's coefficients fill its own slots
	}
	midOutPos := signalLength / 2
	for i := 0; i < levels; i++ {
		var data0, data1 float32
		if localID < activeThreads {
			data0 = sharedArray[2*localID]
			data1 = sharedArray[2*localID+1]
		}
		t.Barrier()
		if localID < activeThreads {
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

const hsBlock = 64

// HotspotPyramidRow: Rodinia hotspot's calculate_temp pyramid on a row of
// cells: blocks overlap by `iteration` halo cells on each side, every
// iteration recomputes a shrinking valid region, and only the threads whose
// `computed` flag (set in the loop, last set on the final iteration) is
// true write back, so each cell is written by one block.
// verdict: clean
//
//gpu:kernel block=64
func HotspotPyramidRow(t gpu.Thread, power, tempSrc, tempDst []float32, iteration, n int, step float32) {
	tempOn := gpu.Shared[[hsBlock]float32](t)
	powerOn := gpu.Shared[[hsBlock]float32](t)
	tempT := gpu.Shared[[hsBlock]float32](t)
	bx := t.BlockIdx().X
	tx := t.ThreadIdx().X
	smallBlock := hsBlock - iteration*2
	blkX := smallBlock*bx - iteration
	blkXmax := blkX + hsBlock - 1
	xidx := blkX + tx
	validXmin := 0
	if blkX < 0 {
		validXmin = -blkX
	}
	validXmax := hsBlock - 1
	if blkXmax > n-1 {
		validXmax = hsBlock - 1 - (blkXmax - n + 1)
	}
	west := max(tx-1, validXmin)
	east := min(tx+1, validXmax)
	if xidx >= 0 && xidx <= n-1 {
		tempOn[tx] = tempSrc[xidx]
		powerOn[tx] = power[xidx]
	}
	t.Barrier()
	computed := false
	for i := 0; i < iteration; i++ {
		computed = false
		if tx >= i+1 && tx <= hsBlock-i-2 && tx >= validXmin && tx <= validXmax {
			computed = true
			tempT[tx] = tempOn[tx] + step*(powerOn[tx]+tempOn[east]+tempOn[west]-2*tempOn[tx])
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
	if computed {
		tempDst[xidx] = tempT[tx]
	}
}

// HotspotPyramidRowHalo: the write-back guarded by the column's range
// instead of `computed`: a halo cell is written by the block that computed
// it and by its neighbour, which holds a stale copy.
// verdict: race
//
//gpu:kernel block=64
func HotspotPyramidRowHalo(t gpu.Thread, power, tempSrc, tempDst []float32, iteration, n int, step float32) {
	tempOn := gpu.Shared[[hsBlock]float32](t)
	powerOn := gpu.Shared[[hsBlock]float32](t)
	tempT := gpu.Shared[[hsBlock]float32](t)
	bx := t.BlockIdx().X
	tx := t.ThreadIdx().X
	smallBlock := hsBlock - iteration*2
	blkX := smallBlock*bx - iteration
	blkXmax := blkX + hsBlock - 1
	xidx := blkX + tx
	validXmin := 0
	if blkX < 0 {
		validXmin = -blkX
	}
	validXmax := hsBlock - 1
	if blkXmax > n-1 {
		validXmax = hsBlock - 1 - (blkXmax - n + 1)
	}
	west := max(tx-1, validXmin)
	east := min(tx+1, validXmax)
	if xidx >= 0 && xidx <= n-1 {
		tempOn[tx] = tempSrc[xidx]
		powerOn[tx] = power[xidx]
	}
	t.Barrier()
	computed := false
	for i := 0; i < iteration; i++ {
		computed = false
		if tx >= i+1 && tx <= hsBlock-i-2 && tx >= validXmin && tx <= validXmax {
			computed = true
			tempT[tx] = tempOn[tx] + step*(powerOn[tx]+tempOn[east]+tempOn[west]-2*tempOn[tx])
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
	if xidx >= 0 && xidx <= n-1 {
		tempDst[xidx] = tempT[tx]
	}
}

// PackedTailSentinel: thread i packs four values into out[4i..4i+3]
// (those below n); a flag set in the loop records whether its range
// holds the last value, and only that one thread writes the terminator
// out[n].
// verdict: clean
//
//gpu:kernel
func PackedTailSentinel(t gpu.Thread, in, out []float32, n int) {
	i := t.GlobalIdx().X
	if n >= len(out) || n > len(in) {
		return
	}
	holdsLast := false
	for k := 0; k < 4; k++ {
		idx := i*4 + k
		if idx < n {
			out[idx] = in[idx] * 2
			if idx == n-1 {
				holdsLast = true
			}
		}
	}
	if holdsLast {
		out[n] = -1
	}
}

// PackedTailSentinelLoose: the flag set for any index within four of the
// end: two threads can both hold such an index and write out[n].
// verdict: race
//
//gpu:kernel
func PackedTailSentinelLoose(t gpu.Thread, in, out []float32, n int) {
	i := t.GlobalIdx().X
	if n >= len(out) || n > len(in) {
		return
	}
	holdsLast := false
	for k := 0; k < 4; k++ {
		idx := i*4 + k
		if idx < n {
			out[idx] = in[idx] * 2
			if idx >= n-6 {
				holdsLast = true
			}
		}
	}
	if holdsLast {
		out[n] = -1
	}
}
