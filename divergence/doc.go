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
// threads ("depends on ThreadIdx at line 12"). Conditions on kernel
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
// For the commonest bug, an early `if i >= n { return }` at the top of a
// kernel whose body later calls t.Barrier() at its top level, the analyzer
// suggests a fix: the work between barriers moves under `if i < n { ... }`,
// and the barriers stay where every thread reaches them.
package divergence
