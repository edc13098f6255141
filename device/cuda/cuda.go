// Package cuda is gpukvet's backend for NVIDIA GPUs. It drives the CUDA
// driver API in libcuda.so.1 through purego, without cgo, so binaries built
// with CGO_ENABLED=0 run on any Linux machine and use a GPU where there is one.
//
// Kernels run from PTX modules that the codegen compiled from their Go source
// (`gpukvet gen` embeds them and registers them as backend.Code). The driver
// context is owned by one locked OS thread that serves every driver call,
// in order; Launch queues the call for that thread without waiting (after a
// kernel's first launch, which loads its module), and kernels run
// asynchronously on the context's default stream.
//
// Traps: every launch gets its own 56-byte trap record in device memory,
// passed as the kernel's hidden last parameter. A thread that hits a Go
// run-time panic (index out of range, division by zero, explicit panic)
// records the cause, the source-position id, its block and thread, and exits;
// Sync and Read check the records of the launches since the last check and
// report the first trap as a *backend.Trap naming the kernel and its Go
// file:line. The context stays usable.
package cuda

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// trapSlots is the number of launches whose trap records are kept between
// two checks; a launch beyond it checks (and keeps any trap for the next
// Sync) first.
const trapSlots = 4096

// Backend is the cuda backend. Open returns it as a backend.Backend; the
// extra methods (Info, CopyDeviceToDevice, Time) serve tests and benchmarks.
type Backend struct {
	drv  *driver
	own  *owner
	ctx  uintptr
	dev  int32
	info Info

	trap     uintptr              // trapSlots trap records
	launched []*backend.Kernel    // the kernel of each used trap slot, in order
	pending  error                // a trap found early, reported by the next Sync or Read
	modules  map[[32]byte]uintptr // CUmodule per PTX text
	funcs    map[entryKey]uintptr // on the owner thread
	ready    map[entryKey]uintptr // the same, on the callers' side
	closed   bool
}

// Info describes the GPU a Backend runs on.
type Info struct {
	Name          string // e.g. "NVIDIA H200"
	Ordinal       int
	Major, Minor  int // compute capability
	SMs           int
	TotalMemory   int64
	DriverVersion int // e.g. 13000
}

// Open opens the GPU that GPUKVET_CUDA_DEVICE numbers (default 0). It fails
// with a clear error when there is no NVIDIA driver or no GPU.
func Open() (backend.Backend, error) {
	b, err := OpenBackend()
	if err != nil {
		return nil, err
	}
	return b, nil
}

// OpenBackend is Open returning the concrete type.
func OpenBackend() (*Backend, error) {
	path := libName
	if p := os.Getenv("GPUKVET_LIBCUDA"); p != "" {
		path = p
	}
	drv, err := loadDriver(path)
	if err != nil {
		return nil, err
	}
	ordinal := 0
	if s := os.Getenv("GPUKVET_CUDA_DEVICE"); s != "" {
		if ordinal, err = strconv.Atoi(s); err != nil || ordinal < 0 {
			return nil, fmt.Errorf("cuda: GPUKVET_CUDA_DEVICE=%q is not a device number", s)
		}
	}
	b := &Backend{drv: drv, modules: map[[32]byte]uintptr{}, funcs: map[entryKey]uintptr{}, ready: map[entryKey]uintptr{}}
	own, err := startOwner(func() error { return b.setup(ordinal) })
	if err != nil {
		return nil, err
	}
	b.own = own
	return b, nil
}

