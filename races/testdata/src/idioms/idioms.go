// Package idioms holds the everyday idioms of issue 13, each spelled
// several ways, with a racy twin: atomic slot hand-out, per-block shared
// counters, facts stated by a kernel's guards (power of two, blockDim a
// multiple of 32, n a multiple of the block), flags and capped counters
// that keep a thread in its own region, and device functions whose
// barrier runs under a loop-counter condition.
package idioms

import "github.com/gpukvet/gpukvet/gpu"

// ---- atomic slot hand-out ----

//gpu:kernel
func SlotInline(t gpu.Thread, dst, n []int32, src []int32) {
	i := t.GlobalIdx().X
	if i < len(src) && src[i] > 0 {
		dst[gpu.AtomicAdd(&n[0], 1)] = src[i]
	}
}

//gpu:kernel
func SlotUint32Converted(t gpu.Thread, dst []float32, n []uint32, src []float32) {
	i := t.GlobalIdx().X
	if i < len(src) && src[i] != 0 {
		j := int(gpu.AtomicAdd(&n[3], 1))
		dst[j] = src[i]
	}
}

// Two slots claimed at once, written at j and j+1.
//
//gpu:kernel
func SlotPairs(t gpu.Thread, dst []int64, n []int64) {
	j := gpu.AtomicAdd(&n[0], 2)
	dst[j] = 1
	dst[j+1] = 2
}

// Claims one slot, writes two: the next claimant's slot too.
//
//gpu:kernel
func SlotPairsShort(t gpu.Thread, dst []int64, n []int64) {
	j := gpu.AtomicAdd(&n[0], 1)
	dst[j] = 1
	dst[j+1] = 2 // want `data race on global dst`
}

// The counter is also decremented: slots repeat.
//
//gpu:kernel
func SlotGivenBack(t gpu.Thread, dst []int32, n []int32, src []int32) {
	i := t.GlobalIdx().X
	j := gpu.AtomicAdd(&n[0], 1)
	dst[j] = src[i] // want `possible data race on global dst`
	if src[i] < 0 {
		gpu.AtomicAdd(&n[0], -1)
	}
}

// A plain read-increment of the counter is a race itself, and gives no
// distinct slots.
//
//gpu:kernel
func SlotPlainCounter(t gpu.Thread, dst []int32, n []int32) {
	j := n[0]
	n[0] = j + 1 // want `data race on global n`
	dst[j] = 1   // want `data race on global dst`
}

// A per-block counter in shared memory, reset before a barrier: positions
// are distinct within the block, and the segment bound keeps blocks apart.
//
//gpu:kernel
func BlockCounterSegment(t gpu.Thread, dst []int32, src []int32, seg int32) {
	c := gpu.Shared[[1]int32](t)
	if t.ThreadIdx().X == 0 {
		c[0] = 0
	}
	t.Barrier()
	i := t.GlobalIdx().X
	if i < len(src) && src[i] > 0 {
		if p := gpu.AtomicAdd(&c[0], 1); p < seg {
			dst[int32(t.BlockIdx().X)*seg+p] = src[i]
		}
	}
}

// A per-block counter into shared memory, block of the kernel fixed.
//
//gpu:kernel block=128
func BlockCounterShared(t gpu.Thread, out []float32, src []float32) {
	c := gpu.Shared[[1]int32](t)
	buf := gpu.Shared[[128]float32](t)
	if t.ThreadIdx().X == 0 {
		c[0] = 0
	}
	t.Barrier()
	if v := src[t.GlobalIdx().X]; v > 0 {
		buf[gpu.AtomicAdd(&c[0], 1)] = v
	}
	t.Barrier()
	out[t.GlobalIdx().X] = buf[t.ThreadIdx().X]
}

// Without the bound, a block with more than seg elements spills into the
// next block's segment.
//
//gpu:kernel
func BlockCounterUnbounded(t gpu.Thread, dst []int32, src []int32, seg int32) {
	c := gpu.Shared[[1]int32](t)
	if t.ThreadIdx().X == 0 {
		c[0] = 0
	}
	t.Barrier()
	i := t.GlobalIdx().X
	if i < len(src) && src[i] > 0 {
		p := gpu.AtomicAdd(&c[0], 1)
		dst[int32(t.BlockIdx().X)*seg+p] = src[i] // want `possible data race on global dst`
	}
}

