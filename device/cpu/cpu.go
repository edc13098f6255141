// Package cpu is the reference backend of package device: it runs kernels as
// ordinary Go, with the blocks of a grid spread over GOMAXPROCS workers.
// Every GPU backend is validated against it.
//
// A block runs in one of three ways:
//
//   - loops over its threads (a kernel with code that `gpukvet gen` wrote,
//     which holds the loops): a kernel without barriers is one loop whose
//     body is a copy of the kernel's, with the block's indices read once;
//     a kernel with barriers is split at them into one loop per stretch
//     between barriers (see backend.CPUBlock, and codegen/hostgen for the
//     shapes it splits; it keeps coroutines for the others); a kernel
//     that reads no index but its thread's global one runs a worker's run
//     of blocks along X as one loop (backend.CPUCode.Spans). A copy runs
//     only while the kernel's sources on the machine are the ones gen
//     read; otherwise the kernel runs as with no copy;
//   - coroutines (a kernel with barriers that gen did not split, without
//     the race detector): the
//     threads of a block take turns, each running until it reaches a barrier
//     or returns; a worker switches between them without the scheduler,
//     which is several times faster than waking goroutines;
//   - goroutines (the default under -race, or GPUKVET_CPU_THREADS=goroutines
//     ): the race-detecting schedule. Every thread of a block is a goroutine
//     of its own, started for that block only, and nothing orders the
//     threads but the barriers, so Go's race detector reports the races a
//     kernel has between threads and between blocks. Blocks run in rounds of
//     at least two blocks and otherwise at most RaceRoundThreads threads,
//     because the detector sees fewer races the more goroutines are live;
//     blocks of one round are not ordered by anything, so a race between
//     two blocks is seen when the two share a round (blocks 2k and 2k+1
//     always do; the end of a round orders it before the next).
//
// GPUKVET_CPU_THREADS=coroutines forces coroutines for kernels with barriers
// even under -race. Kernels without generated code are called through
// reflection, and run as coroutines (nothing tells the backend they have no
// barrier): about a thousand times slower, which the backend says on
// standard error once per kernel (SetWarnings redirects it).
//
// Every schedule reports a barrier that not every thread of a block
// reaches, and a trap, with the same errors. Under coroutines a thread runs
// until its next barrier before another thread of its block runs, so a
// kernel whose threads wait for each other in any other way (spinning on an
// atomic flag that another thread of the block sets) hangs there; such a
// kernel needs GPUKVET_CPU_THREADS=goroutines (and is fragile on GPUs too).
//
// Launch returns at once; launches run one after another on a goroutine of
// their own, and Sync and Read wait for them and report the first error, as
// a GPU backend reports a trap of asynchronous work. A wait with a deadline
// (SyncContext, ReadContext) that passes stops the running kernel: its
// threads end at their next call of gpu.Thread's BlockDim, GridDim or
// Barrier or of gpu.Shared, or before the next thread of a block loop, and
// the blocks not started are skipped. A kernel that loops without calling
// any of them cannot be stopped (Go cannot stop a
// goroutine from outside); the wait then still returns at the deadline, and
// reports that the kernel keeps a processor busy.
//
// Launches are bounded: at most MaxThreads threads per launch (about a
// minute of work for the cheapest kernel on one core).
package cpu

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/cpuexec"
)

// MaxThreads is the most threads one launch of the cpu backend runs; a
// larger grid is an error at Launch.
const MaxThreads = 1 << 36

// RaceRoundThreads bounds the threads that run at once in the
// race-detecting schedule. Go's race detector tracks a bounded number of
// goroutines at a time (at most 8128 alive) and sees fewer races the more
// run at once, so blocks run in rounds of at most this many threads, but
// always at least two blocks, so that a race between neighbouring blocks
// is seen.
const RaceRoundThreads = 256