// setup runs on the owning thread: it makes the device's primary context
// current there and allocates the trap records.
func (b *Backend) setup(ordinal int) error {
	d := b.drv
	if err := d.call("cuInit", d.cuInit, 0); err != nil {
		if isCode(err, cudaErrNoDevice) {
			return fmt.Errorf("cuda: no CUDA-capable GPU found: %w", err)
		}
		return fmt.Errorf("cuda: the NVIDIA driver did not initialise: %w", err)
	}
	var count int32
	if err := d.call("cuDeviceGetCount", d.cuDeviceGetCount, uintptr(unsafe.Pointer(&count))); err != nil {
		return fmt.Errorf("cuda: %w", err)
	}
	if count == 0 {
		return errors.New("cuda: no CUDA-capable GPU found")
	}
	if ordinal >= int(count) {
		return fmt.Errorf("cuda: GPU %d asked for, but only %d present", ordinal, count)
	}
	if err := d.call("cuDeviceGet", d.cuDeviceGet, uintptr(unsafe.Pointer(&b.dev)), uintptr(ordinal)); err != nil {
		return fmt.Errorf("cuda: %w", err)
	}
	if err := d.call("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&b.ctx)), uintptr(b.dev)); err != nil {
		return fmt.Errorf("cuda: cannot create a context on GPU %d: %w", ordinal, err)
	}
	if err := d.call("cuCtxSetCurrent", d.cuCtxSetCurrent, b.ctx); err != nil {
		return fmt.Errorf("cuda: %w", err)
	}
	b.info = b.readInfo(ordinal)
	var err error
	if b.trap, err = b.alloc(trapSlots * gpuabi.TrapRecordSize); err != nil {
		d.call("cuDevicePrimaryCtxRelease", d.cuDevicePrimaryCtxRelease, uintptr(b.dev))
		return fmt.Errorf("cuda: allocating trap records: %w", err)
	}
	return nil
}

func (b *Backend) readInfo(ordinal int) Info {
	d := b.drv
	info := Info{Ordinal: ordinal}
	name := make([]byte, 256)
	if d.call("cuDeviceGetName", d.cuDeviceGetName, uintptr(unsafe.Pointer(&name[0])), uintptr(len(name)), uintptr(b.dev)) == nil {
		info.Name = goString(&name[0])
	}
	runtime.KeepAlive(name)
	attr := func(a int) int {
		var v int32
		d.call("cuDeviceGetAttribute", d.cuDeviceGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(a), uintptr(b.dev))
		return int(v)
	}
	info.Major, info.Minor = attr(75), attr(76) // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR
	info.SMs = attr(16)                         // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
	var total uint64
	d.call("cuDeviceTotalMem", d.cuDeviceTotalMem, uintptr(unsafe.Pointer(&total)), uintptr(b.dev))
	info.TotalMemory = int64(total)
	var ver int32
	d.call("cuDriverGetVersion", d.cuDriverGetVersion, uintptr(unsafe.Pointer(&ver)))
	info.DriverVersion = int(ver)
	return info
}

// Name returns "cuda".
func (b *Backend) Name() string { return "cuda" }

// Info describes the GPU.
func (b *Backend) Info() Info { return b.info }

// memory is one device allocation.
type memory struct {
	ptr   uintptr // CUdeviceptr; 0 for an empty allocation
	n     int     // elements
	size  int     // bytes
	elem  reflect.Type
	freed bool
}

func (m *memory) Len() int { return m.n }

// alloc returns size zeroed bytes of device memory (on the owning thread).
func (b *Backend) alloc(size int) (uintptr, error) {
	d := b.drv
	var p uintptr
	if err := d.call("cuMemAlloc", d.cuMemAlloc, uintptr(unsafe.Pointer(&p)), uintptr(size)); err != nil {
		if isCode(err, cudaErrOutOfMemory) {
			var free, total uint64
			d.call("cuMemGetInfo", d.cuMemGetInfo, uintptr(unsafe.Pointer(&free)), uintptr(unsafe.Pointer(&total)))
			return 0, fmt.Errorf("cuda: not enough GPU memory for %d bytes (%d of %d bytes free): %w", size, free, total, err)
		}
		return 0, err
	}
	if err := d.call("cuMemsetD8", d.cuMemsetD8, p, 0, uintptr(size)); err != nil {
		d.call("cuMemFree", d.cuMemFree, p)
		return 0, err
	}
	return p, nil
}

