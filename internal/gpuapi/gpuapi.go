package gpuapi

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/apitable"
)

// Path is the import path of package gpu, the kernel-side API.
const Path = "github.com/gpukvet/gpukvet/gpu"

// Kind names one function or method of package gpu; None is anything else.
type Kind uint8

// The functions and methods of package gpu.
const (
	None Kind = iota
	// The index methods of gpu.Thread: each returns a gpu.Dim3.
	ThreadIdx
	BlockIdx
	BlockDim
	GridDim
	GlobalIdx
	// Barrier is gpu.Thread.Barrier, the block-wide barrier.
	Barrier
	// Shared is the generic gpu.Shared[T], block-shared memory.
	Shared
	// The generic atomic read-modify-write functions, each of which takes
	// the address it updates as its first argument and returns the old value.
	AtomicAdd
	AtomicMin
	AtomicMax
	AtomicExchange
	AtomicCompareAndSwap
	numKinds // the number of Kinds, None included
)

// api is the gpu package's API, one Entry per Kind.
var api = apitable.New[Kind](Path, []apitable.Entry{
	ThreadIdx:            {Recv: "Thread", Name: "ThreadIdx"},
	BlockIdx:             {Recv: "Thread", Name: "BlockIdx"},
	BlockDim:             {Recv: "Thread", Name: "BlockDim"},
	GridDim:              {Recv: "Thread", Name: "GridDim"},
	GlobalIdx:            {Recv: "Thread", Name: "GlobalIdx"},
	Barrier:              {Recv: "Thread", Name: "Barrier"},
	Shared:               {Name: "Shared"},
	AtomicAdd:            {Name: "AtomicAdd"},
	AtomicMin:            {Name: "AtomicMin"},
	AtomicMax:            {Name: "AtomicMax"},
	AtomicExchange:       {Name: "AtomicExchange"},
	AtomicCompareAndSwap: {Name: "AtomicCompareAndSwap"},
})

// String returns the API name without its receiver, e.g. "ThreadIdx",
// "AtomicAdd" (the name diagnostics use); "None" for None.
func (k Kind) String() string { return api.Name(k) }

// Selector returns the name qualified by its receiver type, e.g.
// "Thread.Barrier" or "Shared" (the name after "gpu.").
func (k Kind) Selector() string { return api.Selector(k) }

// IsThreadIndex reports whether k is one of the index methods of
// gpu.Thread (ThreadIdx, BlockIdx, BlockDim, GridDim, GlobalIdx), whose
// result is a gpu.Dim3.
func (k Kind) IsThreadIndex() bool { return k >= ThreadIdx && k <= GlobalIdx }

// PerThread reports whether k's result may differ between the threads of
// one block (ThreadIdx and GlobalIdx); BlockIdx, BlockDim and GridDim are
// the same for all of them.
func (k Kind) PerThread() bool { return k == ThreadIdx || k == GlobalIdx }

// IsBarrier reports whether k is the block-wide barrier.
func (k Kind) IsBarrier() bool { return k == Barrier }

// IsAtomic reports whether k is an atomic read-modify-write function.
func (k Kind) IsAtomic() bool { return k >= AtomicAdd && k <= AtomicCompareAndSwap }

// IsPackage reports whether pkg is package gpu.
func IsPackage(pkg *types.Package) bool { return api.IsPackage(pkg) }

// Func returns the Kind of a function or method object: its origin if it
// is an instantiation of a generic function (gpu.Shared[T], the atomics).
// A method of gpu.Thread is recognized whether it was selected on a value
// or on a pointer, as both select the one declared method.
func Func(obj *types.Func) Kind { return api.Func(obj) }

// Callee returns the Kind of the function an SSA call statically calls:
// a declared function or method, an instance of a generic one, or one of
// the wrappers go/ssa makes for a method of gpu.Thread (through a pointer
// receiver, a method value or a method expression). nil is None.
func Callee(fn *ssa.Function) Kind { return api.Callee(fn) }

// Call returns the Kind of the function that call c statically calls, or
// None for a dynamic call, a builtin or a function of another package.
func Call(c *ssa.CallCommon) Kind {
	if c == nil {
		return None
	}
	return Callee(c.StaticCallee())
}

// IsThread reports whether t is gpu.Thread or a pointer to it (a method
// receiver's type); a kernel's first parameter must be the value.
func IsThread(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return api.IsType(t, "Thread")
}

// IsDim3 reports whether t is gpu.Dim3 (not a pointer to it).
func IsDim3(t types.Type) bool { return api.IsType(t, "Dim3") }