// Open returns a new cpu backend. It always works.
func Open() (backend.Backend, error) {
	be := &Backend{schedule: "coroutines"}
	if raceEnabled {
		be.schedule = "goroutines"
	}
	switch v := os.Getenv("GPUKVET_CPU_THREADS"); v {
	case "goroutines", "coroutines":
		be.schedule = v
	}
	return be, nil
}

// Backend is the cpu backend. Its methods may be called from several
// goroutines at once.
type Backend struct {
	schedule string // for kernels with barriers: "coroutines" or "goroutines"

	mu      sync.Mutex
	pending []*launch // launched since the last Sync or Read, in order
	last    *launch   // the last launch; nil when none ran yet
	closed  bool
	// raceBlocks keeps the race-detecting schedule's blocks by kernel and
	// block size, from launch to launch (see runRounds).
	raceBlocks map[raceKey][]*cpuexec.Block
	freshness  sync.Map // *backend.Kernel → bool (see fresh)
}

type raceKey struct {
	kernel string
	n      int
}

type memory struct {
	slice reflect.Value // []T holding the elements
	freed bool
}

func (m *memory) Len() int { return m.slice.Len() }

// Name returns "cpu".
func (*Backend) Name() string { return "cpu" }

// Alloc returns n zeroed elements of type elem, or an error saying how
// much memory is free when the allocation cannot fit.
func (*Backend) Alloc(elem reflect.Type, n int) (backend.Memory, error) {
	if err := checkAlloc(elem, n); err != nil {
		return nil, err
	}
	return &memory{slice: reflect.MakeSlice(reflect.SliceOf(elem), n, n)}, nil
}

// Write copies src into dst, once the launched work is done.
func (be *Backend) Write(dst backend.Memory, src reflect.Value) error {
	return be.WriteContext(context.Background(), dst, src)
}

// WriteContext copies src into dst once the launched work is done, or
// returns a *backend.TimeoutError when ctx is done first.
func (be *Backend) WriteContext(ctx context.Context, dst backend.Memory, src reflect.Value) error {
	m, err := live(dst)
	if err != nil {
		return err
	}
	if err := be.wait(ctx); err != nil {
		return err
	}
	reflect.Copy(m.slice, src)
	return nil
}

// Read copies src into dst, or returns the error of an earlier launch.
func (be *Backend) Read(dst reflect.Value, src backend.Memory) error {
	return be.ReadContext(context.Background(), dst, src)
}

// ReadContext is Read with a deadline: a *backend.TimeoutError when ctx
// is done before the launched work.
func (be *Backend) ReadContext(ctx context.Context, dst reflect.Value, src backend.Memory) error {
	m, err := live(src)
	if err != nil {
		return err
	}
	if err := be.SyncContext(ctx); err != nil {
		return err
	}
	reflect.Copy(dst, m.slice)
	return nil
}

// Slice returns the []T that holds mem, an allocation of this backend,
// once the launched work is done (or the error of an earlier launch), so
// that a caller that owns mem can read or fill it without a copy. It must
// not be used after mem is freed.
func (be *Backend) Slice(mem backend.Memory) (reflect.Value, error) {
	m, err := live(mem)
	if err != nil {
		return reflect.Value{}, err
	}
	if err := be.Sync(); err != nil {
		return reflect.Value{}, err
	}
	return m.slice, nil
}

// Free releases m. A launch still running keeps the memory it uses alive.
func (*Backend) Free(mem backend.Memory) error {
	m, err := live(mem)
	if err != nil {
		return err
	}
	m.freed = true
	m.slice = reflect.Value{}
	return nil
}

func live(mem backend.Memory) (*memory, error) {
	return backend.Own[*memory](mem, "cpu", "use")
}

// Freed reports whether m was freed (backend.Owned).
func (m *memory) Freed() bool { return m.freed }

// Sync waits for the launched work and returns the first error of the
// launches since the last Sync or Read, and forgets it.
func (be *Backend) Sync() error { return be.SyncContext(context.Background()) }

