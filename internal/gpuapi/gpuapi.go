package gpuapi

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
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
	numKinds
)

// api is each Kind's receiver type name ("" for a function) and name.
var api = [numKinds]struct{ recv, name string }{
	ThreadIdx:            {"Thread", "ThreadIdx"},
	BlockIdx:             {"Thread", "BlockIdx"},
	BlockDim:             {"Thread", "BlockDim"},
	GridDim:              {"Thread", "GridDim"},
	GlobalIdx:            {"Thread", "GlobalIdx"},
	Barrier:              {"Thread", "Barrier"},
	Shared:               {"", "Shared"},
	AtomicAdd:            {"", "AtomicAdd"},
	AtomicMin:            {"", "AtomicMin"},
	AtomicMax:            {"", "AtomicMax"},
	AtomicExchange:       {"", "AtomicExchange"},
	AtomicCompareAndSwap: {"", "AtomicCompareAndSwap"},
}

// byName maps "Thread.Barrier" and "AtomicAdd" (Kind.Selector) to the Kind.
var byName = func() map[string]Kind {
	m := map[string]Kind{}
	for k := None + 1; k < numKinds; k++ {
		m[k.Selector()] = k
	}
	return m
}()

// String returns the API name without its receiver, e.g. "ThreadIdx",
// "AtomicAdd" (the name diagnostics use); "None" for None.
func (k Kind) String() string {
	if k == None || k >= numKinds {
		return "None"
	}
	return api[k].name
}

// Selector returns the name qualified by its receiver type, e.g.
// "Thread.Barrier" or "Shared" (the name after "gpu.").
func (k Kind) Selector() string {
	if k == None || k >= numKinds || api[k].recv == "" {
		return k.String()
	}
	return api[k].recv + "." + api[k].name
}

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
func IsPackage(pkg *types.Package) bool { return pkg != nil && pkg.Path() == Path }

// Func returns the Kind of a function or method object: its origin if it
// is an instantiation of a generic function (gpu.Shared[T], the atomics).
// A method of gpu.Thread is recognized whether it was selected on a value
// or on a pointer, as both select the one declared method.
func Func(obj *types.Func) Kind {
	if obj == nil {
		return None
	}
	obj = obj.Origin()
	if !IsPackage(obj.Pkg()) {
		return None
	}
	name := obj.Name()
	if recv := obj.Signature().Recv(); recv != nil {
		n := named(recv.Type())
		if n == nil {
			return None
		}
		name = n.Obj().Name() + "." + name
	}
	return byName[name]
}

// Callee returns the Kind of the function an SSA call statically calls:
// a declared function or method, an instance of a generic one, or one of
// the wrappers go/ssa makes for a method of gpu.Thread (through a pointer
// receiver, a method value or a method expression). nil is None.
func Callee(fn *ssa.Function) Kind {
	if fn == nil {
		return None
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		if o := fn.Origin(); o != nil {
			obj, _ = o.Object().(*types.Func)
		}
	}
	return Func(obj)
}

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
	return isType(t, "Thread")
}

// IsDim3 reports whether t is gpu.Dim3 (not a pointer to it).
func IsDim3(t types.Type) bool { return isType(t, "Dim3") }

func isType(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && IsPackage(n.Obj().Pkg()) && n.Obj().Name() == name
}

// named returns the named type of a method receiver, through a pointer.
func named(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}
