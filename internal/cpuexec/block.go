// Package cpuexec holds the state that the cpu backend shares between the
// threads of one block: the barrier and the block-shared variables. Package gpu
// calls into it from Thread's methods; package device/cpu creates blocks and
// threads, and hands a block to the loops that gpukvet gen writes as a
// backend.CPUBlock. It is internal because neither side may be reached by
// users.
//
// Every operation takes the block's mutex, so Go's race detector sees a
// barrier as the ordering it is: every write a thread makes before a barrier
// happens before every access another thread of the block makes after it.
package cpuexec

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// Runner is set by package gpu in its init function (so that this package
// need not import gpu, which imports it): given body, a func(gpu.Thread),
// it returns a function that runs body as thread tid of block b, building
// the gpu.Thread without boxing it in an interface, so that the cpu backend
// calls a kernel per thread at the cost of a function call.
var Runner func(body any) func(b *Block, tid [3]int)

// Block is the shared state of one block of a cpu launch. The runner of each
// thread calls Exit when the thread's kernel function returns, and Trap when
// it panics; the kernel's calls to Barrier and Shared arrive here through
// gpu.Thread. A Block is reused for block after block with Reset.
//
// Go's race detector treats every lock, atomic operation and channel
// operation as ordering the goroutines involved, so a Block synchronises its
// threads only where a GPU orders them, at a barrier: Exit and the lookup of
// an existing shared variable order nothing between threads. Otherwise the
// race detector would miss races in kernels whose threads happen to run one
// after another.
type Block struct {
	kernel string // qualified kernel name, for errors
	n      int    // threads per block

	// exited counts the threads that returned, and firstExit is the first;
	// waiting counts the threads waiting at the current barrier, changed
	// under mu. Exit increments exited and then reads waiting; Barrier
	// increments waiting and then reads exited: with sequentially
	// consistent atomics at least one of them sees the other, so a thread
	// that returns while others wait at a barrier is always detected.
	exited    atomic.Int32
	firstExit atomic.Pointer[[3]int]
	waiting   atomic.Int32

	// shared maps the pc of a Shared call to its instance; it is copied on
	// write (under mu), so that looking up an existing instance is a single
	// atomic load.
	shared atomic.Pointer[map[uintptr]any]

	// Bid is the block's index, Bdim and Gdim the launch's block and grid
	// shapes, Base is Bid·Bdim: what gpu.Thread's methods read, set by
	// Reset before any thread of the block runs and never while one does.
	Bid, Bdim, Gdim, Base [3]int

	// Span is the number of blocks, from Bid on along X, that a block
	// loop of a kernel whose code takes spans (backend.CPUCode.Spans)
	// runs in one call; 1 otherwise (Reset sets it to 1).
	Span int

	mu  sync.Mutex
	gen *barrierGen // the generation of the barrier threads wait at now
	pc  uintptr     // the barrier the waiting threads wait at
	err error       // why the block was aborted; nil while it runs
	// failed says err is set (read without the mutex by Err and Reset).
	failed atomic.Bool
	byPos  map[string]any // shared instances by source position

	// wait, if set, replaces the barrier among free-running threads: see
	// SetCooperative.
	wait func(pc uintptr) bool

	// Cursor is the global index (Base plus the index in the block) of
	// the thread that a block loop (the code gen writes) runs now, for the
	// trap report of a thread that panics (Running): the loop stores its
	// X, a plain store per thread (itself, or through device/backend's
	// CPUBlock.Thread), and Row its Y and Z. The loop counts global X's,
	// so that its store needs no addition.
	Cursor [3]int

	// Locals is the per-thread storage of the generated loops of a kernel
	// with barriers (a slice of a struct gen declares), kept from block to
	// block of a worker.
	Locals any

	// Dir is the folder of the kernel's source file: the generated loops
	// carry line directives naming the kernel's file relative to it, and
	// Pos makes those positions whole again.
	Dir string

	// halt is the launch's stop flag: once it is set, the block's threads
	// end at their next call of a gpu.Thread method, Shared or Barrier
	// (Poll), so that a launch past its deadline stops.
	halt *atomic.Bool
}

// SetHalt makes the block's threads end at their next Poll once *h is true.
func (b *Block) SetHalt(h *atomic.Bool) { b.halt = h }

