package gpu

import (
	"runtime"

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
}

func dim(d [3]int) Dim3 { return Dim3{d[0], d[1], d[2]} }

// ThreadIdx returns the index of this thread within its block.
func (t Thread) ThreadIdx() Dim3 { return t.tid }

// BlockIdx returns the index of this thread's block within the grid.
func (t Thread) BlockIdx() Dim3 { return t.bid }

// BlockDim returns the number of threads per block in each dimension.
func (t Thread) BlockDim() Dim3 { return t.bdim }

// GridDim returns the number of blocks per grid in each dimension.
func (t Thread) GridDim() Dim3 { return t.gdim }

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
func (t Thread) Barrier() {
	var pc [1]uintptr
	runtime.Callers(2, pc[:])
	t.block().Barrier(pc[0])
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
func Shared[T any](t Thread) *T {
	var pc [1]uintptr
	runtime.Callers(2, pc[:])
	return t.block().Shared(pc[0], func() any { return new(T) }).(*T)
}
