// Package replay runs a kernel's SSA form for a few blocks of one concrete
// launch, to check a witness the two-thread model printed: that two named
// threads really make two named accesses to one element with no barrier
// between them (races), or that named threads really reach or skip a
// barrier (divergence).
//
// It is a small interpreter for the dialect's SSA subset, below the checks
// and beside the two-thread model (kernel IR and the device backends sit
// above the checks): integers of every width with Go's wrap-around, floats,
// bools, pointers into slices, arrays and structs, gpu.Shared variables
// (one per Shared call position and block), the gpu.Thread methods,
// barriers, atomics, the builtins kernels use (len, cap, min, max, and
// copy between slices, its reads and writes watched at the call) and calls
// of device functions. Each thread is a stack of frames, so that it can stop at a
// barrier in a device function; the threads of a block run one after
// another up to their next barrier, and a barrier opens when every thread
// that has not returned waits at one. A barrier interval is a phase: two
// accesses of one block are unordered when their threads made them in the
// same phase, and accesses of different blocks are never ordered.
//
// An index out of bounds, a division by zero, a nil dereference or a
// panic stops its thread (a precondition's panic("…") included: its
// argument is an interface the replay makes but never reads; Go's bounds check comes before the access, so an
// out-of-range index is no access at all). Global slices have the lengths
// the witness gives and start with one value in every element (Launch.Data).
// A Runner serves the witnesses of one kernel: the runs of one launch are
// shared, each block running once and recording every access to shared
// and global memory, and all runs together are bounded by a budget of
// instructions. The budget, an instruction or call outside the subset, or
// a failure of the interpreter gives Unknown, which the checks treat as
// "could not replay", never as a refutation.
package replay
