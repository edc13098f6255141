package racecorpus

import "github.com/gpukvet/gpukvet/gpu"

// PrivateSlots gives each thread four private slots a[tid*4+k].
// verdict: clean
//
//gpu:kernel block=64
func PrivateSlots(t gpu.Thread, in, out []float32) {
	a := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	for k := 0; k < 4; k++ {
		a[tid*4+k] = in[t.GlobalIdx().X*4+k]
	}
	var s float32
	for k := 0; k < 4; k++ {
		s += a[tid*4+k]
	}
	out[t.GlobalIdx().X] = s
}

// PrivateSlotsOverlap writes five slots per thread with a stride of four.
// verdict: race
//
//gpu:kernel block=64
func PrivateSlotsOverlap(t gpu.Thread, in, out []float32) {
	a := gpu.Shared[[260]float32](t)
	tid := t.ThreadIdx().X
	for k := 0; k <= 4; k++ {
		a[tid*4+k] = in[t.GlobalIdx().X]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = a[tid*4]
}

// PrivateSlotsSymbolicStride strides private slots by a uniform parameter
// and bounds k by it.
// verdict: clean
//
//gpu:kernel block=64
func PrivateSlotsSymbolicStride(t gpu.Thread, in, out []float32, k int) {
	a := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	if k > 16 {
		return
	}
	for j := 0; j < k; j++ {
		a[tid*k+j] = in[j]
	}
	var s float32
	for j := 0; j < k; j++ {
		s += a[tid*k+j]
	}
	out[t.GlobalIdx().X] = s
}

// BroadcastGuarded: thread 0 writes, a barrier, everyone reads.
// verdict: clean
//
//gpu:kernel
func BroadcastGuarded(t gpu.Thread, in, out []float32) {
	v := gpu.Shared[[1]float32](t)
	if t.ThreadIdx().X == 0 {
		v[0] = in[t.BlockIdx().X]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = v[0]
}

// BroadcastNoBarrier: thread 0 writes while everyone reads.
// verdict: race
//
//gpu:kernel
func BroadcastNoBarrier(t gpu.Thread, in, out []float32) {
	v := gpu.Shared[[1]float32](t)
	if t.ThreadIdx().X == 0 {
		v[0] = in[t.BlockIdx().X]
	}
	out[t.GlobalIdx().X] = v[0]
}

// BroadcastAllWrite: every thread writes the same slot.
// verdict: race
//
//gpu:kernel
func BroadcastAllWrite(t gpu.Thread, in, out []float32) {
	v := gpu.Shared[[1]float32](t)
	v[0] = in[t.BlockIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = v[0]
}

// NeighbourNoBarrier is GPUVerify's classic: write tile[tid], read
// tile[tid+1].
// verdict: race
//
//gpu:kernel block=256
func NeighbourNoBarrier(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[257]float32](t)
	i := t.ThreadIdx().X
	tile[i] = in[t.GlobalIdx().X]
	out[t.GlobalIdx().X] = tile[i+1]
}

// NeighbourBarrier is its fix.
// verdict: clean
//
//gpu:kernel block=256
func NeighbourBarrier(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[257]float32](t)
	i := t.ThreadIdx().X
	tile[i] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = tile[i+1]
}

// LeftNeighbourGuarded reads tile[i-1] under i > 0 with no barrier.
// verdict: race
//
//gpu:kernel
func LeftNeighbourGuarded(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[1024]float32](t)
	i := t.ThreadIdx().X
	tile[i] = in[t.GlobalIdx().X]
	if i > 0 {
		out[t.GlobalIdx().X] = tile[i-1]
	}
}

// ShiftLoopBarrierTop has a barrier at the top of each iteration but reads
// and writes neighbours within one iteration.
// verdict: race
//
//gpu:kernel block=256
func ShiftLoopBarrierTop(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[257]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	for it := 0; it < 4; it++ {
		t.Barrier()
		x := sh[tid+1]
		sh[tid] = x
	}
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid]
}

// ShiftLoopTwoBarriers reads, waits, writes, waits.
// verdict: clean
//
//gpu:kernel block=256
func ShiftLoopTwoBarriers(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[257]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	if tid == 0 {
		sh[256] = 0
	}
	for it := 0; it < 4; it++ {
		t.Barrier()
		x := sh[tid+1]
		t.Barrier()
		sh[tid] = x
	}
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid]
}

// ShiftLoopNoBarrier iterates a neighbour update with no barrier at all.
// verdict: race
//
//gpu:kernel block=256
func ShiftLoopNoBarrier(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[257]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for it := 0; it < 4; it++ {
		sh[tid] = sh[tid+1] * 0.5
	}
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid]
}

// ModuloSlots maps 256 threads onto 32 slots.
// verdict: race
//
//gpu:kernel block=256
func ModuloSlots(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[32]float32](t)
	tid := t.ThreadIdx().X
	sh[tid%32] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid%32]
}

// ModuloSlotsGuarded lets only the first 32 threads write their slot.
// verdict: clean
//
//gpu:kernel block=256
func ModuloSlotsGuarded(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[32]float32](t)
	tid := t.ThreadIdx().X
	if tid < 32 {
		sh[tid%32] = in[t.GlobalIdx().X]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid%32]
}

// MaskSlots maps threads onto slots with tid & 31.
// verdict: race
//
//gpu:kernel block=128
func MaskSlots(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[32]float32](t)
	tid := t.ThreadIdx().X
	sh[tid&31] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid&31]
}

// PairSlotsEvenWrite: pairs of threads share a slot tid>>1 and only the
// even one writes it.
// verdict: clean
//
//gpu:kernel block=256
func PairSlotsEvenWrite(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[128]float32](t)
	tid := t.ThreadIdx().X
	if tid&1 == 0 {
		sh[tid>>1] = in[t.GlobalIdx().X]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid>>1]
}