// Poll ends the calling thread (with the abort panic, which its runner
// recognises with IsAbort) if the launch was stopped. Package gpu calls it
// from Thread's BlockDim, GridDim and Barrier and from Shared (and the
// generated loops once per row of threads), so
// that a kernel that calls one in a loop stops at that loop's next
// iteration.
func (b *Block) Poll() {
	if b.halt != nil && b.halt.Load() {
		panic(abort{})
	}
}

// SetCooperative makes b's threads cooperative: a runner that runs them one
// at a time (as coroutines) handles barriers itself, and Barrier only calls
// wait(pc), which returns when the thread may go on, or false when the block
// was aborted and the thread must end. The runner reports barrier errors
// with FailNotReached and FailDifferentBarriers.
func (b *Block) SetCooperative(wait func(pc uintptr) bool) { b.wait = wait }

// FailNotReached aborts the block because thread tid returned while other
// threads wait at the barrier at pc.
func (b *Block) FailNotReached(pc uintptr, tid [3]int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fail(b.notReached(pc, tid, "returned while others wait there"))
}

// Index returns the block's index, the global index of its thread
// (0,0,0) and the block's shape, for the loops gpukvet gen writes.
func (b *Block) Index() (bid, base, bdim [3]int) { return b.Bid, b.Base, b.Bdim }

// Row starts row (y, z) of a block's threads in the loops gpukvet gen
// writes: it ends the block if the launch was stopped, and records the row
// of the thread that runs now (the loop records its X: Cursor).
func (b *Block) Row(y, z int) {
	b.Poll()
	b.Cursor[1], b.Cursor[2] = b.Base[1]+y, b.Base[2]+z
}

// Running returns the block and the thread (its index in the block) that
// a block loop runs now (Cursor), once Reset set the block's shape: a loop
// that runs a span of blocks counts X across them.
func (b *Block) Running() (bid, tid [3]int) {
	x := b.Cursor[0] - b.Base[0]
	bid = b.Bid
	bid[0] += x / b.Bdim[0]
	return bid, [3]int{x % b.Bdim[0], b.Cursor[1] - b.Base[1], b.Cursor[2] - b.Base[2]}
}

// PhaseBarrier is a barrier of the loops gpukvet gen writes for a kernel
// with barriers, called at the barrier's source position (gen marks it
// with a line directive) once every thread of the block ran up to it.
// first is the linear index of the first thread that returned before it,
// or -1: a barrier that a returned thread never reaches fails the block
// with the error the other schedules give, and ends the loops (Abort).
//
//go:noinline
func (b *Block) PhaseBarrier(first int) {
	b.Poll()
	if first >= 0 {
		b.FailNotReached(callerPC(), b.unlinear(first))
		b.Abort()
	}
}

// PhaseUniform returns the value that the block's threads found for a
// condition around a barrier (an if or a loop that holds one), in the loops
// gpukvet gen writes, called at the condition's source position. yes and
// no are the linear indices of the first thread that found it true and
// false (-1 for none). Threads that disagree would wait at different
// barriers: that fails the block.
//
//go:noinline
func (b *Block) PhaseUniform(yes, no int) bool {
	b.Poll()
	if yes >= 0 && no >= 0 {
		b.FailDiverged(callerPC(), b.unlinear(yes), b.unlinear(no))
		b.Abort()
	}
	return yes >= 0
}

// callerPC returns the return pc into the caller of its caller.
func callerPC() uintptr {
	var pcs [1]uintptr
	runtime.Callers(3, pcs[:])
	return pcs[0]
}

func (b *Block) unlinear(i int) [3]int {
	d := b.Bdim
	return [3]int{i % d[0], i / d[0] % d[1], i / (d[0] * d[1])}
}

// FailDiverged aborts the block because its threads found different
// values for a condition at pc that decides whether they reach a barrier:
// thread yes found it true, thread no false.
func (b *Block) FailDiverged(pc uintptr, yes, no [3]int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fail(fmt.Errorf("kernel %s: threads of block %s disagree on the condition at %s, which decides whether they reach a barrier: thread %s finds it true, thread %s false; every thread must reach the same barriers",
		b.kernel, dim(b.Bid), b.Pos(pc), dim(yes), dim(no)))
}

