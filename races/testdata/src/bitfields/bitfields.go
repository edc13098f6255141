// Package bitfields holds indices built from bits: powers of two shifted
// or divided down (fastWalshTransform's stride := n >> 2; stride >>= 2,
// odd-even merge sort's stride := size / 2), bank-spreading permutations
// packed with | and ^ from disjoint bit fields (histogram64's threadPos),
// and low bits cleared with &^. Each clean kernel has a racy twin.
package bitfields

import "github.com/gpukvet/gpukvet/gpu"

// FwtSteps: radix-4 butterflies whose stride falls by fours from a
// quarter of n = 2^log2N: a power of two or zero, so pos & (stride−1) is
// pos mod stride and the four cells of two threads are apart.
//
//gpu:kernel block=256
func FwtSteps(t gpu.Thread, out []float32, log2N int) {
	s := gpu.Shared[[2048]float32](t)
	n := 1 << log2N
	pos := t.ThreadIdx().X
	for stride := n >> 2; stride > 0; stride >>= 2 {
		lo := pos & (stride - 1)
		i0 := ((pos - lo) << 2) + lo
		t.Barrier()
		a, b := s[i0], s[i0+stride]
		s[i0] = a + b
		s[i0+stride] = a - b
		s[i0+2*stride] = b
		s[i0+3*stride] = a
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[pos]
}

// FwtStepsNoBarrier: the steps without their barrier: a step's reads meet
// the previous step's writes of other threads.
//
//gpu:kernel block=256
func FwtStepsNoBarrier(t gpu.Thread, out []float32, log2N int) {
	s := gpu.Shared[[2048]float32](t)
	n := 1 << log2N
	pos := t.ThreadIdx().X
	for stride := n >> 2; stride > 0; stride >>= 2 {
		lo := pos & (stride - 1)
		i0 := ((pos - lo) << 2) + lo
		a, b := s[i0], s[i0+stride]
		s[i0] = a + b        // want `race on shared s`
		s[i0+stride] = a - b // want `race on shared s`
		s[i0+2*stride] = b   // want `race on shared s`
		s[i0+3*stride] = a   // want `race on shared s`
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[pos]
}

// HalvedSize: the first step of an odd-even merge at each size: stride =
// size/2 of a doubling size, pairs (pos, pos+stride) with pos = 2·tid −
// tid mod stride.
//
//gpu:kernel block=512
func HalvedSize(t gpu.Thread, out []uint32, arrayLength int) {
	s := gpu.Shared[[1024]uint32](t)
	tid := t.ThreadIdx().X
	for size := 2; size <= arrayLength; size <<= 1 {
		stride := size / 2
		t.Barrier()
		pos := 2*tid - (tid & (stride - 1))
		a, b := s[pos], s[pos+stride]
		s[pos], s[pos+stride] = min(a, b), max(a, b)
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// HalvedSizeWideReach: the pair reaches 2·stride: pos+2·stride of one
// thread is pos of another.
//
//gpu:kernel block=512
func HalvedSizeWideReach(t gpu.Thread, out []uint32, arrayLength int) {
	s := gpu.Shared[[1024]uint32](t)
	tid := t.ThreadIdx().X
	for size := 2; size <= arrayLength; size <<= 1 {
		stride := size / 2
		t.Barrier()
		pos := 2*tid - (tid & (stride - 1))
		a, b := s[pos], s[pos+2*stride]
		s[pos], s[pos+2*stride] = min(a, b), max(a, b) // want `race on shared s`
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// ShiftedPow2Param: m = 2^k >> 1 names a power of two or zero; with it a
// thread's pair (pos, pos+m) is its own.
//
//gpu:kernel
func ShiftedPow2Param(t gpu.Thread, data []float32, k int) {
	m := (1 << k) >> 1
	g := t.GlobalIdx().X
	if m > 0 {
		pos := 2*g - (g & (m - 1))
		data[pos], data[pos+m] = data[pos+m], data[pos]
	}
}

// ShiftedNotPow2Param: 3·2^k >> 1 is not a power of two: with k = 1, m =
// 3 and threads 0 and 2 both reach data[3].
//
//gpu:kernel
func ShiftedNotPow2Param(t gpu.Thread, data []float32, k int) {
	m := (3 << k) >> 1
	g := t.GlobalIdx().X
	if m > 0 {
		pos := 2*g - (g & (m - 1))
		data[pos], data[pos+m] = data[pos+m], data[pos] // want `race on global data`
	}
}

// SwizzleOr: a bank-spreading column, (tid&7)<<3 | (tid>>3)&7, a
// permutation of 0..63 for 64 threads.
//
//gpu:kernel block=64
func SwizzleOr(t gpu.Thread, out []uint32) {
	s := gpu.Shared[[64]uint32](t)
	tid := t.ThreadIdx().X
	pos := ((tid & 7) << 3) | ((tid >> 3) & 7)
	s[pos]++
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// SwizzleOrDroppedBit: the high field shifted one bit too far: threads 0
// and 8 share column 0.
//
//gpu:kernel block=64
func SwizzleOrDroppedBit(t gpu.Thread, out []uint32) {
	s := gpu.Shared[[64]uint32](t)
	tid := t.ThreadIdx().X
	pos := ((tid & 7) << 3) | ((tid >> 4) & 7)
	s[pos]++ // want `race on shared s`
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// SwizzleXorBlocks: a transpose swizzle of an 8×8 tile: the fields
// (tid&7)<<3 and (tid>>3)&7 have no bit in common, so ^ is their sum.
//
//gpu:kernel block=64
func SwizzleXorBlocks(t gpu.Thread, out []uint32) {
	s := gpu.Shared[[64]uint32](t)
	tid := t.ThreadIdx().X
	pos := ((tid & 7) << 3) ^ ((tid >> 3) & 7)
	s[pos] = uint32(tid)
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// SwizzleXorOverlapping: (tid&7)<<2 and (tid>>3)&7 share bit 2: threads 1
// and 32 both land on cell 4.
//
//gpu:kernel block=64
func SwizzleXorOverlapping(t gpu.Thread, out []uint32) {
	s := gpu.Shared[[64]uint32](t)
	tid := t.ThreadIdx().X
	pos := ((tid & 7) << 2) ^ ((tid >> 3) & 7)
	s[pos] = uint32(tid) // want `race on shared s`
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// TileTranspose64: the same swizzle spelled with |, over tiles of 64
// threads kept by tid &^ 63.
//
//gpu:kernel block=256
func TileTranspose64(t gpu.Thread, out []uint32) {
	s := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	pos := (tid &^ 63) | ((tid & 7) << 3) | ((tid >> 3) & 7)
	s[pos] = uint32(tid)
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}

// TileTranspose64LostTile: the tile cleared with &^ 255: threads 0 and 64
// share a slot.
//
//gpu:kernel block=256
func TileTranspose64LostTile(t gpu.Thread, out []uint32) {
	s := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	pos := (tid &^ 255) | ((tid & 7) << 3) | ((tid >> 3) & 7)
	s[pos] = uint32(tid) // want `race on shared s`
	t.Barrier()
	out[t.GlobalIdx().X] = s[tid]
}
