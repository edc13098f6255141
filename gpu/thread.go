package gpu

import (
	"github.com/gpukvet/gpukvet/internal/cpuexec"
)

// Dim3 is a three-dimensional index or extent. Unused dimensions are 0 in an
// index and 1 in an extent.
type Dim3 struct{ X, Y, Z int }

// Thread identifies one thread of a kernel launch. It is passed by the
// runtime as the first argument of every kernel and may be passed on to
// device functions; it cannot be built by user code.
type Thread struct {
	blk                  *cpuexec.Block
	tid, bid, bdim, gdim Dim3
}

func init() {
	cpuexec.NewThread = func(b *cpuexec.Block, tid, bid, bdim, gdim [3]int) any {
		return Thread{blk: b, tid: dim(tid), bid: dim(bid), bdim: dim(bdim), gdim: dim(gdim)}
	}
	cpuexec.Runner = func(body any) func(b *cpuexec.Block, tid, bid, bdim, gdim [3]int) {
		f := body.(func(Thread))
		return func(b *cpuexec.Block, tid, bid, bdim, gdim [3]int) {
			f(Thread{blk: b, tid: dim(tid), bid: dim(bid), bdim: dim(bdim), gdim: dim(gdim)})
		}
	}
}

// CPUNext is for the code that `gpukvet gen` writes for the cpu backend, not
// for kernels (the checks refuse it there): it makes t the next thread of its
// block, X fastest, and reports false after the last one. A generated loop
// over a block's threads calls the kernel directly, so the compiler can
// inline it, and a block of a kernel without barriers costs about what a Go
// loop over its elements does.
func (t *Thread) CPUNext() bool {
	t.tid.X++
	if t.tid.X == t.bdim.X {
		t.tid.X = 0
		t.tid.Y++
		if t.tid.Y == t.bdim.Y {
			t.tid.Y = 0
			t.tid.Z++
			if t.tid.Z == t.bdim.Z {
				return false
			}
		}
	}
	if t.blk != nil {
		t.blk.Cursor++
		t.blk.Poll()
	}
	return true
}

// poll ends the thread if its launch was stopped (it passed its deadline).
// BlockDim and GridDim call it (a grid-stride loop calls them in its post
// statement), and so do Barrier, Shared and CPUNext (between two threads of
// a block loop); the index methods do not, so that a kernel that only reads
// its indices stays small enough for the compiler to inline into the cpu
// backend's block loop.
func (t Thread) poll() {
	if t.blk != nil {
		t.blk.Poll()
	}
}

func dim(d [3]int) Dim3 { return Dim3{d[0], d[1], d[2]} }

// ThreadIdx returns the index of this thread within its block.
func (t Thread) ThreadIdx() Dim3 {
	return t.tid
}

// BlockIdx returns the index of this thread's block within the grid.
func (t Thread) BlockIdx() Dim3 {
	return t.bid
}

// BlockDim returns the number of threads per block in each dimension.
func (t Thread) BlockDim() Dim3 {
	t.poll()
	return t.bdim
}

// GridDim returns the number of blocks per grid in each dimension.
func (t Thread) GridDim() Dim3 {
	t.poll()
	return t.gdim
}

// GlobalIdx returns BlockIdx*BlockDim + ThreadIdx in each dimension.
func (t Thread) GlobalIdx() Dim3 {
	return Dim3{
		X: t.bid.X*t.bdim.X + t.tid.X,
		Y: t.bid.Y*t.bdim.Y + t.tid.Y,
		Z: t.bid.Z*t.bdim.Z + t.tid.Z,
	}
}

// Barrier waits until every thread of the block has reached it. Shared and
// global memory writes made before it are visible to every thread of the
// block after it. Every thread of the block must reach the same barrier: the
// divergence check proves it statically, and the runtime reports a barrier
// that some threads never reach as an error instead of hanging.
//
//go:noinline
func (t Thread) Barrier() {
	// callerPC needs Barrier's own frame: hence noinline.
	t.block().Barrier(callerPC())
}

func (t Thread) block() *cpuexec.Block {
	if t.blk == nil {
		panic("gpu: Thread used outside a kernel launch (threads are created by device.Launch)")
	}
	return t.blk
}

// Shared returns this block's instance of a block-shared variable of type T:
// one instance per Shared call expression in the source, per block, whatever
// the number of callers of the function it sits in (as CUDA's __shared__). T
// is a fixed-size array type such as [256]float32 or [16][17]float32. Its
// contents are undefined until written.
//
//go:noinline
func Shared[T any](t Thread) *T {
	// callerPC needs Shared's own frame: hence noinline.
	return t.block().Shared(callerPC(), func() any { return new(T) }).(*T)
}