// Abort ends the calling thread, or the generated loop running the block,
// with the panic that runners recognise with IsAbort: the block failed
// and its error is recorded.
func (b *Block) Abort() { panic(abort{}) }

// FailDifferentBarriers aborts the block because its threads wait at two
// different barriers, at pc1 and pc2.
func (b *Block) FailDifferentBarriers(pc1, pc2 uintptr) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fail(b.differentBarriers(pc1, pc2))
}

// SameBarrier reports whether pc1 and pc2 are one barrier: the same call, or
// inlined copies of one call, which have different pcs but one source
// position.
func SameBarrier(pc1, pc2 uintptr) bool { return pc1 == pc2 || Position(pc1) == Position(pc2) }

func (b *Block) notReached(pc uintptr, tid [3]int, how string) error {
	return fmt.Errorf("kernel %s: barrier at %s is not reached by every thread of block %s: thread %s %s",
		b.kernel, b.Pos(pc), dim(b.Bid), dim(tid), how)
}

func (b *Block) differentBarriers(pc1, pc2 uintptr) error {
	return fmt.Errorf("kernel %s: threads of block %s wait at different barriers, %s and %s; every thread must reach the same barrier",
		b.kernel, dim(b.Bid), b.Pos(pc1), b.Pos(pc2))
}

// Pos is Position(pc), with a relative file name (from a line directive of
// the generated loops) joined to the kernel's folder.
func (b *Block) Pos(pc uintptr) string { return JoinDir(b.Dir, Position(pc)) }

// JoinDir returns pos ("file:line") with a relative file joined to dir.
func JoinDir(dir, pos string) string {
	if dir == "" || pos == "" || filepath.IsAbs(pos) || strings.HasPrefix(pos, "pc=") {
		return pos
	}
	return filepath.Join(dir, pos)
}

// NewBlock returns the state of block idx of a launch of kernel with n
// threads per block.
func NewBlock(kernel string, idx [3]int, n int) *Block {
	b := &Block{kernel: kernel, Bid: idx, n: n, Span: 1, byPos: map[string]any{}}
	return b
}

