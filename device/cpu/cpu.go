// Package cpu is the reference backend of package device: it runs kernels as
// ordinary Go, each thread in a goroutine of its own, with the blocks of a
// grid spread over GOMAXPROCS workers. Every GPU backend is validated against
// it.
//
// The threads of a block run in one of two ways, which the environment
// variable GPUKVET_CPU_THREADS chooses when the backend is opened:
//
//   - coroutines (the default without the race detector): the threads of a
//     block take turns, each running until it reaches a barrier or returns;
//     a worker switches between them without the scheduler, which is several
//     times faster than waking goroutines, and blocks run in parallel.
//   - goroutines (the default under -race): the threads of a block run
//     freely in parallel and meet at barriers. Nothing orders them but the
//     barriers, and nothing orders different blocks, so Go's race detector
//     reports the races a kernel has between threads and between blocks.
//
// Both report a barrier that not every thread of a block reaches, and a trap,
// with the same errors. Under coroutines a thread runs until its next
// barrier before another thread of its block runs, so a kernel whose threads
// wait for each other in any other way (spinning on an atomic flag that
// another thread of the block sets) hangs there; such a kernel needs
// GPUKVET_CPU_THREADS=goroutines (and is fragile on GPUs too).
//
// Launch runs the kernel to completion before it returns and keeps the first
// error; Sync and the next Read report it, as a GPU backend reports a trap of
// asynchronous work.
package cpu

import (
	"errors"
	"fmt"
	"iter"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/cpuexec"
)

// Open returns a new cpu backend. It always works.
func Open() (backend.Backend, error) {
	be := &Backend{cooperative: !raceEnabled}
	switch os.Getenv("GPUKVET_CPU_THREADS") {
	case "goroutines":
		be.cooperative = false
	case "coroutines":
		be.cooperative = true
	}
	return be, nil
}

// Backend is the cpu backend.
type Backend struct {
	err         error // first error of the launches since the last Sync or Read
	cooperative bool  // run the threads of a block as coroutines
}

type memory struct {
	slice reflect.Value // []T holding the elements
	freed bool
}

func (m *memory) Len() int { return m.slice.Len() }

// Name returns "cpu".
func (*Backend) Name() string { return "cpu" }

// Alloc returns n zeroed elements of type elem.
func (*Backend) Alloc(elem reflect.Type, n int) (backend.Memory, error) {
	return &memory{slice: reflect.MakeSlice(reflect.SliceOf(elem), n, n)}, nil
}

// Write copies src into dst.
func (*Backend) Write(dst backend.Memory, src reflect.Value) error {
	m, err := live(dst)
	if err != nil {
		return err
	}
	reflect.Copy(m.slice, src)
	return nil
}

// Read copies src into dst, or returns the error of an earlier launch.
func (be *Backend) Read(dst reflect.Value, src backend.Memory) error {
	m, err := live(src)
	if err != nil {
		return err
	}
	if err := be.Sync(); err != nil {
		return err
	}
	reflect.Copy(dst, m.slice)
	return nil
}

// Free releases m.
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
	m, ok := mem.(*memory)
	if !ok {
		return nil, fmt.Errorf("cpu backend: memory %T belongs to another backend", mem)
	}
	if m.freed {
		return nil, errors.New("cpu backend: use of freed memory")
	}
	return m, nil
}

// Sync returns the first error of the launches since the last Sync or Read,
// and forgets it.
func (be *Backend) Sync() error {
	err := be.err
	be.err = nil
	return err
}

// Close releases nothing: the cpu backend holds no resources but memory.
func (*Backend) Close() error { return nil }

// Launch runs k on every block of grid and returns when all are done. A trap
// or a barrier error is kept for Sync and Read.
func (be *Backend) Launch(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) error {
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
	l := &launch{k: k, grid: dim3(grid), block: dim3(block), in: in, cooperative: be.cooperative}
	l.run()
	if be.err == nil {
		be.err = l.err
	}
	return nil
}

// maxThreads bounds the goroutines that run kernel threads at once.
const maxThreads = 1 << 16

// launch is one kernel launch in progress.
type launch struct {
	k           *backend.Kernel
	grid, block [3]int
	in          []reflect.Value // arguments; in[0] is set per thread
	cooperative bool

	next   atomic.Int64 // next block to run, linear index
	stride int64        // if not 0, worker w runs blocks w, w+stride, ...
	failed atomic.Bool  // a block failed: start no more blocks
	mu     sync.Mutex
	err    error // the first block's error
}