// The reset is not separated from the adds by a barrier.
//
//gpu:kernel block=128
func BlockCounterNoBarrier(t gpu.Thread, out []float32, src []float32) {
	c := gpu.Shared[[1]int32](t)
	buf := gpu.Shared[[128]float32](t)
	if t.ThreadIdx().X == 0 {
		c[0] = 0
	}
	if v := src[t.GlobalIdx().X]; v > 0 {
		buf[gpu.AtomicAdd(&c[0], 1)] = v // want `data race on shared c`
	}
	t.Barrier()
	out[t.GlobalIdx().X] = buf[t.ThreadIdx().X]
}

// ---- facts stated by guards ----

//gpu:kernel
func Pow2Guard(t gpu.Thread, key []uint32, stride int) {
	if stride <= 0 || stride&(stride-1) != 0 {
		panic("stride must be a power of two")
	}
	c := t.GlobalIdx().X
	pos := 2*c - (c & (stride - 1))
	if pos+stride < len(key) {
		key[pos], key[pos+stride] = key[pos+stride], key[pos]
	}
}

// The same fact spelled (size-1)&size == 0, stated by an early return.
//
//gpu:kernel
func Pow2GuardReturn(t gpu.Thread, key []uint32, size int) {
	if (size-1)&size != 0 {
		return
	}
	c := t.GlobalIdx().X
	pos := 2*c - (c & (size - 1))
	if pos+size < len(key) {
		key[pos], key[pos+size] = key[pos+size], key[pos]
	}
}

//gpu:kernel
func Pow2Unguarded(t gpu.Thread, key []uint32, stride int) {
	c := t.GlobalIdx().X
	pos := 2*c - (c & (stride - 1))
	if pos >= 0 && stride >= 0 && pos+stride < len(key) {
		key[pos], key[pos+stride] = key[pos+stride], key[pos] // want `data race on global key`
	}
}

//gpu:kernel
func WarpRowGuard(t gpu.Thread, out []float32) {
	if t.BlockDim().X%32 != 0 {
		panic("blockDim.x must be a multiple of 32")
	}
	warp := t.BlockIdx().X*(t.BlockDim().X/32) + t.ThreadIdx().X/32
	if t.ThreadIdx().X%32 == 0 {
		out[warp] = 1
	}
}

// The same with the warp size spelled as a shift and a mask.
//
//gpu:kernel
func WarpRowGuardShift(t gpu.Thread, out []float32) {
	if t.BlockDim().X&31 != 0 {
		panic("blockDim.x must be a multiple of 32")
	}
	warp := t.BlockIdx().X*(t.BlockDim().X>>5) + t.ThreadIdx().X>>5
	if t.ThreadIdx().X&31 == 0 {
		out[warp] = 1
	}
}

//gpu:kernel
func WarpRowNoGuard(t gpu.Thread, out []float32) {
	warp := t.BlockIdx().X*(t.BlockDim().X/32) + t.ThreadIdx().X/32
	if t.ThreadIdx().X%32 == 0 {
		out[warp] = 1 // want `data race on global out`
	}
}

// n a multiple of 32 and exactly one thread per element.
//
//gpu:kernel block=32
func StripGuard(t gpu.Thread, in, out []float32, n int) {
	if n%32 != 0 || t.GridDim().X*32 != n {
		panic("n must be a multiple of 32, the grid n/32 blocks")
	}
	g := t.GlobalIdx().X
	out[(g%32)*(n/32)+g/32] = in[g]
}

//gpu:kernel block=32
func StripNoGuard(t gpu.Thread, in, out []float32, n int) {
	g := t.GlobalIdx().X
	if g < n {
		out[(g%32)*(n/32)+g/32] = in[g] // want `data race on global out`
	}
}

// ---- flags and value ranges ----

//gpu:kernel
func FlagOwnPair(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	side := 0
	if in[i] < 0 {
		side = 1
	}
	out[2*i+side] = in[i]
}

// The flag as a switch over three slots of the thread's own triple.
//
//gpu:kernel
func FlagOwnTriple(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	k := 2
	switch {
	case in[i] < 0:
		k = 0
	case in[i] == 0:
		k = 1
	}
	out[3*i+k] = in[i]
}

//gpu:kernel
func FlagShifted(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	side := 0
	if in[i] < 0 {
		side = 1
	}
	out[i+side] = in[i] // want `data race on global out`
}

