// Package precond holds barriers that a thread-dependent condition seems
// to divide, but that the kernel's preconditions (a uniform guard at its
// top that panics) make every thread reach; each has a twin without the
// guard, or with a guard too weak, that is reported.
package precond

import "github.com/gpukvet/gpukvet/gpu"

// ---- the block-stride loop: n a multiple of the block ----

//gpu:kernel
func StrideLoopMultiple(t gpu.Thread, n int, a []float32) {
	if n%t.BlockDim().X != 0 {
		panic("n must be a multiple of the block size")
	}
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < n; i += t.BlockDim().X {
		s[tid] = a[i]
		t.Barrier()
		a[i] = s[(tid+1)%t.BlockDim().X]
		t.Barrier()
	}
}

//gpu:kernel
func StrideLoopAnyN(t gpu.Thread, n int, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < n; i += t.BlockDim().X {
		s[tid] = a[i]
		t.Barrier() // want "barrier may be reached by only some threads of the block: it is in a loop whose trip count differs between threads: the loop condition `i < n`"
		a[i] = s[(tid+1)%t.BlockDim().X]
		t.Barrier() // want "trip count differs"
	}
}

// The same loop, the guard spelled with the block size in a variable and
// the test the other way round.
//
//gpu:kernel
func StrideLoopMultipleVar(t gpu.Thread, n int, a []float32) {
	bd := t.BlockDim().X
	if !(n%bd == 0) {
		panic("n must be a multiple of the block size")
	}
	s := gpu.Shared[[256]float32](t)
	for i := t.ThreadIdx().X; n > i; i = i + bd {
		s[t.ThreadIdx().X] = a[i]
		t.Barrier()
	}
}

// A guard that states something else (n even) does not help.
//
//gpu:kernel
func StrideLoopWrongGuard(t gpu.Thread, n int, a []float32) {
	if n%2 != 0 {
		panic("n must be even")
	}
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < n; i += t.BlockDim().X {
		s[tid] = a[i]
		t.Barrier() // want "trip count differs"
	}
}

