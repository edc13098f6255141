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
//
// It is four words, the block (its index and the launch's shapes are read
// through it) and the thread's index in the block, which the Go compiler
// keeps in registers (it does so for structs of at most four words), so
// that the cpu backend's loop over a block's threads costs about what a
// loop over the elements does.
type Thread struct {
	// device/backend's CPUBlock.Thread builds the Threads of the cpu
	// backend's generated loops from a struct of these fields
	// (backend.thread, which its TestThreadLayout keeps identical).
	blk *cpuexec.Block
	tid Dim3
}

func init() {
	cpuexec.Runner = func(body any) func(b *cpuexec.Block, tid [3]int) {
		f := body.(func(Thread))
		return func(b *cpuexec.Block, tid [3]int) {
			f(Thread{blk: b, tid: dim(tid)})
		}
	}
}

// The launch's deadline: BlockDim and GridDim check whether the launch was
// stopped (a grid-stride loop calls them in its post statement), and so do
// Barrier, Shared and the generated block loops (between two rows of threads); the index
// methods do not, so that a kernel that only reads its indices stays small
// enough for the compiler to inline into the cpu backend's block loop.

func dim(d [3]int) Dim3 { return Dim3{d[0], d[1], d[2]} }

// ThreadIdx returns the index of this thread within its block.
func (t Thread) ThreadIdx() Dim3 {
	return t.tid
}

// BlockIdx returns the index of this thread's block within the grid.
func (t Thread) BlockIdx() Dim3 {
	if t.blk == nil {
		return Dim3{}
	}
	return dim(t.blk.Bid)
}

// BlockDim returns the number of threads per block in each dimension.
func (t Thread) BlockDim() Dim3 {
	if t.blk == nil {
		return Dim3{}
	}
	t.blk.Poll()
	return dim(t.blk.Bdim)
}

// GridDim returns the number of blocks per grid in each dimension.
func (t Thread) GridDim() Dim3 {
	if t.blk == nil {
		return Dim3{}
	}
	t.blk.Poll()
	return dim(t.blk.Gdim)
}

// GlobalIdx returns BlockIdx*BlockDim + ThreadIdx in each dimension.
func (t Thread) GlobalIdx() Dim3 {
	if t.blk == nil {
		return t.tid
	}
	b := &t.blk.Base
	return Dim3{X: b[0] + t.tid.X, Y: b[1] + t.tid.Y, Z: b[2] + t.tid.Z}
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