// Alloc returns n zeroed elements of type elem.
func (b *Backend) Alloc(elem reflect.Type, n int) (backend.Memory, error) {
	size := int(elem.Size()) * n
	if n > 0 && size/n != int(elem.Size()) {
		return nil, fmt.Errorf("cuda: %d elements of %v overflow the address space", n, elem)
	}
	m := &memory{n: n, size: size, elem: elem}
	if size == 0 {
		return m, nil
	}
	err := b.own.do(func() error {
		var err error
		m.ptr, err = b.alloc(size)
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (b *Backend) mem(m backend.Memory, op string) (*memory, error) {
	return backend.Own[*memory](m, "cuda", op)
}

// Freed reports whether m was freed (backend.Owned).
func (m *memory) Freed() bool { return m.freed }

// Write copies src, a slice of dst's element type and length, to the device.
func (b *Backend) Write(dst backend.Memory, src reflect.Value) error {
	m, err := b.mem(dst, "Write")
	if err != nil {
		return err
	}
	if src.Kind() != reflect.Slice || src.Len() != m.n {
		return fmt.Errorf("cuda: Write of %v into %d elements", src.Type(), m.n)
	}
	if m.size == 0 {
		return nil
	}
	host := src.UnsafePointer()
	return b.own.do(func() error {
		d := b.drv
		err := d.call("cuMemcpyHtoD", d.cuMemcpyHtoD, m.ptr, uintptr(host), uintptr(m.size))
		runtime.KeepAlive(src)
		return err
	})
}

// Read waits for launched work, reports its first trap, and otherwise copies
// the device memory into dst.
func (b *Backend) Read(dst reflect.Value, src backend.Memory) error {
	m, err := b.mem(src, "Read")
	if err != nil {
		return err
	}
	if dst.Kind() != reflect.Slice || dst.Len() != m.n {
		return fmt.Errorf("cuda: Read of %d elements into %v", m.n, dst.Type())
	}
	host := dst.UnsafePointer()
	return b.own.do(func() error {
		if err := b.syncLocked(); err != nil {
			return err
		}
		if m.size == 0 {
			return nil
		}
		d := b.drv
		err := d.call("cuMemcpyDtoH", d.cuMemcpyDtoH, uintptr(host), m.ptr, uintptr(m.size))
		runtime.KeepAlive(dst)
		return err
	})
}

// Free releases device memory.
func (b *Backend) Free(mem backend.Memory) error {
	m, err := b.mem(mem, "Free")
	if err != nil {
		return err
	}
	m.freed = true
	if m.ptr == 0 {
		return nil
	}
	return b.own.do(func() error {
		d := b.drv
		return d.call("cuMemFree", d.cuMemFree, m.ptr)
	})
}

// CopyDeviceToDevice copies src into dst (same size); benchmarks use it to
// measure the device's copy bandwidth. It is asynchronous like a launch.
func (b *Backend) CopyDeviceToDevice(dst, src backend.Memory) error {
	md, err := b.mem(dst, "CopyDeviceToDevice")
	if err != nil {
		return err
	}
	ms, err := b.mem(src, "CopyDeviceToDevice")
	if err != nil {
		return err
	}
	if md.size != ms.size {
		return fmt.Errorf("cuda: CopyDeviceToDevice of %d bytes into %d", ms.size, md.size)
	}
	return b.own.do(func() error {
		d := b.drv
		return d.call("cuMemcpyDtoD", d.cuMemcpyDtoD, md.ptr, ms.ptr, uintptr(ms.size))
	})
}

// entryKey names one entry point of a kernel's code: the one EntryName
// picks for nc and fast.
type entryKey struct {
	code     *backend.Code
	nc, fast bool
}

// EntryName is the entry point of code that Launch starts for the choices
// nc and fast (LaunchChoice): nc when no other argument's buffer overlaps
// a read-only one (EntryNC's condition), fast when the launch facts hold
// (EntryFast's). The variant assuming the facts wins over the one with
// non-coherent loads when the code has no variant with both; a variant the
// code lacks is never chosen.
func EntryName(code *backend.Code, nc, fast bool) string {
	switch {
	case fast && nc && code.EntryFast != "" && code.EntryFastNC != "":
		return code.EntryFastNC
	case fast && code.EntryFast != "":
		return code.EntryFast
	case nc && code.EntryNC != "":
		return code.EntryNC
	}
	return code.Entry
}

// launchFacts reports whether code's launch facts hold for a launch with
// these parameters and shape (extents below 1 count as 1, as
// cuLaunchKernel gets them): whether it may run EntryFast. Code without
// a fast variant, and facts that do not evaluate (a malformed program),
// give false: Entry is correct for every launch.
func launchFacts(code *backend.Code, params *kernelParams, grid, block gpu.Dim3) bool {
	if code == nil || code.Facts == nil || code.EntryFast == "" {
		return false
	}
	return backend.FactsHold(code.Facts, params.read, block, grid)
}

// launchKey is the entry point a launch of k with these arguments (params
// marshalled from args) runs.
func launchKey(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg, params *kernelParams) entryKey {
	c := k.Code
	if c == nil {
		return entryKey{}
	}
	return entryKey{
		code: c,
		nc:   c.EntryNC != "" && nonCoherent(c.ReadOnly, spans(args)),
		fast: launchFacts(c, params, grid, block),
	}
}

// LaunchChoice reports which of k's entry points Launch would start with
// these arguments: nc, the variant with non-coherent loads of the
// read-only slices; fast, the variant compiled assuming the launch facts
// (backend.Code). EntryName names it. It exists for benchmarks that
// launch gpukvet's entry points by name (LoadRaw), so that they run what
// Launch would.
func (b *Backend) LaunchChoice(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) (nc, fast bool, err error) {
	params, err := marshalParams(k, args, 0)
	if err != nil {
		return false, false, err
	}
	key := launchKey(k, grid, block, args, params)
	return key.nc, key.fast, nil
}

// function returns the CUfunction of the entry point key names in a
// kernel's compiled code, loading its module once per PTX text.
func (b *Backend) function(k *backend.Kernel, key entryKey) (uintptr, error) {
	c := k.Code
	if c == nil || len(c.PTX) == 0 {
		return 0, fmt.Errorf("kernel %s has no compiled GPU code: run `go generate` (//go:generate go tool gpukvet gen) in its package", k.Name)
	}
	if f, ok := b.funcs[key]; ok {
		return f, nil
	}
	if err := backend.CheckStale(k); err != nil {
		return 0, err
	}
	sum := sha256.Sum256(c.PTX)
	mod, ok := b.modules[sum]
	if !ok {
		var err error
		if mod, err = b.loadModule(c.PTX); err != nil {
			return 0, fmt.Errorf("kernel %s: %w", k.Name, err)
		}
		b.modules[sum] = mod
	}
	d := b.drv
	name := EntryName(c, key.nc, key.fast)
	entry := append([]byte(name), 0)
	var f uintptr
	if err := d.call("cuModuleGetFunction", d.cuModuleGetFunction, uintptr(unsafe.Pointer(&f)), mod, uintptr(unsafe.Pointer(&entry[0]))); err != nil {
		return 0, fmt.Errorf("kernel %s: entry point %q not in its PTX module: %w", k.Name, name, err)
	}
	runtime.KeepAlive(entry)
	b.funcs[key] = f
	return f, nil
}

// loadModule JIT-compiles a PTX module, returning ptxas's log in the error,
// each PTX line it cites traced to its entry point and Go line.
func (b *Backend) loadModule(ptx []byte) (uintptr, error) {
	const (
		jitErrorLogBuffer     = 5 // CU_JIT_ERROR_LOG_BUFFER
		jitErrorLogBufferSize = 6 // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
	)
	image := append(append([]byte(nil), ptx...), 0)
	log := make([]byte, 8192)
	opts := []int32{jitErrorLogBuffer, jitErrorLogBufferSize}
	vals := []uintptr{uintptr(unsafe.Pointer(&log[0])), uintptr(len(log))}
	d := b.drv
	var mod uintptr
	err := d.call("cuModuleLoadDataEx", d.cuModuleLoadDataEx, uintptr(unsafe.Pointer(&mod)),
		uintptr(unsafe.Pointer(&image[0])), uintptr(len(opts)),
		uintptr(unsafe.Pointer(&opts[0])), uintptr(unsafe.Pointer(&vals[0])))
	runtime.KeepAlive(image)
	runtime.KeepAlive(log)
	runtime.KeepAlive(opts)
	runtime.KeepAlive(vals)
	if err != nil {
		if msg := goString(&log[0]); msg != "" {
			return 0, fmt.Errorf("loading its PTX module: %w\n%s", err, gpuabi.ExplainPTXLog(string(ptx), msg))
		}
		return 0, fmt.Errorf("loading its PTX module: %w", err)
	}
	return mod, nil
}

// Launch starts k asynchronously on the default stream. The first launch of
// a kernel's code waits for the owner thread (it loads the module and checks
// that the code is not stale, and reports any failure here); later launches
// only queue the call for the owner thread and return. A failure of the
// driver's launch call itself (rare: the checks before it catch wrong
// arguments and shapes) is then reported by the next Sync or Read, naming
// the kernel.
func (b *Backend) Launch(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) error {
	params, err := marshalParams(k, args, 0) // the trap record is chosen on the owner thread
	if err != nil {
		return err
	}
	key := launchKey(k, grid, block, args, params)
	f, ok := b.ready[key]
	if !ok {
		err := b.own.do(func() error {
			var err error
			f, err = b.function(k, key)
			return err
		})
		if err != nil {
			return err
		}
		b.ready[key] = f
	}
	g, bl := extent(grid), extent(block)
	return b.own.post(func() {
		if len(b.launched) == trapSlots {
			// Out of trap records: check the ones in use now, keeping a
			// trap for the next Sync (Launch never reports a trap).
			if err := b.syncLocked(); err != nil && b.pending == nil {
				b.pending = err
			}
		}
		params.cells[len(params.cells)-1] = uint64(b.trap + uintptr(len(b.launched)*gpuabi.TrapRecordSize))
		d := b.drv
		err := d.call("cuLaunchKernel", d.cuLaunchKernel, f,
			uintptr(g.X), uintptr(g.Y), uintptr(g.Z),
			uintptr(bl.X), uintptr(bl.Y), uintptr(bl.Z),
			0, 0, uintptr(unsafe.Pointer(&params.ptrs[0])), 0)
		runtime.KeepAlive(params)
		if err != nil {
			if b.pending == nil {
				b.pending = fmt.Errorf("launching kernel %s with grid %v block %v: %w", k.Name, grid, block, err)
			}
			return
		}
		b.launched = append(b.launched, k)
	})
}

func extent(d gpu.Dim3) gpu.Dim3 {
	one := func(v int) int { return max(v, 1) }
	return gpu.Dim3{X: one(d.X), Y: one(d.Y), Z: one(d.Z)}
}

// Sync waits for every launched kernel and returns the first trap.
func (b *Backend) Sync() error {
	return b.own.do(b.syncLocked)
}

// syncLocked waits for the device, then reads and clears the trap records
// of the launches since the last check (on the owning thread).
func (b *Backend) syncLocked() error {
	d := b.drv
	if err := d.call("cuCtxSynchronize", d.cuCtxSynchronize); err != nil {
		if len(b.launched) > 0 {
			names := b.launched[len(b.launched)-1].Name
			return fmt.Errorf("cuda: a kernel failed (last launched: %s); the GPU context may be unusable now: %w", names, err)
		}
		return fmt.Errorf("cuda: %w", err)
	}
	var first error
	if n := len(b.launched); n > 0 {
		recs := make([]byte, n*gpuabi.TrapRecordSize)
		if err := d.call("cuMemcpyDtoH", d.cuMemcpyDtoH, uintptr(unsafe.Pointer(&recs[0])), b.trap, uintptr(len(recs))); err != nil {
			return fmt.Errorf("cuda: reading trap records: %w", err)
		}
		runtime.KeepAlive(recs)
		trapped := false
		for i, k := range b.launched {
			if err := backend.DecodeTrap(recs[i*gpuabi.TrapRecordSize:(i+1)*gpuabi.TrapRecordSize], k); err != nil {
				trapped = true
				if first == nil {
					first = err
				}
			}
		}
		if trapped {
			if err := d.call("cuMemsetD8", d.cuMemsetD8, b.trap, 0, uintptr(len(recs))); err != nil {
				return fmt.Errorf("cuda: clearing trap records: %w", err)
			}
		}
		b.launched = b.launched[:0]
	}
	if b.pending != nil {
		first, b.pending = b.pending, nil
	}
	return first
}

// Time runs f (which launches work) between two GPU events and returns the
// GPU time between them. Benchmarks use it.
func (b *Backend) Time(f func() error) (time.Duration, error) {
	d := b.drv
	var start, stop uintptr
	err := b.own.do(func() error {
		if err := d.call("cuEventCreate", d.cuEventCreate, uintptr(unsafe.Pointer(&start)), 0); err != nil {
			return err
		}
		if err := d.call("cuEventCreate", d.cuEventCreate, uintptr(unsafe.Pointer(&stop)), 0); err != nil {
			return err
		}
		return d.call("cuEventRecord", d.cuEventRecord, start, 0)
	})
	if err != nil {
		return 0, err
	}
	defer b.own.do(func() error {
		d.call("cuEventDestroy", d.cuEventDestroy, start)
		d.call("cuEventDestroy", d.cuEventDestroy, stop)
		return nil
	})
	if err := f(); err != nil {
		return 0, err
	}
	var ms float32
	err = b.own.do(func() error {
		if err := d.call("cuEventRecord", d.cuEventRecord, stop, 0); err != nil {
			return err
		}
		if err := d.call("cuEventSynchronize", d.cuEventSynchronize, stop); err != nil {
			return err
		}
		return d.call("cuEventElapsedTime", d.cuEventElapsedTime, uintptr(unsafe.Pointer(&ms)), start, stop)
	})
	if err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// Close waits for launched work, unloads the modules and releases the context.
func (b *Backend) Close() error {
	if b.closed {
		return errors.New("cuda: Close of a closed device")
	}
	b.closed = true
	err := b.own.do(func() error {
		d := b.drv
		err := b.syncLocked()
		for _, m := range b.modules {
			d.call("cuModuleUnload", d.cuModuleUnload, m)
		}
		d.call("cuMemFree", d.cuMemFree, b.trap)
		d.call("cuDevicePrimaryCtxRelease", d.cuDevicePrimaryCtxRelease, uintptr(b.dev))
		return err
	})
	b.own.stop()
	return err
}

// spans returns the device address range [start, end) of each slice
// argument's buffer (empty for other arguments and empty slices).
// marshalParams has checked that every slice argument is this backend's.
func spans(args []backend.Arg) [][2]uintptr {
	out := make([][2]uintptr, len(args))
	for i, a := range args {
		if m, ok := a.Mem.(*memory); ok && m != nil && m.ptr != 0 {
			out[i] = [2]uintptr{m.ptr, m.ptr + uintptr(m.size)}
		}
	}
	return out
}

// nonCoherent reports whether a launch may use the entry point that reads
// the readOnly arguments through the non-coherent cache: no other
// argument's buffer overlaps one of theirs (two read-only arguments may
// share a buffer).
func nonCoherent(readOnly []int, spans [][2]uintptr) bool {
	ro := map[int]bool{}
	for _, i := range readOnly {
		if i < 0 || i >= len(spans) {
			return false
		}
		ro[i] = true
	}
	for _, r := range readOnly {
		a := spans[r]
		for j, b := range spans {
			if !ro[j] && a[0] < a[1] && b[0] < b[1] && a[0] < b[1] && b[0] < a[1] {
				return false
			}
		}
	}
	return true
}
