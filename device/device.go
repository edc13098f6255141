// Package device is the host runtime of gpukvet: it opens a backend, moves
// data between host and device memory, and launches //gpu:kernel functions.
//
// The environment variable GPUKVET_DEVICE (cuda, vulkan, hip or cpu) chooses
// the backend; a chosen backend that does not work is an error, never a silent
// fallback. Unset, Open takes the first GPU backend that works, else cpu.
// backends.go lists the backends.
//
// Launch needs to know each kernel's //gpu:kernel options and how many
// dimensions of the thread indices it reads. Code that `gpukvet gen` writes
// tells it with RegisterKernel, together with the kernel's compiled GPU
// code. A kernel nobody registered is read from its source: the runtime finds
// the file that declares the function (runtime.FuncForPC), parses its
// package's files once with go/parser, reads the directive with
// internal/directive, as the analyzers do, and counts the dimensions from the
// syntax, erring towards more. That needs the sources where the program runs.
//
// Launch checks every argument against the kernel's parameters and returns
// an error naming the kernel and the parameter for a wrong count or type, a
// host slice where a *Buffer is needed, a nil, freed or foreign buffer, and
// for a grid or block shape that the kernel's options or dimensionality
// forbid. Untyped constant arguments (which reach Launch as int or float64)
// are converted to a numeric parameter's type as Go converts constants.
package device

import (
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// Device is an open backend.
type Device struct {
	mu     sync.Mutex
	be     backend.Backend
	closed bool
}

// Close releases the device. Buffers still allocated on it become unusable.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errors.New("device: Close of a closed device")
	}
	d.closed = true
	return d.be.Close()
}

// Backend returns "cuda", "vulkan", "hip" or "cpu".
func (d *Device) Backend() string { return d.be.Name() }

// Buffer is a device-memory array of n elements of type T. It stands for a []T
// kernel parameter in Launch.
type Buffer[T any] struct {
	d     *Device
	n     int
	mem   backend.Memory
	freed bool
}

// Alloc returns a buffer of n zeroed elements.
func Alloc[T any](d *Device, n int) (*Buffer[T], error) {
	if n < 0 {
		return nil, fmt.Errorf("device.Alloc: negative length %d", n)
	}
	if err := checkElem[T]("device.Alloc"); err != nil {
		return nil, err
	}
	if d == nil {
		return nil, errors.New("device.Alloc: nil *Device")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errors.New("device.Alloc: device is closed")
	}
	m, err := d.be.Alloc(reflect.TypeFor[T](), n)
	if err != nil {
		return nil, fmt.Errorf("device.Alloc of %d × %v: %w", n, reflect.TypeFor[T](), err)
	}
	return &Buffer[T]{d: d, n: n, mem: m}, nil
}

// Upload returns a buffer holding a copy of src.
func Upload[T any](d *Device, src []T) (*Buffer[T], error) {
	b, err := Alloc[T](d, len(src))
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	err = d.be.Write(b.mem, reflect.ValueOf(src))
	d.mu.Unlock()
	if err != nil {
		b.Free()
		return nil, fmt.Errorf("device.Upload: %w", err)
	}
	return b, nil
}

// Len returns the number of elements.
func (b *Buffer[T]) Len() int { return b.n }

// Download waits for the work launched on the buffer's device and returns a
// copy of the buffer's contents. A kernel trap is reported here if Sync has
// not reported it yet.
func (b *Buffer[T]) Download() ([]T, error) {
	if b == nil {
		return nil, b.usable("Download")
	}
	b.d.mu.Lock()
	defer b.d.mu.Unlock()
	if err := b.usable("Download"); err != nil {
		return nil, err
	}
	if b.d.closed {
		return nil, fmt.Errorf("device: Download of a *Buffer[%v] whose device is closed", reflect.TypeFor[T]())
	}
	out := make([]T, b.n)
	if err := b.d.be.Read(reflect.ValueOf(out), b.mem); err != nil {
		return nil, err
	}
	return out, nil
}

// Free releases the buffer. A second Free, or any use after it, is an error.
func (b *Buffer[T]) Free() error {
	if b == nil {
		return b.usable("Free")
	}
	b.d.mu.Lock()
	defer b.d.mu.Unlock()
	if err := b.usable("Free"); err != nil {
		return err
	}
	b.freed = true
	if b.d.closed {
		return nil // Close released the memory already
	}
	return b.d.be.Free(b.mem)
}

// usable reports a nil or freed buffer; b.d.mu is held unless b is nil.
func (b *Buffer[T]) usable(op string) error {
	if b == nil {
		return fmt.Errorf("device: %s of a nil *Buffer[%v]", op, reflect.TypeFor[T]())
	}
	if b.freed {
		return fmt.Errorf("device: %s of a freed *Buffer[%v]", op, reflect.TypeFor[T]())
	}
	return nil
}

// Sync waits until all work launched on d is done. A kernel that trapped is
// reported as an error naming the kernel and the Go source position.
func (d *Device) Sync() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errors.New("device: Sync of a closed device")
	}
	return d.be.Sync()
}

// Launch runs kernel (a //gpu:kernel function) on a grid of blocks. A
// *Buffer[T] stands for a []T parameter, a value for a scalar or struct
// parameter. Launch may return before the kernel finishes.
func (d *Device) Launch(kernel any, grid, block gpu.Dim3, args ...any) error {
	k, err := lookupKernel(kernel)
	if err != nil {
		return err
	}
	if d == nil {
		return fmt.Errorf("device.Launch %s: nil *Device", k.Name)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("device.Launch %s: device is closed", k.Name)
	}
	bargs, err := checkLaunch(d, k, grid, block, args)
	if err != nil {
		return err
	}
	return d.be.Launch(&k.Kernel, grid, block, bargs)
}
