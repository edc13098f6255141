// Package cpuexec holds the state that the cpu backend shares between the
// threads of one block: the barrier and the block-shared variables. Package gpu
// calls into it from Thread's methods; package device/cpu creates blocks and
// threads. It is internal because neither side may be reached by users.
package cpuexec

// NewThread makes a gpu.Thread for a thread of block b. Package gpu sets it
// in its init function, so that this package need not import gpu (which
// imports it).
var NewThread func(b *Block, threadIdx, blockIdx, blockDim, gridDim [3]int) any

// Block is the shared state of one block of a cpu launch.
//
// TODO(cpu backend): the full implementation (barrier with divergence and
// early-exit detection, abort on a trap) lives with the cpu backend.
type Block struct{}

// Barrier blocks until every live thread of the block has reached a barrier;
// pc identifies the barrier's call site for error messages.
func (b *Block) Barrier(pc uintptr) { panic("cpuexec: not implemented") }

// Shared returns the block's instance of the shared variable whose Shared
// call sits at pc, creating it with alloc on first use.
func (b *Block) Shared(pc uintptr, alloc func() any) any { panic("cpuexec: not implemented") }
