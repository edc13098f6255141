package cuda

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// RawFunc is an entry point of a module loaded with LoadRaw: code from any
// compiler (a cubin or PTX from nvcc, or gpukvet's own PTX), launched with
// its parameters as they are, on the backend's context. It exists for
// benchmarks that compare gpukvet's code with other compilers' in one
// process; programs launch kernels through package device.
type RawFunc struct {
	b    *Backend
	f    uintptr
	Name string
}

// LoadRaw loads a module image (PTX text or a cubin) and returns its entry
// point entry.
func (b *Backend) LoadRaw(image []byte, entry string) (*RawFunc, error) {
	var f uintptr
	err := b.own.do(func() error {
		mod, err := b.loadModule(image)
		if err != nil {
			return err
		}
		d := b.drv
		name := append([]byte(entry), 0)
		err = d.call("cuModuleGetFunction", d.cuModuleGetFunction, uintptr(unsafe.Pointer(&f)), mod, uintptr(unsafe.Pointer(&name[0])))
		runtime.KeepAlive(name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cuda: raw entry %s: %w", entry, err)
	}
	return &RawFunc{b: b, f: f, Name: entry}, nil
}

// Attributes returns the registers per thread and the local memory per
// thread (bytes) of the function, as the driver reports them.
func (r *RawFunc) Attributes() (regs, local int, err error) {
	const (
		attrLocalSize = 3 // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES
		attrNumRegs   = 4 // CU_FUNC_ATTRIBUTE_NUM_REGS
	)
	var nr, nl int32
	err = r.b.own.do(func() error {
		d := r.b.drv
		if err := d.call("cuFuncGetAttribute", d.cuFuncGetAttribute, uintptr(unsafe.Pointer(&nr)), attrNumRegs, r.f); err != nil {
			return err
		}
		return d.call("cuFuncGetAttribute", d.cuFuncGetAttribute, uintptr(unsafe.Pointer(&nl)), attrLocalSize, r.f)
	})
	return int(nr), int(nl), err
}

// Launch queues reps launches of the function with the given parameters,
// each passed as its own kernel parameter: int, int64, uint64 and
// uintptr as 8 bytes, int32 and uint32 as 4, float32 and float64 as
// themselves, and a backend.Memory of this backend as its device address.
// It returns after queuing; Sync or Time waits.
func (r *RawFunc) Launch(reps int, grid, block gpu.Dim3, args ...any) error {
	cells := make([]uint64, len(args)+1)
	ptrs := make([]unsafe.Pointer, len(args)+1)
	for i, a := range args {
		switch a := a.(type) {
		case int:
			cells[i] = uint64(a)
		case int64:
			cells[i] = uint64(a)
		case uint64:
			cells[i] = a
		case uintptr:
			cells[i] = uint64(a)
		case int32:
			cells[i] = uint64(uint32(a))
		case uint32:
			cells[i] = uint64(a)
		case float32:
			cells[i] = uint64(math.Float32bits(a))
		case float64:
			cells[i] = math.Float64bits(a)
		case backend.Memory:
			m, err := r.b.mem(a, "raw launch")
			if err != nil {
				return err
			}
			cells[i] = uint64(m.ptr)
		default:
			return fmt.Errorf("cuda: raw launch of %s: parameter %d has type %T", r.Name, i, a)
		}
		ptrs[i] = unsafe.Pointer(&cells[i])
	}
	g, bl := extent(grid), extent(block)
	return r.b.own.do(func() error {
		d := r.b.drv
		for range reps {
			err := d.call("cuLaunchKernel", d.cuLaunchKernel, r.f,
				uintptr(g.X), uintptr(g.Y), uintptr(g.Z), uintptr(bl.X), uintptr(bl.Y), uintptr(bl.Z),
				0, 0, uintptr(unsafe.Pointer(&ptrs[0])), 0)
			if err != nil {
				return fmt.Errorf("cuda: raw launch of %s: %w", r.Name, err)
			}
		}
		runtime.KeepAlive(cells)
		runtime.KeepAlive(ptrs)
		return nil
	})
}