func (l *launch) run() {
	nblocks := int64(l.grid[0] * l.grid[1] * l.grid[2])
	// Each worker keeps a goroutine per thread of a block: bound their
	// number (and the memory of their stacks) on machines with many cores.
	workers := max(1, min(int64(runtime.GOMAXPROCS(0)), nblocks, maxThreads/int64(l.block[0]*l.block[1]*l.block[2])))
	if raceEnabled && !l.cooperative {
		// Under the race detector, blocks of different workers must not be
		// ordered by anything, so that a race between blocks is seen: each
		// worker takes a fixed share of the blocks instead of taking the next
		// one from a shared counter (an atomic the detector would see as
		// ordering the workers). Use at least a few workers even on a small
		// machine, and stay well below the detector's limit on live
		// goroutines.
		n := int64(l.block[0] * l.block[1] * l.block[2])
		workers = max(1, min(max(workers, 4), nblocks, 4096/n))
		l.stride = workers
	}
	var wg sync.WaitGroup
	for w := range workers {
		if l.cooperative {
			wg.Go(func() { l.workCooperative() })
		} else {
			wg.Go(func() { l.work(w) })
		}
	}
	wg.Wait()
}

// work runs blocks until none is left. Each worker keeps one goroutine per
// thread of a block and hands them block after block, so that a goroutine's
// stack, grown by its first kernel call, serves every later one.
func (l *launch) work(w int64) {
	n := l.block[0] * l.block[1] * l.block[2]
	blk := cpuexec.NewBlock(l.k.Name, [3]int{}, n)
	var done sync.WaitGroup
	start := make([]chan [3]int, n) // start[i] gets the index of each block thread i runs
	for i := 1; i < n; i++ {
		start[i] = make(chan [3]int, 1)
		go func(tid [3]int, start <-chan [3]int) {
			in := slices.Clone(l.in)
			for bid := range start {
				l.runThread(in, blk, bid, tid)
				done.Done()
			}
		}(unlinear(i, l.block), start[i])
	}
	defer func() {
		for _, c := range start[1:] {
			close(c)
		}
	}()
	in := slices.Clone(l.in)
	b, ok := w, !l.failed.Load()
	if l.stride == 0 {
		b, ok = l.nextBlock(w, 0)
	}
	for ; ok; b, ok = l.nextBlock(w, b) {
		bid := unlinear(int(b), l.grid)
		blk.Reset(bid)
		done.Add(n - 1)
		for _, c := range start[1:] {
			c <- bid
		}
		l.runThread(in, blk, bid, [3]int{})
		done.Wait()
		l.blockDone(blk)
	}
}

// nextBlock returns the linear index of the next block worker w runs after
// block b, or false when none is left.
func (l *launch) nextBlock(w, b int64) (int64, bool) {
	if l.stride == 0 {
		b = l.next.Add(1) - 1
	} else {
		b += l.stride
	}
	return b, b < int64(l.grid[0]*l.grid[1]*l.grid[2]) && !l.failed.Load()
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
	in      []reflect.Value
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
// the race detector, which is why -race builds use work instead.
func (l *launch) workCooperative() {
	n := l.block[0] * l.block[1] * l.block[2]
	blk := cpuexec.NewBlock(l.k.Name, [3]int{}, n)
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
		t := &coThread{tid: unlinear(i, l.block), in: slices.Clone(l.in)}
		t.next, t.stop = iter.Pull(func(yield func(uintptr) bool) {
			t.yield = yield
			for !t.stopped {
				l.runThread(t.in, blk, bid, t.tid)
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
	for b, ok := l.nextBlock(-1, 0); ok; b, ok = l.nextBlock(-1, b) {
		bid = unlinear(int(b), l.grid)
		blk.Reset(bid)
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

// runThread calls the kernel for one thread and reports how it ended to its
// block.
func (l *launch) runThread(in []reflect.Value, blk *cpuexec.Block, bid, tid [3]int) {
	defer func() {
		r := recover()
		switch {
		case r == nil:
			blk.Exit(tid)
		case cpuexec.IsAbort(r):
			// The block failed already; its error is recorded.
		default:
			blk.Trap(&backend.Trap{
				Kernel: l.k.Name,
				Pos:    panicPosition(),
				Block:  gpu.Dim3{X: bid[0], Y: bid[1], Z: bid[2]},
				Thread: gpu.Dim3{X: tid[0], Y: tid[1], Z: tid[2]},
				Msg:    panicMessage(r),
			})
		}
	}()
	in[0] = reflect.ValueOf(cpuexec.NewThread(blk, tid, bid, l.block, l.grid))
	l.k.Func.Call(in)
}

// panicPosition returns the file:line of the panicking statement of kernel
// code. Called from a deferred function during a panic, it walks the stack
// from the panic down and returns the first frame that is neither the Go
// runtime nor the gpukvet packages that implement the kernel API.
func panicPosition() string {
	var pcs [64]uintptr
	n := runtime.Callers(3, pcs[:])
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
