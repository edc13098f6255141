package backend

import (
	"unsafe"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/cpuexec"
)

// CPUBlock is for the code that `gpukvet gen` writes, not for kernels nor
// for programs (the checks refuse it in kernels): it is one block of a
// launch on the cpu backend, which CPUCode's block function receives and
// runs as loops over its threads, each a copy of the kernel's body with the
// block's indices read once per block. A kernel without barriers is one
// loop, a kernel with barriers one loop per stretch between two barriers
// (the locals that live across a barrier kept per thread, in Locals), so
// that a barrier costs the end of a loop, not a switch between coroutines.
// The loops use the block's Index, Row, PhaseBarrier and PhaseUniform and
// its Locals, and for each thread Thread, or, where the thread's
// iteration has no use for its gpu.Thread, a store of its global X in
// Cursor.
type CPUBlock struct{ *cpuexec.Block }

// Thread returns thread (x, y, z) of the block and records x as the X of
// the thread that runs now, which a trap names (the loops record the row,
// Y and Z, once per row: Row).
//
// It is a few stores in the innermost loop of the cpu backend, which the
// compiler inlines: package gpu cannot export a constructor of gpu.Thread
// without showing it to every user, and a constructor it handed over as a
// function value would cost a call per thread, so Thread builds the value
// from its representation, thread, which TestThreadLayout keeps identical
// to gpu.Thread's.
func (b CPUBlock) Thread(x, y, z int) gpu.Thread {
	b.Cursor[0] = b.Base[0] + x
	t := thread{blk: b.Block, tid: gpu.Dim3{X: x, Y: y, Z: z}}
	return *(*gpu.Thread)(unsafe.Pointer(&t))
}

// thread has gpu.Thread's fields: the block and the thread's index in it.
type thread struct {
	blk *cpuexec.Block
	tid gpu.Dim3
}
