package racecorpus

// Held-out kernels: translations of GPUVerify-style tests written without
// reading the analyzer, to measure it on code it was not tuned on (see
// testdata/corpus/HELDOUT.md).

import "github.com/gpukvet/gpukvet/gpu"

// XorButterflyNoBarrier reads the butterfly partner's slot right after
// writing its own.
// verdict: race
//
//gpu:kernel block=256
func XorButterflyNoBarrier(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[t.GlobalIdx().X]
	out[t.GlobalIdx().X] = s[tid^1]
}

// XorButterflyBarrier is an all-reduce over xor partners with a barrier
// after each write and after each read.
// verdict: clean
//
//gpu:kernel block=256
func XorButterflyBarrier(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	v := in[t.GlobalIdx().X]
	for mask := 1; mask < 256; mask <<= 1 {
		s[tid] = v
		t.Barrier()
		v += s[tid^mask]
		t.Barrier()
	}
	out[t.GlobalIdx().X] = v
}

// XorButterflyOneBarrier drops the barrier after the read: the next
// iteration's write to s[tid] meets the partner's read of it.
// verdict: race
//
//gpu:kernel block=256
func XorButterflyOneBarrier(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	v := in[t.GlobalIdx().X]
	for mask := 1; mask < 256; mask <<= 1 {
		s[tid] = v
		t.Barrier()
		v += s[tid^mask]
	}
	out[t.GlobalIdx().X] = v
}

// StridedPairs writes the even and the odd slot of each thread's pair.
// verdict: clean
//
//gpu:kernel block=128
func StridedPairs(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[2*tid] = in[t.GlobalIdx().X]
	s[2*tid+1] = 2 * in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = s[255-2*tid]
}

// StridedPairsOverlap writes slots 2*tid and 2*tid+2: neighbours share one.
// verdict: race
//
//gpu:kernel block=128
func StridedPairsOverlap(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[258]float32](t)
	tid := t.ThreadIdx().X
	s[2*tid] = in[t.GlobalIdx().X]
	s[2*tid+2] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = s[2*tid+1]
}

// ConstantOffsetWrite writes three slots ahead and reads its own slot with
// no barrier.
// verdict: race
//
//gpu:kernel block=256
func ConstantOffsetWrite(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[260]float32](t)
	tid := t.ThreadIdx().X
	s[tid+3] = in[t.GlobalIdx().X]
	out[t.GlobalIdx().X] = s[tid]
}

// TransposeTile stages a 16×17 tile and reads it transposed after a barrier.
// verdict: clean
//
//gpu:kernel block=16,16 grid=2,2
func TransposeTile(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[16][17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	bx, by := t.BlockIdx().X, t.BlockIdx().Y
	tile[ty][tx] = in[(by*16+ty)*32+bx*16+tx]
	t.Barrier()
	out[(bx*16+ty)*32+by*16+tx] = tile[tx][ty]
}

// TransposeTileNoBarrier reads the transposed tile without the barrier.
// verdict: race
//
//gpu:kernel block=16,16 grid=2,2
func TransposeTileNoBarrier(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[16][17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	bx, by := t.BlockIdx().X, t.BlockIdx().Y
	tile[ty][tx] = in[(by*16+ty)*32+bx*16+tx]
	out[(bx*16+ty)*32+by*16+tx] = tile[tx][ty]
}

// BlockStrideFill fills a shared buffer in a blockDim-strided loop, waits,
// and reads a foreign slot.
// verdict: clean
//
//gpu:kernel
func BlockStrideFill(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < 1024; i += t.BlockDim().X {
		s[i] = in[i]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[(tid*4)%1024]
}

// BlockStrideFillNoBarrier reads a neighbour's slot while others still fill.
// verdict: race
//
//gpu:kernel
func BlockStrideFillNoBarrier(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < 1024; i += t.BlockDim().X {
		s[i] = in[i]
	}
	out[t.GlobalIdx().X] = s[(tid+1)%1024]
}

// ModuloSlot folds 64 threads onto 32 slots.
// verdict: race
//
//gpu:kernel block=64
func ModuloSlot(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[32]float32](t)
	tid := t.ThreadIdx().X
	s[tid%32] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid%32]
}

// ModuloSlotOneWarp folds a 32-thread block onto 32 slots: tid%32 is tid.
// verdict: clean
//
//gpu:kernel block=32
func ModuloSlotOneWarp(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[32]float32](t)
	tid := t.ThreadIdx().X
	s[tid%32] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = s[(tid+1)%32]
}

