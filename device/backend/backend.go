// Package backend is the contract between the host runtime (package device)
// and its backends (device/cpu, device/cuda, ...). Package device checks every
// argument before it reaches a backend, so backends may trust what they get.
package backend

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// Backend runs kernels on one kind of hardware. Methods are called from one
// goroutine at a time per Device unless the backend says otherwise; package
// device serialises them.
type Backend interface {
	// Name is "cpu", "cuda" or "vulkan" for the backends built in.
	Name() string
	// Alloc returns n zeroed elements of type elem in device memory.
	Alloc(elem reflect.Type, n int) (Memory, error)
	// Write copies src (a slice of the memory's element type, of its
	// length) into device memory.
	Write(dst Memory, src reflect.Value) error
	// Read copies device memory into dst (a slice of the same length). It
	// waits for launched work first, and returns a trap of that work as its
	// error.
	Read(dst reflect.Value, src Memory) error
	// Free releases device memory.
	Free(m Memory) error
	// Launch starts kernel k; it may return before the kernel finishes.
	Launch(k *Kernel, grid, block gpu.Dim3, args []Arg) error
	// Sync waits for every launched kernel and returns the first trap.
	Sync() error
	// Close releases the backend's resources.
	Close() error
}

// Memory is a backend's handle for one allocation.
type Memory interface {
	// Len is the number of elements.
	Len() int
}

// Owned is a backend's own Memory type, which knows whether it was freed.
type Owned interface {
	Memory
	comparable
	Freed() bool
}

// Own returns m as backend's memory type M for the use what ("Write",
// "kernel K, argument 2"), or an error naming both when m is not one (nil,
// or another backend's) or was freed: the check every backend makes
// before it touches memory it was handed.
func Own[M Owned](m Memory, backend, what string) (M, error) {
	mm, ok := m.(M)
	var zero M
	if !ok || mm == zero {
		return zero, fmt.Errorf("%s backend: %s: memory %T that the %s backend did not allocate", backend, what, m, backend)
	}
	if mm.Freed() {
		return zero, fmt.Errorf("%s backend: %s: freed memory", backend, what)
	}
	return mm, nil
}

// Arg is one kernel argument after the gpu.Thread: a device buffer for a
// slice parameter, a value for any other.
type Arg struct {
	Mem   Memory        // slice parameters
	Value reflect.Value // scalar and struct parameters
}

// Kernel describes one kernel to the backends.
type Kernel struct {
	// Name is the kernel's qualified name, "import/path.Func".
	Name string
	// Pos is the file:line of the kernel's declaration.
	Pos string
	// Func is the Go function; the cpu backend calls it.
	Func reflect.Value
	// Params are the types of the parameters after the gpu.Thread.
	Params []reflect.Type
	// Block and Grid are the shapes fixed by //gpu:kernel block= and grid=;
	// a zero X means the shape is free.
	Block, Grid gpu.Dim3
	// Dims is 1, 2 or 3: the number of leading dimensions the kernel reads
	// of any index or extent. Launches use extent 1 beyond it.
	Dims int
	// Code holds the compiled forms registered for this kernel (by code that
	// `gpukvet gen` wrote); nil when only the cpu backend can run it.
	Code *Code
	// CPU is the cpu backend's direct entry to the kernel, written by
	// `gpukvet gen`; nil when the kernel has no generated code, and the cpu
	// backend then calls Func through reflection.
	CPU *CPUCode
}

// CPUCode is the code that `gpukvet gen` writes for the cpu backend: a
// typed entry that calls the kernel without reflection.
type CPUCode struct {
	// Bind takes the launch's arguments after the gpu.Thread (a []T for a
	// slice parameter, the value itself for any other) and returns the
	// kernel with them bound, as thread, which runs one thread, and as
	// block, which runs every thread of a block as loops over the threads
	// (see CPUBlock); block is nil for a kernel with barriers that gen
	// could not split into such loops.
	Bind func(args []any) (thread func(gpu.Thread), block func(CPUBlock))
	// Spans says that block runs a span of blocks: the CPUBlock's Span
	// blocks from its Bid on along X (one row of the grid), as if their
	// threads were the rows of one block Span times as wide. gen sets it
	// for a kernel whose body reads neither its thread's nor its block's
	// index, only the global one, so that a worker runs a run of blocks
	// as one loop: each end of a loop costs a mispredicted branch and
	// the loads in flight, which a 256-thread saxpy block pays in full.
	Spans bool
}

