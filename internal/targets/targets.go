// Package targets is the one description of what each GPU target can run:
// threads per block, block and grid extents, static shared memory per block,
// kernel parameter space and local memory per thread. The directive parser
// (internal/directive), kernel discovery (internal/kernels, whose problems
// the memspace check reports), the compiler (codegen) and the runtime
// (device) all read it, so that a kernel the checks pass is one that every
// layer below accepts.
//
// Which limits the checks enforce: a kernel is checked statically against
// Static, the limits of the ptx target (CUDA), which are the ceiling of
// every target the compiler emits: desktop Vulkan devices report the same
// or less, and no device runs a shape beyond them. The spirv target has no
// fixed limits: a Vulkan 1.2 device guarantees only the spec's "Required
// Limits" (maxComputeWorkGroupInvocations 128, maxComputeWorkGroupSize
// 128×128×64, maxComputeWorkGroupCount 65535 per dimension,
// maxComputeSharedMemorySize 16384, maxPushConstantsSize 128, beyond which
// parameters go in an argument buffer: internal/gpuabi.LayoutPush) and most devices report far
// more (NVIDIA's: 1024 threads, 48 KiB, 256 bytes). Refusing a kernel beyond
// those minimums would refuse working CUDA kernels of users who build PTX
// only, so the checks do not; the vulkan backend checks each kernel at
// launch against what its device reports and names the device and the
// limit. So the checks refuse what no target can run, and Launch refuses
// what the chosen device cannot.
package targets

import "fmt"

// Limits is what one target guarantees a kernel.
type Limits struct {
	// Name names the target in messages.
	Name string
	// MaxThreadsPerBlock bounds the product of a block's extents.
	MaxThreadsPerBlock int
	// MaxBlock and MaxGrid bound each extent of a block and of a grid.
	MaxBlock, MaxGrid [3]int
	// MaxShared is the static shared memory of one block, in bytes: the
	// sum of the sizes of the gpu.Shared variables a kernel's call tree
	// declares.
	MaxShared int64
	// MaxParams is the space of a kernel's parameters, in bytes, laid out
	// as the target passes them (EntryParams), the trap record's address
	// included.
	MaxParams int
	// MaxLocal is the local memory of one thread, in bytes.
	MaxLocal int64
}

// PTX is the ptx target: CUDA devices of compute capability 7.0 and later
// (sm_70+; the PTX emitted is ISA 7.8). Sources: CUDA C++ Programming
// Guide, "Features and Technical Specifications" (1024 threads per block,
// block 1024×1024×64, grid (2^31−1)×65535×65535, 48 KiB of static shared
// memory per block, 512 KiB of local memory per thread) and "Function
// Parameters" (4096 bytes of __global__ parameters; CUDA 12.1 raised it to
// 32764 on sm_70+, but only for PTX ISA 8.1 and later, and ptxas 11.8
// refuses more than 4352).
var PTX = Limits{
	Name:               "ptx (CUDA sm_70 and later)",
	MaxThreadsPerBlock: 1024,
	MaxBlock:           [3]int{1024, 1024, 64},
	MaxGrid:            [3]int{1<<31 - 1, 65535, 65535},
	MaxShared:          48 << 10,
	MaxParams:          4096,
	MaxLocal:           512 << 10,
}

// MaxLocalVar is the most bytes one local variable of kernel code may take:
// the compiler's bound (codegen/lower keeps each such variable in the
// thread's local memory and zeroes it where it is declared), far below the
// local memory of every target (MaxLocal), so a kernel whose variables
// pass it fits any target unless it holds many of them at once.
const MaxLocalVar = 64 << 10

// LocalVarMessage says that local variable name takes size bytes, more than
// MaxLocalVar; the checks and the compiler word it alike.
func LocalVarMessage(name string, size int64) string {
	what := "local variable"
	if name != "" {
		what += " " + name
	}
	return fmt.Sprintf("%s of %d bytes is more than the %d bytes one local variable of a GPU thread may take; keep large data in a slice or in gpu.Shared memory", what, size, MaxLocalVar)
}

// Static is the description the checks and the compiler enforce before
// any device is known (see the package comment for why).
var Static = &PTX

// CheckBlock returns an error naming the limit and the target if a block
// of the given extents cannot run. Extents below 1 are the caller's
// concern.
func (l *Limits) CheckBlock(b [3]int) error {
	for i, n := range b {
		if n > l.MaxBlock[i] {
			return fmt.Errorf("block extent %d in %s is more than the %d of target %s", n, "XYZ"[i:i+1], l.MaxBlock[i], l.Name)
		}
	}
	if n := b[0] * b[1] * b[2]; n > l.MaxThreadsPerBlock {
		return fmt.Errorf("%d threads per block is more than the %d of target %s", n, l.MaxThreadsPerBlock, l.Name)
	}
	return nil
}

// CheckGrid returns an error naming the limit and the target if a grid of
// the given extents cannot be launched.
func (l *Limits) CheckGrid(g [3]int) error {
	for i, n := range g {
		if n > l.MaxGrid[i] {
			return fmt.Errorf("grid extent %d in %s is more than the %d of target %s", n, "XYZ"[i:i+1], l.MaxGrid[i], l.Name)
		}
	}
	return nil
}

// SharedMessage says that kernel uses total bytes of shared memory, more
// than the target has; the checks and the compiler word it alike.
func (l *Limits) SharedMessage(kernel string, total int64) string {
	return fmt.Sprintf("kernel %s declares %d bytes of gpu.Shared memory in its call tree, more than the %d bytes of static shared memory per block of target %s",
		kernel, total, l.MaxShared, l.Name)
}

// ParamsMessage says that kernel's parameters take bytes of parameter
// space, more than the target has.
func (l *Limits) ParamsMessage(kernel string, bytes int) string {
	return fmt.Sprintf("the parameters of kernel %s take %d bytes of parameter space, more than the %d bytes of target %s; pass large data in a slice",
		kernel, bytes, l.MaxParams, l.Name)
}

// Param is one entry parameter as the target passes it.
type Param struct {
	Size, Align int
}

// ParamBytes lays the entry parameters out in order, each aligned for
// itself, and returns the bytes they take.
func ParamBytes(params []Param) int {
	off := 0
	for _, p := range params {
		a := max(1, p.Align)
		off = (off+a-1)/a*a + p.Size
	}
	return off
}
