// Package twothread is the two-thread model of a GPU kernel that the races
// and divergence checks share: it decides questions about two symbolic
// threads of one launch with a small integer solver.
//
// The model. New lays out a kernel's SSA form as one graph, with the device
// functions of its package inlined at each call, cut into barrier
// intervals (Interval: the regions that barrier-free paths connect), and
// collects its memory accesses (Access: loads, stores and atomics on
// gpu.Shared variables and slice parameters, each an Object and an element
// path). A question speaks of two threads, 1 and 2. Every integer value
// the question needs is a polynomial over symbolic variables: the launch's
// variables (BlockDim, GridDim, the kernel's integer parameters, slice
// lengths), each thread's own (ThreadIdx, BlockIdx, GlobalIdx) and, for
// values outside the model (a load, a float), fresh unknowns. A value the
// two threads share (uniform, and at the same dynamic instance for both:
// the uniformity analysis and this package's rules decide it) is one
// variable; any other value is two copies, one per thread. Range facts (0 ≤
// ThreadIdx < BlockDim ≤ the target's limits), the branch conditions that
// hold where each thread is (through bool values held in variables:
// flags, && and || locals, device functions' bools; a flag set in an
// earlier iteration of a loop is read with that iteration's values,
// loopinst.go), loop induction
// variables, integers set in branches, division and remainder (by a
// shared divisor of either sign, truncated as Go does; a quotient by a
// divisor that is not a constant is bounded by what the ranges of the
// dividend's variables give, asked only of a pair not refuted without it
// and within a budget, divmod.go), shifts by a
// shared count (2^k as a variable, shift.go), x ^ j
// partners and atomic slot hand-outs (also published to a block through a
// shared cell, and block counts claimed by a global add: counts.go)
// become polynomial constraints; a pair the solver does not
// refute is asked again with the row-major facts of its indices. The constraints are then linearised (a product of a shared
// value and a linear form becomes a variable with a case split on signs)
// into a problem of package lincon, which answers infeasible (the two
// threads cannot be so), feasible with a model, or unknown. Infeasible is
// always right, so a check that treats the other answers as "may happen"
// is sound.
//
// The questions.
//
//   - Kernel.Collide: can two distinct threads (of one block, in one
//     interval, or of two blocks) make a pair of accesses to the same
//     element? A feasible answer comes with a witness naming the threads
//     and elements (Collision). Kernel.SameBlockApart settles most pairs of
//     straight-line code by their affine indices before any problem is
//     built. Kernel.IndexApart asks the same question by the indices
//     alone, remembered by what the two indices share and how they
//     differ, so that one solve settles every pair of straight-line code
//     with one index difference (apart.go). The races check asks these.
//   - Agreement.Agree: do two threads of one block take a branch the same
//     way at the same execution of it, given the facts that hold there?
//     The divergence check asks it of the branches that decide whether
//     threads reach a barrier.
//   - Kernel.Guard and Agreement.Guard: which precondition on the kernel's
//     sizes (Guard, `if n%t.BlockDim().X != 0 { panic(…) }`) makes the
//     answer no? Each candidate is asked again with its negation as a
//     fact, within a budget of solver work.
//   - Kernel.Replay and Kernel.CollideAgain: a collision's witness as a
//     concrete launch that package internal/replay runs, and the pair
//     question asked again after a replay refuted its witness (every index
//     in bounds, that launch and those threads excluded).
//
// The solver's answers are remembered per kernel: the pairs of a kernel
// often build the same problem.
package twothread