// Reset readies b to run block bid of a launch of block and grid shapes
// bdim and gdim, once every thread of the block it ran before has ended.
// The instances of shared variables are kept: their contents are undefined
// until written, as on a GPU.
func (b *Block) Reset(bid, bdim, gdim [3]int) {
	b.Bid, b.Bdim, b.Gdim, b.Span = bid, bdim, gdim, 1
	b.Base = [3]int{bid[0] * bdim[0], bid[1] * bdim[1], bid[2] * bdim[2]}
	if b.exited.Load() == 0 && b.firstExit.Load() == nil && b.waiting.Load() == 0 && !b.failed.Load() {
		// Nothing to clear (the blocks of a generated block loop, whose
		// threads neither exit one by one nor wait): atomic loads only,
		// which cost a plain load, where the stores below cost a locked
		// instruction each, which adds up over 2^16 small blocks.
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.exited.Store(0)
	b.firstExit.Store(nil)
	b.waiting.Store(0)
	b.pc = 0
	b.err = nil
	b.failed.Store(false)
	b.gen = nil
}

// abort is the panic value with which Barrier ends a thread of an aborted
// block; the thread's runner recognises it with IsAbort.
type abort struct{}

// IsAbort reports whether v, a value recovered from a thread's panic, is the
// signal that its block was aborted because of another thread's trap or a
// barrier error (already recorded in the block) rather than a trap of its own.
func IsAbort(v any) bool {
	_, ok := v.(abort)
	return ok
}

// Err returns the error that aborted the block, or nil.
func (b *Block) Err() error {
	if !b.failed.Load() {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Barrier blocks until every thread of the block has reached the barrier
// whose call sits at pc. A thread that reaches a barrier after another thread
// of the block returned, or a barrier other than the one threads wait at,
// aborts the block with an error naming the barrier: the barrier could never
// be passed, and the runtime reports that instead of hanging.
func (b *Block) Barrier(pc uintptr) {
	b.Poll()
	if b.wait != nil {
		if !b.wait(pc) {
			panic(abort{})
		}
		return
	}
	b.mu.Lock()
	if b.err != nil {
		b.mu.Unlock()
		panic(abort{})
	}
	w := b.waiting.Load()
	if w > 0 && !SameBarrier(pc, b.pc) {
		b.fail(b.differentBarriers(b.pc, pc))
		b.mu.Unlock()
		panic(abort{})
	}
	if w == 0 {
		b.pc = pc
	}
	b.waiting.Store(w + 1)
	if b.exited.Load() > 0 {
		b.fail(b.notReached(pc, *b.firstExit.Load(), "returned without reaching it"))
		b.mu.Unlock()
		panic(abort{})
	}
	if int(w+1) == b.n {
		b.waiting.Store(0)
		b.release(false)
		b.mu.Unlock()
		return
	}
	// Wait for the channel of this barrier's generation to close, without
	// taking the mutex again: a waiter that locked it on waking would be
	// ordered, for the race detector, after every thread that already ran
	// on to the next barrier, which a GPU does not do (and the detector
	// would miss races in that interval). The close orders every arrival
	// (each made under the mutex) before every waiter goes on, as a
	// barrier must.
	g := b.current()
	b.mu.Unlock()
	<-g.done
	if g.aborted {
		panic(abort{})
	}
}

// Exit records that thread tid returned from the kernel. If other threads
// wait at a barrier, the barrier can never be passed and the block is aborted
// with an error naming it.
func (b *Block) Exit(tid [3]int) {
	if b.firstExit.Load() == nil {
		first := tid // allocated only here, not on every exit
		b.firstExit.CompareAndSwap(nil, &first)
	}
	b.exited.Add(1)
	if b.waiting.Load() == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.waiting.Load() > 0 {
		b.fail(b.notReached(b.pc, tid, "returned while others wait there"))
	}
}

// Trap aborts the block because one of its threads trapped with err: threads
// waiting at a barrier wake up and end, and so does every thread that reaches
// a barrier later. The first error of a block is the one kept.
func (b *Block) Trap(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fail(err)
}

// fail aborts the block with err unless it failed already. b.mu is held.
func (b *Block) fail(err error) {
	if b.err == nil {
		b.err = err
		b.failed.Store(true)
	}
	b.release(true)
}

// barrierGen is one passing of a barrier: its waiters wait for done to
// close; aborted, written before the close, says the block failed.
type barrierGen struct {
	done    chan struct{}
	aborted bool
}

// current returns the generation that threads arriving now wait for. b.mu
// is held.
func (b *Block) current() *barrierGen {
	if b.gen == nil {
		b.gen = &barrierGen{done: make(chan struct{})}
	}
	return b.gen
}

// release lets the waiters of the current generation go (or end, when
// aborted). b.mu is held.
func (b *Block) release(aborted bool) {
	if b.gen == nil {
		return
	}
	b.gen.aborted = aborted
	close(b.gen.done)
	b.gen = nil
}

// Shared returns the block's instance of the shared variable whose Shared
// call sits at pc, creating it with alloc on first use.
//
// Instances are keyed by the source position (file:line) of the call, so that
// the inlined copies of one call site share an instance, as they must. Two
// Shared calls on one source line therefore share one instance too: write them
// on separate lines.
func (b *Block) Shared(pc uintptr, alloc func() any) any {
	b.Poll()
	if m := b.shared.Load(); m != nil {
		if v, ok := (*m)[pc]; ok {
			return v
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	old := b.shared.Load()
	if old != nil {
		if v, ok := (*old)[pc]; ok {
			return v
		}
	}
	pos := Position(pc)
	v, ok := b.byPos[pos]
	if !ok {
		v = alloc()
		b.byPos[pos] = v
	}
	m := map[uintptr]any{pc: v}
	if old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	b.shared.Store(&m)
	return v
}

var positions sync.Map // uintptr → string

// Position returns "file:line" of the call whose return pc is pc, as
// runtime.Callers reports it.
func Position(pc uintptr) string {
	if p, ok := positions.Load(pc); ok {
		return p.(string)
	}
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	p := fmt.Sprintf("%s:%d", f.File, f.Line)
	if f.File == "" {
		p = fmt.Sprintf("pc=%#x", pc)
	}
	positions.Store(pc, p)
	return p
}

type dim [3]int

func (d dim) String() string { return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2]) }
