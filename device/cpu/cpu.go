// Package cpu is the reference backend of package device: it runs kernels as
// ordinary Go, one goroutine per thread, with the blocks of a grid spread over
// GOMAXPROCS workers. Every GPU backend is validated against it.
//
// Launch runs the kernel to completion before it returns and keeps the first
// error; Sync and the next Read report it, as a GPU backend reports a trap of
// asynchronous work.
package cpu

import (
	"errors"
	"fmt"
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
func Open() (backend.Backend, error) { return &Backend{}, nil }

// Backend is the cpu backend.
type Backend struct {
	err error // first error of the launches since the last Sync or Read
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
	l := &launch{k: k, grid: dim3(grid), block: dim3(block), in: in}
	l.run()
	if be.err == nil {
		be.err = l.err
	}
	return nil
}

// launch is one kernel launch in progress.
type launch struct {
	k           *backend.Kernel
	grid, block [3]int
	in          []reflect.Value // arguments; in[0] is set per thread

	next   atomic.Int64 // next block to run, linear index
	stride int64        // if not 0, worker w runs blocks w, w+stride, ...
	failed atomic.Bool  // a block failed: start no more blocks
	mu     sync.Mutex
	err    error // the first block's error
}

func (l *launch) run() {
	nblocks := int64(l.grid[0] * l.grid[1] * l.grid[2])
	workers := min(int64(runtime.GOMAXPROCS(0)), nblocks)
	if raceEnabled {
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
		wg.Go(func() { l.work(w) })
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
	for b := w; !l.failed.Load(); b += l.stride {
		if l.stride == 0 {
			b = l.next.Add(1) - 1
		}
		if b >= int64(l.grid[0]*l.grid[1]*l.grid[2]) {
			return
		}
		bid := unlinear(int(b), l.grid)
		blk.Reset(bid)
		done.Add(n - 1)
		for _, c := range start[1:] {
			c <- bid
		}
		l.runThread(in, blk, bid, [3]int{})
		done.Wait()
		if err := blk.Err(); err != nil {
			l.mu.Lock()
			if l.err == nil {
				l.err = err
			}
			l.mu.Unlock()
			l.failed.Store(true)
		}
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