// A fixed block shape and n a multiple of it, stated with a constant.
//
//gpu:kernel block=128
func StrideLoopConstBlock(t gpu.Thread, n int, a []float32) {
	if n%128 != 0 || n < 0 {
		panic("n must be a non-negative multiple of 128")
	}
	s := gpu.Shared[[128]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < n; i += 128 {
		s[tid] = a[i]
		t.Barrier()
	}
}

// The constant stride differs from the block the guard speaks of.
//
//gpu:kernel block=128
func StrideLoopConstBlockOff(t gpu.Thread, n int, a []float32) {
	if n%128 != 0 {
		panic("n must be a multiple of 128")
	}
	s := gpu.Shared[[128]float32](t)
	tid := t.ThreadIdx().X
	for i := tid; i < n; i += 64 {
		s[tid%64] = a[i]
		t.Barrier() // want "trip count differs"
	}
}

// ---- a bound equal to the block: always true ----

//gpu:kernel
func BoundIsBlock(t gpu.Thread, n int, a []float32) {
	if n != t.BlockDim().X {
		panic("launch one thread per element")
	}
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	if tid < n {
		s[tid] = a[tid]
		t.Barrier()
		a[tid] = s[n-1-tid]
	}
}

//gpu:kernel
func BoundNotBlock(t gpu.Thread, n int, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	if tid < n {
		s[tid] = a[tid]
		t.Barrier() // want "under the condition `tid < n`"
		a[tid] = s[n-1-tid]
	}
}

// n at least the block is enough, spelled as a lower bound.
//
//gpu:kernel
func BoundAtLeastBlock(t gpu.Thread, n int, a []float32) {
	if t.BlockDim().X > n {
		panic("n must be at least the block size")
	}
	tid := t.ThreadIdx().X
	if tid < n {
		t.Barrier()
	}
}

// At most the block is not.
//
//gpu:kernel
func BoundAtMostBlock(t gpu.Thread, n int, a []float32) {
	if n > t.BlockDim().X {
		panic("n must be at most the block size")
	}
	tid := t.ThreadIdx().X
	if tid < n {
		t.Barrier() // want "under the condition `tid < n`"
	}
}

// ---- an early return that a whole grid guard makes empty ----

// The grid covers n exactly: no thread returns.
//
//gpu:kernel
func ReturnGridExact(t gpu.Thread, n int, a []float32) {
	if n != t.GridDim().X*t.BlockDim().X {
		panic("the grid must cover n exactly")
	}
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	a[i] = 1
	t.Barrier()
}

//gpu:kernel
func ReturnGridAny(t gpu.Thread, n int, a []float32) {
	if n%t.BlockDim().X != 0 {
		panic("n must be a multiple of the block size")
	}
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	a[i] = 1
	t.Barrier()
}

// The same with the length of the slice and a block fixed to 256.
//
//gpu:kernel block=256
func ReturnLenMultiple(t gpu.Thread, a []float32) {
	if len(a)%256 != 0 {
		panic("len(a) must be a multiple of 256")
	}
	i := t.GlobalIdx().X
	if i >= len(a) {
		return
	}
	a[i] = 1
	t.Barrier()
}

//gpu:kernel block=256
func ReturnLenAny(t gpu.Thread, a []float32) {
	i := t.GlobalIdx().X
	if i >= len(a) {
		return
	}
	a[i] = 1
	t.Barrier() // want "some threads return \\(or panic\\) before it"
}

// ---- a block-dimension guard ----

// With 256 threads, tid < 256 holds for every one.
//
//gpu:kernel
func BlockIs256(t gpu.Thread, a []float32) {
	if t.BlockDim().X != 256 {
		panic("launch blocks of 256 threads")
	}
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	if tid < 256 {
		s[tid] = a[tid]
		t.Barrier()
	}
}

//gpu:kernel
func BlockAny256(t gpu.Thread, a []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	if tid < 256 {
		s[tid] = a[tid]
		t.Barrier() // want "under the condition `tid < 256`"
	}
}

// A guard that returns instead of panicking states the same fact.
//
//gpu:kernel
func BlockIs256Return(t gpu.Thread, a []float32) {
	if t.BlockDim().X != 256 {
		return
	}
	tid := t.ThreadIdx().X
	if tid < 256 {
		t.Barrier()
	}
}

// A guard below the barrier does not hold where it runs.
//
//gpu:kernel
func GuardTooLate(t gpu.Thread, a []float32) {
	tid := t.ThreadIdx().X
	if tid < 256 {
		t.Barrier() // want "under the condition `tid < 256`"
	}
	if t.BlockDim().X != 256 {
		panic("launch blocks of 256 threads")
	}
}

// ---- a guard tested through a device function's barrier ----

func sync(t gpu.Thread) { t.Barrier() }

//gpu:kernel
func DeviceBarrierGuarded(t gpu.Thread, n int, a []float32) {
	if n%t.BlockDim().X != 0 {
		panic("n must be a multiple of the block size")
	}
	for i := t.ThreadIdx().X; i < n; i += t.BlockDim().X {
		a[i] = 0
		sync(t)
	}
}

//gpu:kernel
func DeviceBarrierUnguarded(t gpu.Thread, n int, a []float32) {
	for i := t.ThreadIdx().X; i < n; i += t.BlockDim().X {
		a[i] = 0
		sync(t) // want "call of sync, which reaches a barrier, may be reached by only some threads"
	}
}

// ---- nested: a 2-D tile loop over rows of a multiple of the block ----

//gpu:kernel
func TileRowsGuarded(t gpu.Thread, rows, cols int, a []float32) {
	if rows%t.BlockDim().Y != 0 || cols%t.BlockDim().X != 0 {
		panic("rows and cols must be multiples of the block")
	}
	s := gpu.Shared[[16][16]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	for r := ty; r < rows; r += t.BlockDim().Y {
		for c := tx; c < cols; c += t.BlockDim().X {
			s[ty%16][tx%16] = a[r*cols+c]
			t.Barrier()
		}
	}
}

//gpu:kernel
func TileRowsHalfGuarded(t gpu.Thread, rows, cols int, a []float32) {
	if rows%t.BlockDim().Y != 0 {
		panic("rows must be a multiple of the block")
	}
	s := gpu.Shared[[16][16]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	for r := ty; r < rows; r += t.BlockDim().Y {
		for c := tx; c < cols; c += t.BlockDim().X {
			s[ty%16][tx%16] = a[r*cols+c]
			t.Barrier() // want "trip count differs"
		}
	}
}

// ---- guards that do not make the trip count uniform ----

// Starting one past the thread index, the last thread runs one iteration
// fewer than the others even when n is a multiple of the block.
//
//gpu:kernel
func StrideLoopShifted(t gpu.Thread, n int, a []float32) {
	if n%t.BlockDim().X != 0 {
		panic("n must be a multiple of the block size")
	}
	for i := t.ThreadIdx().X + 1; i < n; i += t.BlockDim().X {
		a[i] = 0
		t.Barrier() // want "trip count differs"
	}
}

// A stride of two blocks over a multiple of the block is in fact uniform
// (thread tid runs ceil((n − tid)/2B) iterations, the same for every
// tid < B), but the solver relates B·q and B·k only through B·(k − q), not
// B·(2k − q): a known false positive, kept here so that a change shows.
//
//gpu:kernel
func StrideLoopDoubleStride(t gpu.Thread, n int, a []float32) {
	if n%t.BlockDim().X != 0 {
		panic("n must be a multiple of the block size")
	}
	for i := t.ThreadIdx().X; i < n; i += 2 * t.BlockDim().X {
		a[i] = 0
		t.Barrier() // want "trip count differs"
	}
}

// A data-dependent break inside the guarded loop is still divergent.
//
//gpu:kernel
func StrideLoopBreak(t gpu.Thread, n int, a []float32) {
	if n%t.BlockDim().X != 0 {
		panic("n must be a multiple of the block size")
	}
	for i := t.ThreadIdx().X; i < n; i += t.BlockDim().X {
		if a[i] < 0 {
			break
		}
		t.Barrier() // want "break"
	}
}