// PairSlotsBothWrite: both threads of a pair write slot tid>>1.
// verdict: race
//
//gpu:kernel block=256
func PairSlotsBothWrite(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[128]float32](t)
	tid := t.ThreadIdx().X
	sh[tid>>1] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid>>1]
}

// DataDependentIndex writes a slot chosen by input data.
// verdict: race
//
//gpu:kernel block=256
func DataDependentIndex(t gpu.Thread, idx []int32, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	sh[idx[t.GlobalIdx().X]&255] = float32(tid)
	t.Barrier()
	out[t.GlobalIdx().X] = sh[tid]
}

// SwapHalves: the first half of the block reads the second half's slots
// after a barrier, then writes its own.
// verdict: clean
//
//gpu:kernel block=256
func SwapHalves(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	var x float32
	if tid < 128 {
		x = sh[tid+128]
	} else {
		x = sh[tid-128]
	}
	t.Barrier()
	sh[tid] = x
	t.Barrier()
	out[t.GlobalIdx().X] = sh[255-tid]
}

// SwapHalvesNoBarrier writes its slot while its partner may still read it.
// verdict: race
//
//gpu:kernel block=256
func SwapHalvesNoBarrier(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	var x float32
	if tid < 128 {
		x = sh[tid+128]
	} else {
		x = sh[tid-128]
	}
	sh[tid] = x
	t.Barrier()
	out[t.GlobalIdx().X] = sh[255-tid]
}

// loadTile is a device function that loads a thread's slot.
func loadTile(t gpu.Thread, tile *[256]float32, in []float32) {
	tile[t.ThreadIdx().X] = in[t.GlobalIdx().X]
}

// loadTileSync loads and waits: its barrier counts in the caller.
func loadTileSync(t gpu.Thread, tile *[256]float32, in []float32) {
	tile[t.ThreadIdx().X] = in[t.GlobalIdx().X]
	t.Barrier()
}

// readRight is a device function that reads the right neighbour's slot.
func readRight(t gpu.Thread, tile *[256]float32) float32 {
	i := t.ThreadIdx().X
	if i+1 < 256 {
		return tile[i+1]
	}
	return 0
}

// DeviceFuncNoBarrier loads and reads neighbours through device functions
// with no barrier between.
// verdict: race
//
//gpu:kernel block=256
func DeviceFuncNoBarrier(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[256]float32](t)
	loadTile(t, tile, in)
	out[t.GlobalIdx().X] = readRight(t, tile)
}

// DeviceFuncBarrierInside gets its barrier from the device function.
// verdict: clean
//
//gpu:kernel block=256
func DeviceFuncBarrierInside(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[256]float32](t)
	loadTileSync(t, tile, in)
	out[t.GlobalIdx().X] = readRight(t, tile)
}

// SubsliceOffsets writes through a subslice of a shared array: s[i] is
// tile[i+1], so reading tile[i+1] in the same interval races.
// verdict: race
//
//gpu:kernel block=256
func SubsliceOffsets(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[257]float32](t)
	s := tile[1:]
	i := t.ThreadIdx().X
	s[i] = in[t.GlobalIdx().X]
	tile[i] = 0
	t.Barrier()
	out[t.GlobalIdx().X] = tile[i]
}

// SubsliceDisjoint writes two halves through two subslices.
// verdict: clean
//
//gpu:kernel block=128
func SubsliceDisjoint(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[256]float32](t)
	lo, hi := tile[:128], tile[128:]
	i := t.ThreadIdx().X
	lo[i] = in[t.GlobalIdx().X]
	hi[i] = in[t.GlobalIdx().X] * 2
	t.Barrier()
	out[t.GlobalIdx().X] = tile[255-i]
}

// StridedLoadLoop loads a shared buffer larger than the block with a
// block-strided loop, then reads it after a barrier.
// verdict: clean
//
//gpu:kernel
func StridedLoadLoop(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[2048]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < 2048; i += t.BlockDim().X {
		sh[i] = in[i]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = sh[2047-tid]
}

// StridedLoadLoopWrongStride strides by 1 instead of the block size, so
// threads overlap.
// verdict: race
//
//gpu:kernel
func StridedLoadLoopWrongStride(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[2048]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < 2048; i++ {
		sh[i] = in[i]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = sh[2047-tid]
}

// BroadcastIndexFromShared: thread 0 picks a base index and broadcasts it
// through shared memory; after the barrier every thread writes base+tid.
// The loaded base is uniform (the uniformity analysis knows no divergent
// store reaches the load without a barrier), so the slots are distinct.
// verdict: clean
//
//gpu:kernel block=256
func BroadcastIndexFromShared(t gpu.Thread, in []int32, out []float32) {
	base := gpu.Shared[[1]int32](t)
	sh := gpu.Shared[[2048]float32](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		base[0] = in[t.BlockIdx().X] & 1023
	}
	t.Barrier()
	b := int(base[0])
	sh[b+tid] = float32(tid)
	t.Barrier()
	out[t.GlobalIdx().X] = sh[b+255-tid]
}

// BroadcastIndexPerThread loads a per-thread base instead, so two threads
// may pick overlapping slots.
// verdict: race
//
//gpu:kernel block=256
func BroadcastIndexPerThread(t gpu.Thread, in []int32, out []float32) {
	sh := gpu.Shared[[2048]float32](t)
	tid := t.ThreadIdx().X
	b := int(in[t.GlobalIdx().X] & 1023)
	sh[b+tid] = float32(tid)
	t.Barrier()
	out[t.GlobalIdx().X] = sh[b+255-tid]
}