// SyncContext is Sync with a deadline. When ctx is done first, the
// launches still pending are stopped (see the package doc) and the error
// is a *backend.TimeoutError naming the kernel that was running.
func (be *Backend) SyncContext(ctx context.Context) error {
	if err := be.wait(ctx); err != nil {
		return err
	}
	be.mu.Lock()
	defer be.mu.Unlock()
	var err error
	for _, l := range be.pending {
		if l.err != nil && err == nil {
			err = l.err
		}
	}
	be.pending = nil
	return err
}

// wait waits until every launch is done, or stops them when ctx is done
// first.
func (be *Backend) wait(ctx context.Context) error {
	be.mu.Lock()
	last, pending := be.last, slices.Clone(be.pending)
	be.mu.Unlock()
	if last == nil {
		return nil
	}
	select {
	case <-last.done:
		return nil
	default:
	}
	select {
	case <-last.done:
		return nil
	case <-ctx.Done():
	}
	// Name the kernel that was running: the first pending one not done.
	running := last
	for _, l := range pending {
		select {
		case <-l.done:
			continue
		default:
		}
		running = l
		break
	}
	for _, l := range pending {
		l.stop.Store(true)
	}
	terr := &backend.TimeoutError{Kernel: running.k.Name, Err: ctx.Err()}
	select {
	case <-last.done:
		terr.Stopped = true
		terr.Detail = "the cpu backend stopped it (its outputs are partly written) and skipped the launches after it; the device stays usable"
		be.mu.Lock()
		be.pending = nil
		be.mu.Unlock()
	case <-time.After(backend.StopGrace):
		terr.Detail = fmt.Sprintf("it did not stop within %v of the deadline: a loop that calls none of gpu.Thread's BlockDim, GridDim and Barrier nor gpu.Shared cannot be stopped, and keeps a processor busy until the program exits; the device is unusable (Close it and open another)", backend.StopGrace)
	}
	return terr
}

// Close waits for the launched work (stopping it after backend.StopGrace) and
// releases nothing else: the cpu backend holds no resources but memory.
func (be *Backend) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), backend.StopGrace)
	defer cancel()
	err := be.wait(ctx)
	be.mu.Lock()
	be.closed = true
	be.mu.Unlock()
	if err != nil {
		return fmt.Errorf("cpu backend: Close while a launch was running: %w", err)
	}
	return nil
}

// CheckShape refuses launches of more than MaxThreads threads.
func (*Backend) CheckShape(grid, block gpu.Dim3) error {
	n := uint64(1)
	for _, x := range []int{grid.X, grid.Y, grid.Z, block.X, block.Y, block.Z} {
		if x <= 0 {
			return fmt.Errorf("shape has a dimension below 1")
		}
		if n > MaxThreads/uint64(x) {
			return fmt.Errorf("grid (%d,%d,%d) of blocks (%d,%d,%d) is more than the cpu backend's bound of 2^36 threads per launch (cpu.MaxThreads, about a minute of work for the cheapest kernel on one core)",
				grid.X, grid.Y, grid.Z, block.X, block.Y, block.Z)
		}
		n *= uint64(x)
	}
	return nil
}