// Code is a kernel compiled for the GPU backends.
type Code struct {
	// PTX is the text of a PTX module holding the kernel's entry point.
	PTX []byte
	// Entry is the kernel's entry-point name in the modules.
	Entry string
	// EntryNC, if set, is the entry point of the PTX variant that reads
	// the ReadOnly parameters (indices into Kernel.Params) through the
	// non-coherent cache; a backend may launch it only when no other
	// slice argument's buffer overlaps a ReadOnly one (codegen/ABI.md).
	EntryNC  string
	ReadOnly []int
	// EntryFast, if set, is the entry point of the variant compiled
	// assuming Facts: the kernel's tests of uniform values (parameters,
	// slice lengths, block and grid dimensions) that the optimizer
	// versioned code on hold, so it has neither the tests nor the slow
	// paths they guard. A backend may launch it only when Facts.Eval is
	// true for the launch's parameters and shape (codegen/ABI.md, "Launch
	// facts"); Entry is correct for every launch. EntryFastNC is the same
	// variant with EntryNC's non-coherent loads, under EntryNC's
	// condition as well; "" if there is none (a launch that may use both
	// then takes EntryFast; PTX only). The cuda backend launches them,
	// and the vulkan backend EntryFast when the SPIR-V module has an
	// entry point of that name (gpukvet gen's modules have it unless the
	// SPIR-V emitter could not express the variant; gen registers
	// EntryFast and Facts only when it embeds PTX too); both decide with
	// FactsHold. The cpu backend runs the Go function, which tests the
	// facts itself.
	EntryFast   string
	EntryFastNC string
	// Facts is the program that decides, at a launch, whether EntryFast
	// (EntryFastNC) may run; nil when there is no such variant.
	Facts *Facts
	// SourceHash identifies the kernel sources the code was compiled from,
	// so that a stale module is detected at launch.
	SourceHash string
	// Positions maps a trap's source-position id to "file:line".
	Positions []string
	// SPIRV is a SPIR-V module (Vulkan compute, internal/gpuabi's
	// push-constant layout) holding the kernel's entry point under the name
	// Entry; nil when the kernel was not compiled for Vulkan.
	SPIRV []byte
	// SPIRVFeatures names the optional device features the SPIR-V entry
	// point needs (codegen/ABI.md lists them: "float64", "int16", ...), so
	// a backend can refuse a launch on a device without them by name.
	SPIRVFeatures []string
}

// Facts and FactOp are internal/gpuabi's launch facts (its Facts.Eval
// evaluates them). They are aliases so that code written by `gpukvet gen`,
// which lives in user modules that cannot import the internal package,
// can spell a Code's Facts as a composite literal:
// &backend.Facts{Ops: []backend.FactOp{...}, Result: []int{...}}.
type (
	Facts  = gpuabi.Facts
	FactOp = gpuabi.FactOp
)

// Trap is the error of a kernel that trapped on a device: an index out of
// range, a division by zero, an explicit panic. Backends return it from Sync
// and Read so that every backend reports a trap the same way.
type Trap struct {
	// Kernel is the kernel's qualified name.
	Kernel string
	// Pos is the Go file:line where the trap happened, "" if unknown.
	Pos string
	// Block and Thread are the indices of the thread that trapped.
	Block, Thread gpu.Dim3
	// Msg says what happened, as Go's run-time panic would ("index out
	// of range [5] with length 4").
	Msg string
}

// ErrTrap is what errors.Is matches every *Trap to.
var ErrTrap = errors.New("kernel trapped")

// Is reports whether target is ErrTrap, so that errors.Is(err, ErrTrap)
// holds for a trap however it is wrapped.
func (t *Trap) Is(target error) bool { return target == ErrTrap }

func (t *Trap) Error() string {
	pos := t.Pos
	if pos == "" {
		pos = "unknown position"
	}
	return fmt.Sprintf("kernel %s trapped at %s in block (%d,%d,%d), thread (%d,%d,%d): %s",
		t.Kernel, pos, t.Block.X, t.Block.Y, t.Block.Z, t.Thread.X, t.Thread.Y, t.Thread.Z, t.Msg)
}

// ContextBackend is implemented by a backend whose waits can be bounded:
// package device calls these methods instead of Sync, Read and Write when
// a deadline applies. A backend without them is waited for on another
// goroutine, and abandoned (the device becomes unusable) when the deadline
// passes.
type ContextBackend interface {
	// SyncContext is Sync, returning a *TimeoutError when ctx is done first.
	SyncContext(ctx context.Context) error
	// ReadContext is Read, returning a *TimeoutError when ctx is done first.
	ReadContext(ctx context.Context, dst reflect.Value, src Memory) error
	// WriteContext is Write, returning a *TimeoutError when ctx is done
	// before the launched work that uses dst finishes.
	WriteContext(ctx context.Context, dst Memory, src reflect.Value) error
}

// Limiter is implemented by a backend that runs smaller launches than
// CUDA's limits allow (package device checks those for every backend).
type Limiter interface {
	// CheckShape returns an error saying which limit grid and block
	// exceed, or nil.
	CheckShape(grid, block gpu.Dim3) error
}

// TimeoutError is the error of a wait whose deadline passed before the
// launched work finished.
type TimeoutError struct {
	// Kernel is the qualified name of the kernel that was running.
	Kernel string
	// Err is the context's error (context.DeadlineExceeded or Canceled).
	Err error
	// Stopped reports that the backend stopped the kernel, so that the
	// device stays usable (the kernel's outputs are partly written). When
	// false the kernel may still be running and the device is unusable.
	Stopped bool
	// Detail says how the kernel was (or could not be) stopped.
	Detail string
}

func (e *TimeoutError) Error() string {
	s := fmt.Sprintf("kernel %s did not finish before the deadline (%v)", e.Kernel, e.Err)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// ErrTimeout is what errors.Is matches every *TimeoutError to.
var ErrTimeout = errors.New("deadline passed")

// Is reports whether target is ErrTimeout (errors.Is also finds the
// context's error through Unwrap).
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// ScalarKind reports whether k is a kind a kernel takes by value as a
// scalar (bool, integers, floats): the one list the GPU backends marshal.
func ScalarKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}