//gpu:kernel
func CappedCounter(t gpu.Thread, in []float32, list []int32, n, capacity int) {
	i := t.GlobalIdx().X
	count := 0
	for j := 0; j < n; j++ {
		if in[j] > in[i] && count < capacity {
			list[i*capacity+count] = int32(j)
			count++
		}
	}
}

// The cap tested with <=: a full row spills into the next.
//
//gpu:kernel
func CappedCounterOffByOne(t gpu.Thread, in []float32, list []int32, n, capacity int) {
	i := t.GlobalIdx().X
	count := 0
	for j := 0; j < n; j++ {
		if in[j] > in[i] && count <= capacity {
			list[i*capacity+count] = int32(j) // want `data race on global list`
			count++
		}
	}
}

// ---- device functions with a barrier under a loop-counter condition ----

func stage(t gpu.Thread, s *[256]float32, x []float32, k, n int) float32 {
	s[t.ThreadIdx().X] = x[k*256+t.ThreadIdx().X]
	t.Barrier()
	v := s[255-t.ThreadIdx().X]
	if k < n-1 {
		t.Barrier()
	}
	return v
}

//gpu:kernel block=256 grid=1
func StagesSkipLast(t gpu.Thread, x, out []float32, n int) {
	s := gpu.Shared[[256]float32](t)
	var acc float32
	for k := 0; k < n; k++ {
		acc += stage(t, s, x, k, n)
	}
	out[t.ThreadIdx().X] = acc
}

// The same written with the condition as the loop's own.
//
//gpu:kernel block=256 grid=1
func StagesSkipLastInline(t gpu.Thread, x, out []float32, n int) {
	s := gpu.Shared[[256]float32](t)
	var acc float32
	for k := 0; k < n; k++ {
		s[t.ThreadIdx().X] = x[k*256+t.ThreadIdx().X]
		t.Barrier()
		acc += s[255-t.ThreadIdx().X]
		if k+1 != n {
			t.Barrier()
		}
	}
	out[t.ThreadIdx().X] = acc
}

func stageOdd(t gpu.Thread, s *[256]float32, x []float32, k int) float32 {
	s[t.ThreadIdx().X] = x[k*256+t.ThreadIdx().X]
	t.Barrier()
	v := s[255-t.ThreadIdx().X]
	if k%2 == 1 {
		t.Barrier()
	}
	return v
}

// Only odd stages close with a barrier.
//
//gpu:kernel block=256 grid=1
func StagesSkipEven(t gpu.Thread, x, out []float32, n int) {
	s := gpu.Shared[[256]float32](t)
	var acc float32
	for k := 0; k < n; k++ {
		acc += stageOdd(t, s, x, k) // want `data race on shared s`
	}
	out[t.ThreadIdx().X] = acc
}

// ---- kernels memspace rejects ----

var table [64]int

// memspace reports the package variable; the possible race through the
// index read from it is not reported again.
//
//gpu:kernel block=64 grid=1
func HostTableIndex(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	s[table[t.ThreadIdx().X]] = 1
	t.Barrier()
	out[t.ThreadIdx().X] = s[t.ThreadIdx().X]
}

// A race with a concrete collision is still reported on such a kernel, as
// one the replay could not confirm (it does not know the host table's
// values).
//
//gpu:kernel block=64 grid=1
func HostTableAndRace(t gpu.Thread, out []float32) {
	s := gpu.Shared[[65]float32](t)
	s[t.ThreadIdx().X] = float32(table[0])
	out[t.ThreadIdx().X] = s[t.ThreadIdx().X+1] // want `possible data race on shared s: the write at line 372 and the read at line 373 .*: the solver's example, thread 1 at s\[1\] and thread 0 at s\[1\], could not be replayed to confirm it \(line 372: table is not a value the replay knows\)`
}

// ---- the real pair first ----

// The initial write through a data-dependent index could only not be
// proven apart; the neighbour read is a definite race on the same array,
// and is the one reported.
//
//gpu:kernel block=64 grid=1
func RealPairFirst(t gpu.Thread, idx []int32, out []float32) {
	s := gpu.Shared[[65]float32](t)
	tid := t.ThreadIdx().X
	s[idx[tid]&63] = 0
	s[tid] = 1
	out[tid] = s[tid+1] // want `data race on shared s: thread 1 writes s\[1\]`
}