// Launch starts k on every block of grid and returns; the launch runs once
// the launches before it are done. A trap or a barrier error is kept for
// Sync and Read.
func (be *Backend) Launch(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) error {
	if err := be.CheckShape(grid, block); err != nil {
		return fmt.Errorf("kernel %s: %v", k.Name, err)
	}
	in := make([]reflect.Value, 1+len(args))
	for i, a := range args {
		if a.Mem != nil {
			m, err := live(a.Mem)
			if err != nil {
				return fmt.Errorf("kernel %s argument %d: %w", k.Name, i+1, err)
			}
			in[1+i] = m.slice
		} else {
			in[1+i] = a.Value
		}
	}
	l := &launch{k: k, grid: dim3(grid), block: dim3(block), in: in, done: make(chan struct{})}
	l.schedule = be.schedule
	l.be = be
	if k.CPU != nil {
		l.spans = k.CPU.Spans
		vals := make([]any, len(args))
		for i, v := range in[1:] {
			vals[i] = v.Interface()
		}
		thread, block := k.CPU.Bind(vals)
		l.body = func() func(gpu.Thread) { return thread }
		if block != nil && be.schedule != "goroutines" && be.fresh(k) {
			l.schedule, l.block1 = "loop", block
		}
	} else {
		warnNoGen(k)
		l.body = func() func(gpu.Thread) {
			in := slices.Clone(in)
			return func(t gpu.Thread) {
				in[0] = reflect.ValueOf(t)
				k.Func.Call(in)
			}
		}
	}
	be.mu.Lock()
	if be.closed {
		be.mu.Unlock()
		return fmt.Errorf("kernel %s: cpu backend is closed", k.Name)
	}
	prev := be.last
	be.last = l
	be.pending = append(be.pending, l)
	be.mu.Unlock()
	go func() {
		defer close(l.done)
		if prev != nil {
			<-prev.done
		}
		if !l.stop.Load() {
			l.run()
		}
		if l.err == nil && l.stop.Load() {
			l.err = fmt.Errorf("kernel %s was stopped: a wait for it passed its deadline", k.Name)
		}
	}()
	return nil
}

// fresh reports whether the generated code of k was generated from the
// sources on this machine (or they are not here): its block loops are
// copies of the kernel's body, so a stale copy would run old code, where
// the thread entry calls the kernel itself. Checked once per kernel.
func (be *Backend) fresh(k *backend.Kernel) bool {
	if v, ok := be.freshness.Load(k); ok {
		return v.(bool)
	}
	ok := backend.CheckStale(k) == nil
	be.freshness.Store(k, ok)
	return ok
}

// launch is one kernel launch in progress.
type launch struct {
	k           *backend.Kernel
	grid, block [3]int
	in          []reflect.Value // arguments; in[0] is set per thread
	schedule    string          // "loop", "coroutines" or "goroutines"
	// body returns the kernel with its arguments bound, for one goroutine
	// (the reflective form keeps per-goroutine state).
	body func() func(gpu.Thread)
	// block1 runs all threads of a block, for the loop schedule
	// (generated code); of a span of blocks when spans is set.
	block1 func(backend.CPUBlock)
	spans  bool

	be     *Backend
	next   atomic.Int64 // next block to run, linear index
	failed atomic.Bool  // a block failed: start no more blocks
	stop   atomic.Bool  // the launch passed a deadline: threads end at their next poll
	mu     sync.Mutex
	err    error         // the first block's error
	done   chan struct{} // closed when the launch ended
}

// dir is the folder of the kernel's source file ("" if unknown).
func (l *launch) dir() string {
	file := l.k.Pos
	if i := strings.LastIndex(file, ":"); i >= 0 {
		file = file[:i]
	}
	if file == "" {
		return ""
	}
	return filepath.Dir(file)
}

func (l *launch) nblocks() int64 { return int64(l.grid[0]) * int64(l.grid[1]) * int64(l.grid[2]) }

func (l *launch) nthreads() int { return l.block[0] * l.block[1] * l.block[2] }

func (l *launch) run() {
	if l.schedule == "goroutines" {
		l.runRounds()
		return
	}
	nblocks := l.nblocks()
	workers := max(1, min(int64(runtime.GOMAXPROCS(0)), nblocks))
	if l.schedule == "coroutines" {
		// Each worker keeps a coroutine per thread of a block: bound their
		// number (and the memory of their stacks) on machines with many
		// cores.
		workers = max(1, min(workers, maxThreads/int64(l.nthreads())))
	}
	var wg sync.WaitGroup
	for range workers {
		if l.schedule == "loop" {
			wg.Go(l.workLoop)
		} else {
			wg.Go(l.workCooperative)
		}
	}
	wg.Wait()
}

