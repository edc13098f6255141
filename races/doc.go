// Package races defines an Analyzer that reports data races between the
// threads of a GPU kernel.
//
// # Analyzer races
//
// races: report two accesses to the same shared-memory or global-memory
// element by different threads, at least one a write and not both atomic,
// that nothing orders.
//
// Threads of one block are ordered only by a Barrier between the accesses;
// threads of different blocks are never ordered. For example, in
//
//	tile := gpu.Shared[[256]float32](t)
//	i := t.ThreadIdx().X
//	tile[i] = x[i]
//	y[i] = tile[i+1]
//
// is reported as "data race on shared tile: thread 1 writes tile[1] (line 3)
// while thread 0 reads tile[1] (line 4) with no barrier between": the read
// of tile[i+1] needs a t.Barrier() before it. The race is reported at the
// later access; the other one comes with it as related information (JSON
// "related", SARIF relatedLocations, LSP relatedInformation).
//
// How it decides. The kernel's SSA form, with the device functions of its
// package inlined at each call, is cut into barrier intervals: the regions
// that some barrier-free path connects (a barrier in a loop separates its
// iterations; a path around a loop's back edge with no barrier does not).
// For each pair of accesses to one object in one interval, the analysis
// builds integer constraints over two symbolic threads (the two-thread
// model of package internal/twothread, which the divergence check shares):
// their indices (0 ≤ ThreadIdx < BlockDim, with the block= shape when the
// kernel fixes one), uniform values both threads share (parameters,
// BlockIdx, BlockDim, counters of loops every thread runs in step), values
// private to each thread, the branch conditions that guard each access
// (if tid < s), and the equality of the two element indices. A small
// exact-where-possible solver for linear integer constraints (package
// internal/twothread/lincon) decides whether two distinct threads can
// meet; products of a uniform value and a thread index (2*s*tid,
// ty*BlockDim+tx) are case-split on signs, and x>>k, x/c, x%c,
// x&(2^k-1) get quotient and remainder variables (x/m and x%m for a
// uniform m with Go's truncated semantics: the remainder has x's sign,
// also for a negative m; the quotient is below c when the ranges bound x
// by m·c − 1, as a linear block id bx + gx·by is by gx·gy, so bid/gy < gx:
// a pair not refuted otherwise is asked again with that bound, within a
// budget of solver work), a shift by a uniform count that is not a
// constant (x<<k, x>>k, 1<<(a-b)) is a product with, or a quotient by, a
// variable 2^k ≥ k+1 (k ≥ 0: a negative count traps; exactly 2^k for
// k ≤ 4 when a witness is sought), as does x&(m-1) for a
// power-of-two loop counter m (doubled from 1: tid&(2*s-1) == 0); x|c
// and x^c for constants c change only the remainder below c's top bit.
// The solver drops the sign cases that the bounds of the problem refute (a
// block dimension ≥ 1 leaves two of a product's six) before and during its
// search, backjumps over cases a refutation did not use, and a kernel's
// pairs that build the same problem share one answer; an access paired with
// itself is symmetric in the two threads, so only thread 1 < thread 2 is
// decided. A device function with several returns yields one of its results
// under the conditions that lead to each. A feasible answer comes with a
// model, which the diagnostic reports as the two colliding threads and the
// element; when the indices involve values outside the model the diagnostic
// says "possible data race" and gives the model as an example.
//
// Everyday idioms it proves apart:
//
//   - Atomic slot hand-out: j := gpu.AtomicAdd(&count[0], K) gives the
//     threads values at least K apart while every write to the counter is
//     an add of a positive constant, so out[j] (and out[j+1] for K = 2)
//     never collide, across blocks too. A per-block counter in shared
//     memory that one thread resets before a barrier gives values distinct
//     within the block (same execution of the add) and never negative.
//   - Facts a kernel states with a uniform guard at its top (its
//     preconditions, see DIALECT.md): the guard's condition holds on the
//     rest of the kernel, and x/m and x%m of one x share their quotient and
//     remainder, so `if n%32 != 0 { panic(…) }` makes n/32 exact, and
//     `blockDim%32 == 0` makes blockIdx*(blockDim/32) + tid/32 distinct
//     per warp; `m&(m-1) == 0` makes x & (m-1) the remainder x mod m
//     (2*tid - (tid & (size-1)) in bitonic merges).
//   - Value ranges: a phi whose inputs are constants and ± constant updates
//     of itself is bounded by them (a flag that is 0 or 1 keeps out[2*i+f]
//     in the thread's pair; a counter from 0 that only grows, capped by a
//     test, keeps list[i*cap+count] in the thread's row).
//   - Ping-pong offsets and doubling steps: a loop value whose update
//     undoes itself, `first = NT - first` or `buf ^= c` from a constant,
//     takes its initial value and the other in alternate iterations (one
//     of the two for both threads at one iteration), so moderngpu's
//     CTAScan, which reads s[first+tid-offset] and writes s[(NT-first)+tid]
//     with one barrier per step, is silent, and a flip placed after the
//     store is reported; `offset += offset` grows like `offset *= 2`.
//   - Falling powers of two and bit fields: a power of two shifted right
//     or divided by a constant power of two is a power of two or zero
//     (`stride := n >> 2; stride >>= 2` from n = 1 << log2N, `stride :=
//     size / 2` of a doubling size), so x & (stride-1) is x mod stride
//     (x itself when stride is 0), as in fastWalshTransform's and odd-even
//     merge sort's butterflies. x | y and x ^ y whose operands can have no
//     bit set in common (masks `x & c`, shifted by constants) are x + y,
//     and x &^ (2^k - 1) is 2^k·(x / 2^k): a bank-spreading position
//     (tid &^ 63) | (tid&7)<<3 | (tid>>3)&7 is a permutation of the
//     block. A mask of a run of bits, x & 48, is not modelled.
//   - Highest bits: `for x&(x-1) != 0 { x &= x - 1 }` (the CUDA
//     Handbook's floorPow2) leaves the largest power of two not above x's
//     start v, so v < 2x; both threads past the loop see that one value.
//     The fold of a reduction for any block size, `if tid >= fp {
//     s[tid-fp] += s[tid] }`, is then race-free; `fp := blockDim/2` is not.
//   - A barrier under a uniform condition, in a device function or not: a
//     branch that one thread passed and the other has not reached yet is
//     taken with the values both see there (`if k+1 < n { t.Barrier() }`
//     skips only the last iteration's barrier).
//   - Bool values keep their meaning: a flag set in a loop
//     (`computed := false; for … { if c { computed = true } }; if
//     computed { out[x] = … }`), a condition computed before a barrier and
//     tested after it (`lastThread := lid+1 == n`), an && or || chain held
//     in a local (`inRegion := i > 0 && i < n-1`), a bool passed to or
//     returned by a device function, `ok == true`: the branch stands for
//     the decisions under which the value was set. A flag that may come
//     from an earlier iteration of a loop is read with that iteration's
//     values: the loop's counters and the values its body computes are
//     fresh ones for the iteration that set the flag (`holds := false; for
//     k := 0; k < 4; k++ { if 4*i+k == n-1 { holds = true } }; if holds {
//     out[n] = … }` has one writer, whichever k set it). When the flag is
//     read right after the iteration that set it (reset at the top of each
//     iteration, as Rodinia hotspot's `computed` is, or set in the last
//     one), that iteration's counter is the one before the loop's current
//     value, so the window `tx >= i+1` of hotspot's pyramid is the last
//     iteration's; a flag carried unchanged through an iteration was set in
//     some earlier one. Nested loops are followed too; a flag negated in
//     each iteration (`odd = !odd`) may have either value. A counter
//     tested at the bottom of its loop, as Go compiles `for k := range n`,
//     is below n in the body. An integer set in branches (`bx := b; if
//     d >= n { bx += d-n+1 }`) is one of its values under the branch that
//     set it.
//   - Tickets published through shared memory: `if tx == 0 { base[0] =
//     gpu.AtomicAdd(&count[0], 256) }; t.Barrier(); out[base[0]+tx]`.
//     Threads of different blocks read values of different executions of
//     the add, as far apart as its smallest addend, when every write to
//     the cell stores such an add, runs in every block (only thread-index-0
//     tests around it) and never after the load. Block counts too (stream
//     compaction, worklist pushes): each kept element takes a ticket from
//     a shared counter reset before a barrier (`pos :=
//     gpu.AtomicAdd(&cnt[0], 1)`), the leader claims the block's range
//     with one global add of the count after the next barrier (`base[0] =
//     gpu.AtomicAdd(&total[0], cnt[0])`, or `cnt[0] = …` in the count's
//     own cell), and out[base[0]+pos] of two blocks never meet: a global
//     counter whose every add adds a block count C keeps the values of two
//     executions C apart, and a ticket is in [0, C). A claim under a test
//     that may fail in every block (`tx == 0 && len(total) > 0`) leaves
//     the base undefined, and is reported.
//   - Row-major indices: r*w + c with 0 ≤ c < w names one cell, so tiles
//     of a wavefront (Rodinia nw: tiles of one anti-diagonal, their
//     coordinates from the block index and the diagonal number) are apart
//     when their rows or columns are. A pair the solver does not refute
//     is asked again with that fact for a width common to both indices. A
//     summand that is the width itself is a row too, so planes of one
//     slice at multiples of n = rows*w and neighbours one row away (Parboil
//     lbm's push: dst[n+i+w] with i = y*w + x is row rows+y+1) are apart.
//     When the index's SSA form hides the split (a cell index carried
//     through a loop, `c := i + j*w; …; c += w*h`, as Rodinia hotspot3D
//     walks its column), it is read off the index's polynomial, i + j·w +
//     k·w·h, and the row j + k·h is split again by h. A summand that is
//     the width itself is read both as a row and as a column, since in a
//     mirrored index it is a column: HeCBench matrix-rotate's
//     `last*w + last - offset`, last = w-1-layer, is row last, column
//     last-offset, so the rings of different layers are apart. A column
//     one past the row, c = w, is cell 0 of row r+1 (the ring written with
//     last = w-layer: ring 0's right column wraps onto its own left one).
//
// Which values both threads share comes from the uniformity analysis
// (package uniformity) together with this package's own conservative
// rules: a value counts as divergent when both say so. A uniform value
// defined inside a barrier interval on a barrier-free cycle (the counter
// of a loop with no barrier) may differ between the two threads, and one
// that one thread sees before a loop's barrier and the other after it is
// the loop's update of it.
//
// Global memory (slice parameters) is checked the same way within a block,
// and for threads of different blocks over all pairs of accesses in the
// kernel. Different slice parameters are assumed not to alias (Launch
// passes distinct buffers; passing one buffer twice is the caller's
// responsibility).
//
// What it reports. One diagnostic per object and line; a race with a
// concrete collision replaces a "possible" one at the same line, and makes
// the possible ones on the same object silent (the real pair comes first).
// A kernel that memspace rejects gets no possible race, only concrete ones.
// When the race exists only for sizes a precondition would exclude, the
// message names the guard and offers it as a suggested fix, `if cond {
// panic("…") }` inserted at the kernel's top. The candidates, tried in
// this order, are integer parameters that are zero, negative or 1 in the
// witness (`n < 1`, `tiles < 2`: an empty matrix, a single tile), a
// parameter above a slice's length (`n > len(a)`), a size below the block
// (`n < t.BlockDim().X`), a size that is not a multiple of the block
// (`len(in)%256 != 0`, `n%t.BlockDim().X != 0`) and a parameter that is
// not a power of two (`n&(n-1) != 0`; tried for "possible" races too,
// since it is what makes x & (n-1) a remainder). A guard is offered only
// when it holds in the witness, when every pair of accesses the
// diagnostic stands for (threads of one block and of different blocks)
// has no collision under its negation, asked of the solver again, and when
// the accesses still run under it (a guard that contradicts the kernel's
// own early return would remove its work, not its race). The search is
// budgeted in solver work (500 conjunctions per kernel, independent of the
// machine); past it the race is reported without a guard.
//
// Every witness is replayed before it is printed. The kernel's SSA runs
// (package internal/replay, an interpreter for the dialect's subset) under
// the witness's launch: its block and grid extents, parameter values and
// slice lengths, for the blocks of the two named threads only, with every
// thread of those blocks and barriers as phase boundaries. The witness is
// printed only when both accesses happen, by the named threads, in
// bounds, on the named element, in one barrier interval (or in different
// blocks). A witness that does not happen is not printed as a race:
//
//   - An index out of range is not an access: Go's bounds check traps
//     first. A witness such as "thread 0 and thread 1 both write m[-44]"
//     (w*i-44 with w = 0) traps on replay, and the pair is asked again with
//     every index in bounds, products included (the first question bounds
//     a global index by its slice's length only when it is linear); a clean
//     kernel is then silent, and m[w*i+44] is still reported at m[44]. An
//     index into a subslice is at or above its start and below its end
//     too (`row := a[i*w : (i+1)*w]; row[j]` keeps j in the row: gemver's
//     row slices; `row[col[i]]` with a column read from memory stays in
//     row i, as Rodinia streamcluster's `lower[center_table[…]]` does,
//     since a negative index traps).
//   - Otherwise the pair is asked again without that launch and those
//     threads, up to three times; what the solver leaves free is filled in
//     a few ways (the model's slice lengths and longer ones, zero and other
//     parameter values, memory of zeros and of ones).
//   - When the named threads do not meet but two other threads of the
//     replay do, at the same two accesses, that collision is printed: it
//     happened.
//   - When no witness happens, the finding is worded "possible data race
//     on … : could not prove that … never touch the same element …,
//     because the value of `j` at line 12 is not tracked (the solver's
//     example, … did not happen when replayed: why)", naming a value
//     outside the model that took part.
//
// Replay is bounded by a budget of instructions per kernel
// (replay.Budget, 2^17, over all its launches). A witness it cannot run
// (the budget, a package-level variable, a call outside the subset) is not
// printed as a race either: the finding is worded "possible data race on
// … : the write at line 160 and the read at line 163 may touch the same
// element …: the solver's example, thread (0,0) at as[0][0] and thread
// (1,0) at as[0][0], could not be replayed to confirm it (the replay ran
// out of its instruction budget)". A witness refuted under one way of
// filling in what it leaves free and not run under another counts as
// refuted, and is asked again. The replay computes the float functions of
// package math and those of gpu/math32 that are math's rounded to float32
// (Sqrt, Exp, Pow, …), and a negative signed shift count traps, as Go's
// does.
//
// Scale. A pair whose indices are affine in the thread index alone (as in
// straight-line or unrolled code: s[tid+256*j], s[tid*w+j]) is settled by
// a constant-time test before any pair problem is built: 1000 such
// accesses in one barrier interval take well under a second. In a kernel
// of more than 1000 pairs, every other pair is first asked by its indices
// alone (no path conditions, no bounds): that question depends only on
// the pair's nodes and on what its two indices share and how they differ,
// so the pairs of straight-line code with one index difference
// (out[g*400+3] against out[g*400+5], out[(y+i)*w+x+j] against
// out[(y+i+1)*w+x+j+2]) are decided by one solve between them, and only
// the pairs it does not set apart count against the budget: 400 global
// stores per thread (a tile of 40 rows of 10) are decided with no pair problem
// asked (bench/races-stores.txt). A kernel of fewer pairs asks that
// question first too, until 4 pairs were not set apart by it: where the
// indices alone keep the threads apart (a sort's partners computed with
// divisions and shifts by parameters) it is smaller than the full one,
// whose path conditions multiply the solver's cases; where they do not,
// it stops costing a question per pair. Past MaxPairs pair problems for one
// kernel the check stops and reports that it could not decide the kernel,
// a diagnostic at the kernel naming the object and accesses the budget
// ran out on; it never passes a kernel silently.
//
// Soundness and its limits. A value outside the model (a load, a float, a
// data-dependent index) is an unknown, different per thread unless it is
// uniform, so the analysis reports a possible race when the indices could
// not be proven distinct. Pointers and subslices returned by device
// functions are followed, and a phi whose incoming pointers are all the
// same object is that object; phis that swap shared arrays
// (src, dst = dst, src) are checked as each array they may name, and two
// of them at one execution of their loop name different arrays. Accesses
// through pointers it cannot trace to a Shared call or a slice parameter
// (another phi between different objects, a local array) are not checked, nor are device functions of other packages
// (their bodies are not available to the analysis of this package).
// Integer overflow of index arithmetic is ignored. Barrier intervals assume
// that every thread of a block reaches the same barriers, which the
// divergence check proves; a kernel it reports may hide races here.
package races
