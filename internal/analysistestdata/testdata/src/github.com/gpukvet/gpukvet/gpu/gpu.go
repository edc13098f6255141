// Package gpu is a stub of github.com/gpukvet/gpukvet/gpu for analysistest:
// the same exported names and signatures, no behavior, no imports.
package gpu

type Dim3 struct{ X, Y, Z int }

type Thread struct{ tid, bid, bdim, gdim Dim3 }

func (t Thread) ThreadIdx() Dim3 { return t.tid }
func (t Thread) BlockIdx() Dim3  { return t.bid }
func (t Thread) BlockDim() Dim3  { return t.bdim }
func (t Thread) GridDim() Dim3   { return t.gdim }
func (t Thread) GlobalIdx() Dim3 {
	return Dim3{t.bid.X*t.bdim.X + t.tid.X, t.bid.Y*t.bdim.Y + t.tid.Y, t.bid.Z*t.bdim.Z + t.tid.Z}
}
func (t Thread) Barrier() {}

func Shared[T any](t Thread) *T { return new(T) }

func AtomicAdd[T int32 | uint32 | int64 | uint64 | float32 | float64](addr *T, v T) T {
	old := *addr
	*addr += v
	return old
}

func AtomicMin[T int32 | uint32 | int64 | uint64](addr *T, v T) T {
	old := *addr
	*addr = min(old, v)
	return old
}

func AtomicMax[T int32 | uint32 | int64 | uint64](addr *T, v T) T {
	old := *addr
	*addr = max(old, v)
	return old
}

func AtomicExchange[T int32 | uint32 | int64 | uint64 | float32 | float64](addr *T, v T) T {
	old := *addr
	*addr = v
	return old
}

func AtomicCompareAndSwap[T int32 | uint32 | int64 | uint64](addr *T, old, new T) T {
	cur := *addr
	if cur == old {
		*addr = new
	}
	return cur
}