// maxThreads bounds the coroutines that run kernel threads at once.
const maxThreads = 1 << 16

// nextBlock returns the linear index of the next block to run, or false
// when none is left.
func (l *launch) nextBlock() (int64, bool) {
	b := l.next.Add(1) - 1
	return b, b < l.nblocks() && !l.failed.Load() && !l.stop.Load()
}

// newBlock returns a block for this launch.
func (l *launch) newBlock(idx [3]int) *cpuexec.Block {
	blk := cpuexec.NewBlock(l.k.Name, idx, l.nthreads())
	blk.SetHalt(&l.stop)
	blk.Dir = l.dir()
	return blk
}

// workLoop runs blocks until none is left, each as a loop over its
// threads: the kernel has no barrier, so a thread runs from start to end
// before the next one starts.
func (l *launch) workLoop() {
	n := l.nthreads()
	blk := l.newBlock([3]int{})
	blk.SetCooperative(func(pc uintptr) bool {
		if n == 1 {
			return true
		}
		blk.Trap(fmt.Errorf("kernel %s reached the barrier at %s, but its generated code (gpukvet_gen.go) says it calls none: run gpukvet gen again", l.k.Name, blk.Pos(pc)))
		return false
	})
	// Workers take runs of blocks: one atomic add per block, on a counter
	// every worker writes, costs about what a small block's loop does.
	batch := max(1, min(64, l.nblocks()/(8*int64(runtime.GOMAXPROCS(0)))))
	for {
		first := l.next.Add(batch) - batch
		if first >= l.nblocks() || !l.loopBlocks(blk, first, min(first+batch, l.nblocks())) {
			return
		}
	}
}

// loopBlocks runs blocks first to end-1 (linear indices) one after
// another through the generated loop, which keeps the index of the
// running thread in blk.Cursor, each of the kernel's spans of blocks (see
// backend.CPUCode.Spans) in one call. It returns false when a block
// failed or the launch was stopped. What a block costs besides its
// threads is paid per block of a 256-thread saxpy, so the recover that
// catches a trap is set up once per run, and the block's index is
// counted, not divided out.
func (l *launch) loopBlocks(blk *cpuexec.Block, first, end int64) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if !cpuexec.IsAbort(r) {
				bid, tid := blk.Running()
				blk.Trap(l.trap(r, bid, tid))
			}
			l.blockDone(blk)
			ok = false
		}
	}()
	bid := unlinear(int(first), l.grid)
	for b := first; b < end; {
		if l.failed.Load() || l.stop.Load() {
			return false
		}
		span := 1
		if l.spans {
			// The rest of the run, within this row of the grid.
			span = int(min(end-b, int64(l.grid[0]-bid[0])))
		}
		blk.Reset(bid, l.block, l.grid)
		blk.Span = span
		blk.Cursor = blk.Base
		l.block1(backend.CPUBlock{Block: blk})
		l.blockDone(blk)
		b += int64(span)
		bid = nextIndex(bid, span, l.grid)
	}
	return true
}

// nextIndex returns the 3-d index n blocks after bid in a grid, X
// fastest, n at most what is left of bid's row.
func nextIndex(bid [3]int, n int, grid [3]int) [3]int {
	if bid[0] += n; bid[0] == grid[0] {
		bid[0] = 0
		if bid[1]++; bid[1] == grid[1] {
			bid[1] = 0
			bid[2]++
		}
	}
	return bid
}