// HalfShift has two threads per slot through tid>>1.
// verdict: race
//
//gpu:kernel block=128
func HalfShift(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	s[tid>>1] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid>>1]
}

// ShiftOrPairs writes slots tid<<1 and tid<<1|1.
// verdict: clean
//
//gpu:kernel block=128
func ShiftOrPairs(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid<<1] = in[t.GlobalIdx().X]
	s[tid<<1|1] = -in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid] + s[tid+128]
}

// ReduceGuardInclusive uses tid <= s in a tree reduction: thread s writes the
// slot thread 0 reads.
// verdict: race
//
//gpu:kernel block=256
func ReduceGuardInclusive(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	sh[tid+256] = 0
	t.Barrier()
	for s := 128; s > 0; s >>= 1 {
		if tid <= s {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceMaskGuard is the interleaved reduction with its guard written as a
// mask: tid & (2s-1) == 0.
// verdict: clean
//
//gpu:kernel block=256
func ReduceMaskGuard(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := 1; s < 256; s *= 2 {
		if tid&(2*s-1) == 0 {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// WarpUnrolledReduce unrolls the last six steps without barriers, relying
// on warp-synchronous execution, which the model does not grant.
// verdict: race
//
//gpu:kernel block=256
func WarpUnrolledReduce(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := 128; s > 32; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	if tid < 32 {
		sh[tid] += sh[tid+32]
		sh[tid] += sh[tid+16]
		sh[tid] += sh[tid+8]
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// FlagSameValue: every thread that sees a positive input writes 1 to the
// same flag (a benign write-write race in CUDA, a race here).
// verdict: race
//
//gpu:kernel
func FlagSameValue(t gpu.Thread, in []float32, flag []int32) {
	if in[t.GlobalIdx().X] > 0 {
		flag[0] = 1
	}
}

// AtomicThenPlainReset mixes an atomic add with thread 0's plain reset.
// verdict: race
//
//gpu:kernel block=64
func AtomicThenPlainReset(t gpu.Thread, out []int32) {
	c := gpu.Shared[[1]int32](t)
	gpu.AtomicAdd(&c[0], 1)
	if t.ThreadIdx().X == 0 {
		c[0] = 0
	}
	t.Barrier()
	if t.ThreadIdx().X == 0 {
		out[t.BlockIdx().X] = c[0]
	}
}

// AtomicBinsFenced clears four bins, adds atomically, and publishes them,
// with a barrier between the phases.
// verdict: clean
//
//gpu:kernel block=64
func AtomicBinsFenced(t gpu.Thread, out []int32) {
	c := gpu.Shared[[4]int32](t)
	tid := t.ThreadIdx().X
	if tid < 4 {
		c[tid] = 0
	}
	t.Barrier()
	gpu.AtomicAdd(&c[tid%4], 1)
	t.Barrier()
	if tid < 4 {
		out[t.BlockIdx().X*4+tid] = c[tid]
	}
}

// FoldUpperHalf adds the upper half onto the lower half once.
// verdict: clean
//
//gpu:kernel block=256
func FoldUpperHalf(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	if tid < 128 {
		s[tid] += s[tid+128]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid%128]
}

// FoldUpperHalfSkewed folds with an offset of 127 for 129 threads.
// verdict: race
//
//gpu:kernel block=256
func FoldUpperHalfSkewed(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	if tid < 129 {
		s[tid] += s[tid+127]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid%128]
}

// GlobalDiagonal indexes global memory by ThreadIdx+BlockIdx: thread 1 of
// block 0 and thread 0 of block 1 meet.
// verdict: race
//
//gpu:kernel
func GlobalDiagonal(t gpu.Thread, in, out []float32) {
	out[t.ThreadIdx().X+t.BlockIdx().X] = in[t.GlobalIdx().X]
}

// GlobalExplicitOffset spells out BlockIdx*BlockDim+ThreadIdx.
// verdict: clean
//
//gpu:kernel
func GlobalExplicitOffset(t gpu.Thread, in, out []float32) {
	i := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	out[i] = 2 * in[i]
}

// GlobalOffsetTooSmall strides blocks by 128 with 256 threads each.
// verdict: race
//
//gpu:kernel block=256
func GlobalOffsetTooSmall(t gpu.Thread, in, out []float32) {
	i := t.BlockIdx().X*128 + t.ThreadIdx().X
	out[i] = 2 * in[i]
}

// ReadOnlyBroadcast: every thread reads the same inputs; only its own
// output is written.
// verdict: clean
//
//gpu:kernel
func ReadOnlyBroadcast(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	out[i] = in[0] + in[i%4] + in[len(in)-1]
}

// PingPong alternates two shared rows with one barrier per step.
// verdict: clean
//
//gpu:kernel block=256
func PingPong(t gpu.Thread, in, out []float32) {
	buf := gpu.Shared[[2][256]float32](t)
	tid := t.ThreadIdx().X
	buf[0][tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for k := 0; k < 8; k++ {
		cur := k & 1
		buf[1-cur][tid] = buf[cur][(tid+1)%256]
		t.Barrier()
	}
	out[t.GlobalIdx().X] = buf[0][tid]
}

// PingPongNoBarrier alternates the rows without a barrier.
// verdict: race
//
//gpu:kernel block=256
func PingPongNoBarrier(t gpu.Thread, in, out []float32) {
	buf := gpu.Shared[[2][256]float32](t)
	tid := t.ThreadIdx().X
	buf[0][tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for k := 0; k < 8; k++ {
		cur := k & 1
		buf[1-cur][tid] = buf[cur][(tid+1)%256]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = buf[0][tid]
}

// HalfBlockDim moves the upper half of a block onto the lower half.
// verdict: clean
//
//gpu:kernel
func HalfBlockDim(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	h := t.BlockDim().X / 2
	s[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	if tid < h {
		s[tid] = s[tid+h]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// HalfBlockDimInclusive guards with tid <= h.
// verdict: race
//
//gpu:kernel
func HalfBlockDimInclusive(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	h := t.BlockDim().X / 2
	s[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	if tid <= h {
		s[tid] = s[tid+h]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// OwnSlot2D writes and rereads its own slot of a row-major tile.
// verdict: clean
//
//gpu:kernel block=16,16 grid=1
func OwnSlot2D(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	s[ty*16+tx] = in[ty*16+tx]
	s[ty*16+tx] *= 2
	out[ty*16+tx] = s[ty*16+tx]
}

// TransposedSlot2D rereads the transposed slot without a barrier.
// verdict: race
//
//gpu:kernel block=16,16 grid=1
func TransposedSlot2D(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	s[ty*16+tx] = in[ty*16+tx]
	out[ty*16+tx] = s[tx*16+ty]
}

// GlobalBarrierSameBlock: a barrier orders global accesses within a block.
// verdict: clean
//
//gpu:kernel block=256
func GlobalBarrierSameBlock(t gpu.Thread, out, res []float32) {
	b, tid := t.BlockIdx().X, t.ThreadIdx().X
	out[b*256+tid] = float32(tid)
	t.Barrier()
	res[b*256+tid] = out[b*256+(tid+1)%256]
}

// GlobalBarrierOtherBlock reads the next block's slot after a barrier, which
// does not order blocks.
// verdict: race
//
//gpu:kernel block=256 grid=4
func GlobalBarrierOtherBlock(t gpu.Thread, out, res []float32) {
	i := t.GlobalIdx().X
	out[i] = float32(i)
	t.Barrier()
	res[i] = out[(i+256)%1024]
}

// OddEvenSort is odd-even transposition sort: in each phase only threads of
// the phase's parity compare-and-swap their pair.
// verdict: clean
//
//gpu:kernel block=256
func OddEvenSort(t gpu.Thread, data []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = data[t.GlobalIdx().X]
	t.Barrier()
	for phase := 0; phase < 256; phase++ {
		if tid%2 == phase%2 && tid+1 < 256 {
			a, b := s[tid], s[tid+1]
			if a > b {
				s[tid], s[tid+1] = b, a
			}
		}
		t.Barrier()
	}
	data[t.GlobalIdx().X] = s[tid]
}

// OddEvenSortNoParity lets every thread compare-and-swap in every phase.
// verdict: race
//
//gpu:kernel block=256
func OddEvenSortNoParity(t gpu.Thread, data []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = data[t.GlobalIdx().X]
	t.Barrier()
	for phase := 0; phase < 256; phase++ {
		if tid+1 < 256 {
			a, b := s[tid], s[tid+1]
			if a > b {
				s[tid], s[tid+1] = b, a
			}
		}
		t.Barrier()
	}
	data[t.GlobalIdx().X] = s[tid]
}

// ExchangeThenPlainRead: atomic exchanges on a global flag and a plain read
// of it by each block's thread 0.
// verdict: race
//
//gpu:kernel
func ExchangeThenPlainRead(t gpu.Thread, flag []int32, out []int32) {
	old := gpu.AtomicExchange(&flag[0], int32(t.GlobalIdx().X))
	if t.ThreadIdx().X == 0 {
		out[t.BlockIdx().X] = flag[0] + old
	}
}

// SwitchOwnSlot writes its own slot in every case of a switch on tid%4.
// verdict: clean
//
//gpu:kernel block=256
func SwitchOwnSlot(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	switch tid % 4 {
	case 0:
		s[tid] = in[t.GlobalIdx().X]
	case 1:
		s[tid] = 2 * in[t.GlobalIdx().X]
	default:
		s[tid] = 0
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[(tid+1)%256]
}

// SwitchNeighbourSlot: the threads of case 1 write their left neighbour's
// slot, which case 0 writes too.
// verdict: race
//
//gpu:kernel block=256
func SwitchNeighbourSlot(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	switch tid % 2 {
	case 0:
		s[tid] = in[t.GlobalIdx().X]
	case 1:
		s[tid-1] += in[t.GlobalIdx().X]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

func pairSlot(t gpu.Thread, k int) int { return t.ThreadIdx().X*2 + k }

func nearSlot(t gpu.Thread, k int) int { return t.ThreadIdx().X + k }

// HelperPairSlots indexes through a device function: 2*tid+k.
// verdict: clean
//
//gpu:kernel block=128
func HelperPairSlots(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	s[pairSlot(t, 0)] = in[t.GlobalIdx().X]
	s[pairSlot(t, 1)] = in[t.GlobalIdx().X] + 1
	t.Barrier()
	out[t.GlobalIdx().X] = s[255-t.ThreadIdx().X]
}

// HelperNearSlots indexes through a device function: tid+k overlaps.
// verdict: race
//
//gpu:kernel block=128
func HelperNearSlots(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	s[nearSlot(t, 0)] = in[t.GlobalIdx().X]
	s[nearSlot(t, 1)] = in[t.GlobalIdx().X] + 1
	t.Barrier()
	out[t.GlobalIdx().X] = s[t.ThreadIdx().X]
}

// LaneWarpSlot rebuilds tid from its lane (tid&31) and warp (tid>>5).
// verdict: clean
//
//gpu:kernel block=256
func LaneWarpSlot(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	lane, warp := tid&31, tid>>5
	s[warp*32+lane] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = s[lane*8+warp]
}

// LaneOnlySlot indexes by lane alone: the warps of a block collide.
// verdict: race
//
//gpu:kernel block=64
func LaneOnlySlot(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[32]float32](t)
	lane := t.ThreadIdx().X & 31
	s[lane] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = s[lane]
}

// GlobalInPlaceStencilBarrier reads the right neighbour, waits, then writes
// its own element; the last thread's neighbour belongs to the next block.
// verdict: race
//
//gpu:kernel block=256
func GlobalInPlaceStencilBarrier(t gpu.Thread, a []float32) {
	i := t.GlobalIdx().X
	v := a[i+1]
	t.Barrier()
	a[i] = v
}

// SharedStencilHalo loads a tile with one halo element per side (by the
// edge threads) and reads three neighbours after a barrier.
// verdict: clean
//
//gpu:kernel block=256
func SharedStencilHalo(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[258]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X + 1
	s[tid+1] = in[i]
	if tid == 0 {
		s[0] = in[i-1]
	}
	if tid == 255 {
		s[257] = in[i+1]
	}
	t.Barrier()
	out[i] = s[tid] + s[tid+1] + s[tid+2]
}

func init() {
	for _, k := range []struct {
		name string
		fn   any
	}{
		{"XorButterflyNoBarrier", XorButterflyNoBarrier}, {"XorButterflyBarrier", XorButterflyBarrier},
		{"XorButterflyOneBarrier", XorButterflyOneBarrier}, {"StridedPairs", StridedPairs},
		{"StridedPairsOverlap", StridedPairsOverlap}, {"ConstantOffsetWrite", ConstantOffsetWrite},
		{"TransposeTile", TransposeTile}, {"TransposeTileNoBarrier", TransposeTileNoBarrier},
		{"BlockStrideFill", BlockStrideFill}, {"BlockStrideFillNoBarrier", BlockStrideFillNoBarrier},
		{"ModuloSlot", ModuloSlot}, {"ModuloSlotOneWarp", ModuloSlotOneWarp},
		{"HalfShift", HalfShift}, {"ShiftOrPairs", ShiftOrPairs},
		{"ReduceGuardInclusive", ReduceGuardInclusive}, {"ReduceMaskGuard", ReduceMaskGuard},
		{"WarpUnrolledReduce", WarpUnrolledReduce}, {"FlagSameValue", FlagSameValue},
		{"AtomicThenPlainReset", AtomicThenPlainReset}, {"AtomicBinsFenced", AtomicBinsFenced},
		{"FoldUpperHalf", FoldUpperHalf}, {"FoldUpperHalfSkewed", FoldUpperHalfSkewed},
		{"GlobalDiagonal", GlobalDiagonal}, {"GlobalExplicitOffset", GlobalExplicitOffset},
		{"GlobalOffsetTooSmall", GlobalOffsetTooSmall}, {"ReadOnlyBroadcast", ReadOnlyBroadcast},
		{"PingPong", PingPong}, {"PingPongNoBarrier", PingPongNoBarrier},
		{"HalfBlockDim", HalfBlockDim}, {"HalfBlockDimInclusive", HalfBlockDimInclusive},
		{"OwnSlot2D", OwnSlot2D}, {"TransposedSlot2D", TransposedSlot2D},
		{"GlobalBarrierSameBlock", GlobalBarrierSameBlock}, {"GlobalBarrierOtherBlock", GlobalBarrierOtherBlock},
		{"OddEvenSort", OddEvenSort}, {"OddEvenSortNoParity", OddEvenSortNoParity},
		{"ExchangeThenPlainRead", ExchangeThenPlainRead}, {"SwitchOwnSlot", SwitchOwnSlot},
		{"SwitchNeighbourSlot", SwitchNeighbourSlot}, {"HelperPairSlots", HelperPairSlots},
		{"HelperNearSlots", HelperNearSlots}, {"LaneWarpSlot", LaneWarpSlot},
		{"LaneOnlySlot", LaneOnlySlot}, {"GlobalInPlaceStencilBarrier", GlobalInPlaceStencilBarrier},
		{"SharedStencilHalo", SharedStencilHalo},
	} {
		Kernels[k.name] = k.fn
	}
}
