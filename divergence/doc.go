// Package divergence defines an Analyzer that reports barriers some threads
// of a block may not reach.
//
// # Analyzer divergence
//
// divergence: report a Barrier that only some threads of a block may reach
//
// Every thread of a block must reach the same Thread.Barrier call: on a GPU
// a barrier that only some threads reach hangs the block or silently
// corrupts the results, and the cpu backend reports it at run time. The
// analyzer proves, with the uniformity analysis (package uniformity), that
// each barrier of a kernel or device function is reached by all threads or
// by none, and reports one that may not be:
//
//   - under a condition that differs between threads (if, switch, && and
//     ||): if t.ThreadIdx().X < n { t.Barrier() };
//   - after a return or panic that only some threads take:
//     if i >= n { return } ... t.Barrier();
//   - after a break or continue that only some threads take;
//   - in a loop whose trip count differs between threads:
//     for k := 0; k < t.ThreadIdx().X; k++ { t.Barrier() };
//   - inside a device function called in any of these ways, or called with
//     an argument that differs between threads when whether the function
//     reaches its barrier depends on that parameter.
//
// The message names the condition, its line, and why it differs between
// threads ("depends on ThreadIdx at line 12"), never particular threads or
// parameter values: it states no witness that could fail to happen, so
// unlike the races check's witnesses there is none to replay (a test keeps
// it so); the condition (or the
// divergent argument) and, on another line, where threads start to differ
// come with it as related information (JSON "related", SARIF
// relatedLocations, LSP relatedInformation). Conditions on kernel
// parameters, BlockIdx, BlockDim, GridDim and constants are uniform, as are
// values loaded from memory at uniform addresses after a barrier, when no
// thread may write that memory between the barrier and the load: a flag or
// count that one thread stores, a barrier publishes, and every thread then
// tests (if amLast[0] { ... }, for k < s.n { ... }) is uniform even when
// threads go on to write their own slots of another field of the same
// shared struct, another row of the same array, or global slices chosen by
// a φ (swapped buffers); a write to the same memory in between (s.n[tid] =
// ...; if s.n[0] > 0) makes it divergent. An if that
// differs between threads but rejoins before the barrier is fine. A barrier
// that no execution reaches (under if debug && ... with a constant-false
// debug) is dead code and not reported.
//
// Preconditions. A kernel's guard at its top (`if cond { panic(…) }`, see
// DIALECT.md) holds on the rest of the kernel, and so do the other
// branches that lead to a barrier. When a condition that reads a thread
// index decides whether threads reach a barrier, the analyzer asks the
// two-thread solver it shares with the races check (package
// internal/twothread) whether two threads of one block can take it
// differently at the same execution given those facts, on the hypothesis
// that the threads agreed on every such condition before (so they run the
// loops around the barrier in step: a loop's induction variables count
// one iteration number for both). When they cannot, the
// barrier is reached by all threads or by none and is not reported:
//
//   - the block-stride loop for i := tid; i < n; i += t.BlockDim().X
//     with a barrier in its body, under n%t.BlockDim().X == 0 (or
//     n%128 == 0 with block=128 and a stride of 128): every thread runs
//     n/BlockDim iterations; in two dimensions, each loop under the guard
//     of its own dimension;
//   - if tid < n { … t.Barrier() … } under n == t.BlockDim().X or
//     n >= t.BlockDim().X, and if tid < 256 under t.BlockDim().X == 256;
//   - an early if i >= n { return } on the global index under
//     n == t.GridDim().X*t.BlockDim().X, or len(a)%256 == 0 with block=256.
//
// A guard that does not imply the agreement (n even for a block-stride
// loop, n at most the block for tid < n), or that runs after the barrier,
// changes nothing. Conditions on floats or on values outside the solver's
// model (loads at divergent addresses) are never taken to agree, and a
// barrier of a device function is decided inside it, without its callers'
// preconditions. The solver relates products of one block dimension only
// through their differences, so a stride of two blocks (i += 2*BlockDim)
// is still reported under n%BlockDim == 0, though its trip count is
// uniform.
//
// When such a barrier is divergent only for sizes a precondition would
// exclude, the message names the guard and offers it as a suggested fix
// (`if cond { panic("…") }` at the kernel's top): for a block-stride loop
// `n%t.BlockDim().X != 0`, for `if tid < n` `n < t.BlockDim().X`, for a
// loop over len(a) with block=256 `len(a)%256 != 0`. The candidates are
// those of the races check (`gpukvet -explain races`); one is offered only when the
// solver, asked again with it as a fact, finds that every controlling
// branch agrees and that threads still reach them. After an early return
// that only some threads take, the guard is only named: the fix below
// keeps the bounds check and serves every size.
//
// For the commonest bug, an early `if i >= n { return }` at the top of a
// kernel whose body later calls t.Barrier() at its top level, the analyzer
// suggests a fix: the work between barriers moves under `if i < n { ... }`,
// and the barriers stay where every thread reaches them.
package divergence