// runRounds is the race-detecting schedule: every thread of every block is
// a goroutine started for that block alone, so that nothing orders two
// blocks, nor two threads of a block except barriers. Blocks run in rounds
// of at most RaceRoundThreads threads (see the package doc).
func (l *launch) runRounds() {
	n := l.nthreads()
	per := max(2, int64(RaceRoundThreads/n))
	blks := l.be.raceSlots(l.k.Name, n, int(min(per, l.nblocks())))
	for first := int64(0); first < l.nblocks() && !l.failed.Load() && !l.stop.Load(); first += per {
		var wg sync.WaitGroup
		for b := first; b < min(first+per, l.nblocks()); b++ {
			bid := unlinear(int(b), l.grid)
			blk := blks[b-first]
			blk.Reset(bid, l.block, l.grid)
			blk.SetHalt(&l.stop)
			for i := range n {
				tid := unlinear(i, l.block)
				wg.Go(func() {
					l.runThread(cpuexec.Runner(l.body()), blk, bid, tid)
				})
			}
		}
		wg.Wait()
		for b := first; b < min(first+per, l.nblocks()); b++ {
			l.blockDone(blks[b-first])
		}
	}
}

// raceSlots returns k blocks for the race-detecting schedule of kernel
// with n threads per block, the same ones from launch to launch: a block
// keeps its shared-memory instances, so that looking one up (an atomic
// load) acquires nothing new, where creating it would order the creating
// thread's earlier accesses before every later lookup in the detector's
// eyes, and hide races.
func (be *Backend) raceSlots(kernel string, n, k int) []*cpuexec.Block {
	be.mu.Lock()
	defer be.mu.Unlock()
	if be.raceBlocks == nil {
		be.raceBlocks = map[raceKey][]*cpuexec.Block{}
	}
	key := raceKey{kernel, n}
	blks := be.raceBlocks[key]
	for len(blks) < k {
		blks = append(blks, cpuexec.NewBlock(kernel, [3]int{}, n))
	}
	be.raceBlocks[key] = blks
	return blks[:k]
}

// blockDone records the error of a block, if any.
func (l *launch) blockDone(blk *cpuexec.Block) {
	if err := blk.Err(); err != nil {
		l.mu.Lock()
		if l.err == nil {
			l.err = err
		}
		l.mu.Unlock()
		l.failed.Store(true)
	}
}

// coThread is one thread slot of a cooperative worker: a coroutine that runs
// the kernel for one thread index in block after block. It yields the pc of
// a barrier it reached, or 0 when the kernel returned.
type coThread struct {
	tid     [3]int
	next    func() (uintptr, bool)
	stop    func()
	yield   func(uintptr) bool
	stopped bool    // yield returned false: the coroutine must end
	pc      uintptr // the barrier the thread waits at; 0 when done
	done    bool    // the kernel returned (or trapped) in this block
}

// workCooperative runs blocks until none is left, the threads of each block
// as coroutines: every thread runs until it reaches a barrier or returns,
// then the next one runs; when all wait at the same barrier, they all go
// on. A switch between coroutines costs far less than waking a goroutine on
// another processor, and only the workers run in parallel. Each thread is
// still its own goroutine, but the switches order the threads of a block for
// the race detector, which is why -race builds use runRounds instead.
func (l *launch) workCooperative() {
	n := l.nthreads()
	blk := l.newBlock([3]int{})
	var (
		bid     [3]int
		cur     *coThread // the thread running now
		aborted bool      // the block failed: threads at a barrier must end
	)
	blk.SetCooperative(func(pc uintptr) bool {
		t := cur
		if !t.yield(pc) {
			t.stopped = true
			return false
		}
		return !aborted
	})
	threads := make([]*coThread, n)
	for i := range threads {
		t := &coThread{tid: unlinear(i, l.block)}
		run := cpuexec.Runner(l.body())
		t.next, t.stop = iter.Pull(func(yield func(uintptr) bool) {
			t.yield = yield
			for !t.stopped {
				l.runThread(run, blk, bid, t.tid)
				if !yield(0) {
					return
				}
			}
		})
		threads[i] = t
	}
	defer func() {
		for _, t := range threads {
			t.stop()
		}
	}()
	for b, ok := l.nextBlock(); ok; b, ok = l.nextBlock() {
		bid = unlinear(int(b), l.grid)
		blk.Reset(bid, l.block, l.grid)
		aborted = false
		for _, t := range threads {
			t.done, t.pc = false, 0
		}
		for live := n; live > 0; {
			for _, t := range threads {
				if t.done {
					continue
				}
				cur = t
				pc, ok := t.next()
				t.pc = pc
				if !ok || pc == 0 {
					t.done, t.pc = true, 0
					live--
				}
			}
			if live == 0 || aborted {
				continue // aborted threads end in the next round
			}
			aborted = true
			if blk.Err() != nil {
				continue // a thread trapped
			}
			var waiting, returned *coThread
			for _, t := range threads {
				switch {
				case t.done && returned == nil:
					returned = t
				case !t.done && waiting == nil:
					waiting = t
				case !t.done && !cpuexec.SameBarrier(t.pc, waiting.pc):
					blk.FailDifferentBarriers(waiting.pc, t.pc)
				}
			}
			if blk.Err() == nil && returned != nil {
				blk.FailNotReached(waiting.pc, returned.tid)
			}
			aborted = blk.Err() != nil
		}
		l.blockDone(blk)
	}
}

// runThread runs one thread and reports how it ended to its block.
func (l *launch) runThread(run func(b *cpuexec.Block, tid [3]int), blk *cpuexec.Block, bid, tid [3]int) {
	defer func() {
		r := recover()
		switch {
		case r == nil:
			blk.Exit(tid)
		case cpuexec.IsAbort(r):
			// The block failed already (its error is recorded), or the
			// launch was stopped.
		default:
			blk.Trap(l.trap(r, bid, tid))
		}
	}()
	run(blk, tid)
}

// trap describes the panic r of thread tid of block bid; it must be called
// from the deferred function that recovered r.
func (l *launch) trap(r any, bid, tid [3]int) *backend.Trap {
	return &backend.Trap{
		Kernel: l.k.Name,
		Pos:    cpuexec.JoinDir(l.dir(), panicPosition()),
		Block:  gpu.Dim3{X: bid[0], Y: bid[1], Z: bid[2]},
		Thread: gpu.Dim3{X: tid[0], Y: tid[1], Z: tid[2]},
		Msg:    panicMessage(r),
	}
}

// panicPosition returns the file:line of the panicking statement of kernel
// code. Called from a deferred function during a panic, it walks the stack
// from the panic down and returns the first frame that is neither the Go
// runtime nor the gpukvet packages that implement the kernel API.
func panicPosition() string {
	var pcs [64]uintptr
	n := runtime.Callers(4, pcs[:]) // skip Callers, panicPosition, trap, the deferred function
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		switch {
		case strings.HasPrefix(f.Function, "runtime."),
			strings.HasPrefix(f.Function, "github.com/gpukvet/gpukvet/gpu."),
			strings.HasPrefix(f.Function, "github.com/gpukvet/gpukvet/internal/cpuexec."):
		case strings.HasPrefix(f.Function, "reflect."),
			strings.HasPrefix(f.Function, "github.com/gpukvet/gpukvet/device/cpu."):
			return "" // reached the caller of the kernel: no kernel frame
		default:
			return fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		if !more {
			return ""
		}
	}
}

func panicMessage(r any) string {
	switch r := r.(type) {
	case runtime.Error:
		return strings.TrimPrefix(r.Error(), "runtime error: ")
	case error:
		return "panic: " + r.Error()
	case fmt.Stringer:
		return "panic: " + r.String()
	default:
		return fmt.Sprintf("panic: %v", r)
	}
}

func dim3(d gpu.Dim3) [3]int { return [3]int{d.X, d.Y, d.Z} }

// unlinear returns the 3-d index of linear index i in a shape, X fastest.
func unlinear(i int, shape [3]int) [3]int {
	return [3]int{i % shape[0], i / shape[0] % shape[1], i / (shape[0] * shape[1])}
}
