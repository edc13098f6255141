// Package device is the host runtime of gpukvet: it opens a backend, moves
// data between host and device memory, and launches //gpu:kernel functions.
//
// The environment variable GPUKVET_DEVICE (cuda, vulkan or cpu) chooses
// the backend; a chosen backend that does not work is an error, never a silent
// fallback. Unset, Open takes the first GPU backend that works, else cpu.
// Backends lists the backends built in (there is no HIP backend: AMD GPUs
// are reached through their Vulkan drivers).
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
// Launch also refuses a grid beyond the backend's limits (CUDA's for every
// backend, and a backend's own through backend.Limiter: the cpu backend's is
// cpu.MaxThreads threads per launch), and a kernel without generated code
// whose source recurses or uses go, defer, select, channels or closures:
// on the cpu backend they would overflow a stack Go cannot recover or
// mean nothing on a GPU thread, so Launch names the construct instead.
//
// Nothing waits without bound unless asked to: Sync, Download, Upload and
// Close wait at most the device's default deadline (GPUKVET_TIMEOUT, or the
// WithTimeout option; none when both are unset, but Close then waits 2 s at
// most), and SyncContext and DownloadContext take a context. A context
// already done fails the call at once and leaves the launched work, the
// device and its buffers as they were. When it passes, the error names the
// kernel; a backend that stops the kernel (through backend.ContextBackend:
// the cpu backend, and the GPU backends in every loop the compiler could
// not prove finite) keeps the device usable, and a device whose kernel
// does not stop within backend.StopGrace, or whose backend cannot stop one,
// becomes unusable: every later call says so.
//
// Validation (GPUKVET_VALIDATE=1, or the WithValidation option) repeats
// every launch on the cpu backend and compares the buffers the kernel may
// write.
//
// A Device and its Buffers may be used from several goroutines at once;
// every method of a nil, zero or closed Device, and of a nil, freed or zero
// Buffer, returns an error. errors.Is tells the kinds of error apart:
// ErrInvalid, ErrClosed, ErrFreed, ErrLaunch, ErrTrap and ErrTimeout.
package device

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// Device is an open backend. Its methods may be called from several
// goroutines at once; they take turns.
type Device struct {
	mu      sync.Mutex
	be      backend.Backend
	closed  bool
	lost    error         // a wait passed its deadline and the work could not be stopped
	pending []string      // kernels launched since the last Sync, for errors
	timeout time.Duration // default deadline of Sync and Download; 0: none
	val     *validator    // nil unless validation is on
}

// Option configures a Device in Open and OpenBackend.
type Option func(*Device) error

// WithTimeout sets the deadline that Sync and Download (and Upload and
// Close, which wait for launched work too) apply when they are given no
// context; it overrides GPUKVET_TIMEOUT. 0 means none.
func WithTimeout(d time.Duration) Option {
	return func(dev *Device) error {
		if d < 0 {
			return fmt.Errorf("device.WithTimeout: negative duration %v", d)
		}
		dev.timeout = d
		return nil
	}
}

// newDevice wraps an open backend, applying the environment and opts.
func newDevice(be backend.Backend, opts []Option) (*Device, error) {
	d := &Device{be: be}
	if v := os.Getenv("GPUKVET_TIMEOUT"); v != "" {
		t, err := time.ParseDuration(v)
		if err != nil || t < 0 {
			be.Close()
			return nil, fmt.Errorf("device.Open: GPUKVET_TIMEOUT=%q is not a duration such as 30s or 2m", v)
		}
		d.timeout = t
	}
	if err := validateFromEnv(d); err != nil {
		be.Close()
		return nil, err
	}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(d); err != nil {
			be.Close()
			return nil, err
		}
	}
	if d.val != nil {
		if err := d.val.open(d); err != nil {
			be.Close()
			return nil, err
		}
	}
	return d, nil
}

// opened reports a nil *Device, or a zero one that Open, OpenBackend and
// New did not make; it reads only a field that never changes, so it needs
// no lock.
func (d *Device) opened(op string) error {
	switch {
	case d == nil:
		return errorf(ErrInvalid, "device.%s: nil *Device", op)
	case d.be == nil:
		return errorf(ErrInvalid, "device.%s: a Device that device.Open, OpenBackend or New did not make (a zero device.Device{}): open one with device.Open", op)
	}
	return nil
}

// usable reports a closed or lost device; d.mu is held.
func (d *Device) usable(op string) error {
	switch {
	case d.closed:
		return fmt.Errorf("device.%s: %w", op, ErrClosed)
	case d.lost != nil:
		return fmt.Errorf("device.%s: device is unusable since an earlier wait passed its deadline: %w", op, d.lost)
	}
	return nil
}

// Close releases the device; launched work is waited for first (within the
// default deadline, or backend.StopGrace, 2 s, when the device has none:
// Close never waits forever; a backend that can stop what does not finish
// does, and Close then says so). Buffers still allocated on it become
// unusable.
func (d *Device) Close() error {
	if err := d.opened("Close"); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("device.Close: %w already", ErrClosed)
	}
	d.closed = true
	var errs []error
	if d.val != nil {
		errs = append(errs, d.val.close())
	}
	if d.lost != nil {
		// The backend may be stuck in the call that timed out: do not wait
		// for it.
		errs = append(errs, fmt.Errorf("device.Close: the backend's resources are not released: an earlier wait passed its deadline: %w", d.lost))
		return errors.Join(errs...)
	}
	if len(d.pending) > 0 {
		ctx, cancel := d.closeDeadline()
		err := d.wait(ctx, "Close", func(cb backend.ContextBackend) error { return cb.SyncContext(ctx) }, d.be.Sync)
		cancel()
		var te *backend.TimeoutError
		if errors.As(err, &te) {
			errs = append(errs, err)
		}
	}
	if d.lost == nil {
		errs = append(errs, d.be.Close())
	}
	return errors.Join(errs...)
}

// Backend returns "cuda", "vulkan" or "cpu" ("" for a nil or zero Device).
func (d *Device) Backend() string {
	if d.opened("Backend") != nil {
		return ""
	}
	return d.be.Name()
}

// closeDeadline is Close's deadline: the device's default one, or, when it
// has none, backend.StopGrace, the bound the backends' own Close puts on
// launched work: Close never waits forever, and a kernel still running
// then is stopped (cpu, GPU stop words) or abandoned with the device's
// resources (a backend that cannot stop it).
func (d *Device) closeDeadline() (context.Context, context.CancelFunc) {
	t := d.timeout
	if t == 0 {
		t = backend.StopGrace
	}
	return context.WithTimeout(context.Background(), t)
}

// deadline returns ctx bounded by the device's default deadline when ctx
// has none.
func (d *Device) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok || d.timeout == 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d.timeout)
}

// wait runs a backend call that waits for launched work: through the
// backend's context method if it has one, else on another goroutine,
// abandoning it (and the device with it) when ctx is done first. d.mu is
// held.
func (d *Device) wait(ctx context.Context, op string, withCtx func(backend.ContextBackend) error, plain func() error) error {
	if err := ctx.Err(); err != nil {
		// Done before the call: it fails without touching the backend, so
		// the launched work, the device and its buffers are as they were.
		return fmt.Errorf("device.%s: %w before the call (the launched work goes on; the device and its buffers stay usable)", op, err)
	}
	if cb, ok := d.be.(backend.ContextBackend); ok {
		return d.timedOut(op, withCtx(cb))
	}
	if ctx.Done() == nil {
		return plain()
	}
	done := make(chan error, 1)
	go func() { done <- plain() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	te := backend.NotStopped(d.be.Name(), nil, ctx.Err(), "cannot stop it")
	te.Kernel = d.runningKernel() // the device knows the launches, by name
	return d.timedOut(op, te)
}

// runningKernel names the kernel a generic wait waited for: the first one
// launched since the last Sync.
func (d *Device) runningKernel() string {
	switch len(d.pending) {
	case 0:
		return "(none launched)"
	case 1:
		return d.pending[0]
	}
	return fmt.Sprintf("%s (the first of %d launched since the last Sync)", d.pending[0], len(d.pending))
}

// timedOut turns a backend's *TimeoutError into the device's error, and
// marks the device lost when the work was not stopped.
func (d *Device) timedOut(op string, err error) error {
	var te *backend.TimeoutError
	if !errors.As(err, &te) {
		return err
	}
	err = fmt.Errorf("device.%s: %w", op, err)
	if !te.Stopped {
		d.lost = err
	}
	d.pending = nil
	return err
}

// Buffer is a device-memory array of n elements of type T. It stands for a []T
// kernel parameter in Launch.
type Buffer[T any] struct {
	d     *Device
	n     int
	mem   backend.Memory
	freed bool
}

// Alloc returns a buffer of n zeroed elements. An allocation the backend
// cannot hold is an error saying how much memory is free.
func Alloc[T any](d *Device, n int) (*Buffer[T], error) {
	if n < 0 {
		return nil, fmt.Errorf("device.Alloc: negative length %d", n)
	}
	if err := checkElem[T]("device.Alloc"); err != nil {
		return nil, err
	}
	if err := d.opened("Alloc"); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.usable("Alloc"); err != nil {
		return nil, err
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
	err = d.write(b.mem, reflect.ValueOf(src))
	d.mu.Unlock()
	if err != nil {
		b.Free()
		return nil, fmt.Errorf("device.Upload: %w", err)
	}
	return b, nil
}

// write copies src into m, within the default deadline. d.mu is held.
func (d *Device) write(m backend.Memory, src reflect.Value) error {
	if err := d.usable("Upload"); err != nil {
		return err
	}
	ctx, cancel := d.deadline(context.Background())
	defer cancel()
	return d.wait(ctx, "Upload",
		func(cb backend.ContextBackend) error { return cb.WriteContext(ctx, m, src) },
		func() error { return d.be.Write(m, src) })
}

// Len returns the number of elements (0 for a nil buffer).
func (b *Buffer[T]) Len() int {
	if b == nil {
		return 0
	}
	return b.n
}

// Download waits for the work launched on the buffer's device and returns a
// copy of the buffer's contents. A kernel trap is reported here if Sync has
// not reported it yet. It waits at most the device's default deadline
// (GPUKVET_TIMEOUT, WithTimeout).
func (b *Buffer[T]) Download() ([]T, error) {
	return b.DownloadContext(context.Background())
}

// DownloadContext is Download with a deadline: when ctx is done before the
// launched work, the error names the kernel that was running (see
// Device.SyncContext).
func (b *Buffer[T]) DownloadContext(ctx context.Context) ([]T, error) {
	if err := b.usable("Download"); err != nil {
		return nil, err
	}
	d := b.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if b.freed {
		return nil, errorf(ErrFreed, "device.Download of a freed *Buffer[%v]", reflect.TypeFor[T]())
	}
	if err := d.usable("Download"); err != nil {
		return nil, err
	}
	ctx, cancel := d.deadline(ctx)
	defer cancel()
	out := make([]T, b.n)
	dst := reflect.ValueOf(out)
	err := d.wait(ctx, "Download",
		func(cb backend.ContextBackend) error { return cb.ReadContext(ctx, dst, b.mem) },
		func() error { return d.be.Read(dst, b.mem) })
	if err == nil || errors.As(err, new(*backend.Trap)) {
		d.pending = nil // Read reported the launches' errors, as Sync does
	}
	if verr := d.validated(err == nil); verr != nil {
		return nil, verr
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Free releases the buffer. A second Free, or any use after it, is an error.
func (b *Buffer[T]) Free() error {
	if err := b.usable("Free"); err != nil {
		return err
	}
	b.d.mu.Lock()
	defer b.d.mu.Unlock()
	if b.freed {
		return errorf(ErrFreed, "device.Free of a freed *Buffer[%v]", reflect.TypeFor[T]())
	}
	b.freed = true
	if b.d.closed || b.d.lost != nil {
		return nil // Close released the memory already, or the backend is stuck
	}
	return b.d.be.Free(b.mem)
}

// usable reports a nil buffer or one no device made; it reads only
// fields that never change, so it needs no lock.
func (b *Buffer[T]) usable(op string) error {
	if b == nil {
		return errorf(ErrInvalid, "device.%s of a nil *Buffer[%v]", op, reflect.TypeFor[T]())
	}
	if b.d == nil || b.mem == nil {
		return errorf(ErrInvalid, "device.%s of a *Buffer[%v] that device.Alloc or device.Upload did not make", op, reflect.TypeFor[T]())
	}
	return nil
}

// Sync waits until all work launched on d is done, at most the device's
// default deadline (GPUKVET_TIMEOUT, WithTimeout). A kernel that trapped is
// reported as an error naming the kernel and the Go source position.
func (d *Device) Sync() error { return d.SyncContext(context.Background()) }

// SyncContext is Sync with a deadline. When ctx is done first, the error
// names the kernel that was running. The backend stops it where it can
// (the cpu backend's threads end at their next call of BlockDim, GridDim,
// Barrier or gpu.Shared; a GPU kernel traps in a loop the compiler could
// not prove finite) and the device stays usable; where the kernel does not
// stop, the device becomes unusable: Close it and Open another.
func (d *Device) SyncContext(ctx context.Context) error {
	if err := d.opened("Sync"); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.usable("Sync"); err != nil {
		return err
	}
	ctx, cancel := d.deadline(ctx)
	defer cancel()
	err := d.wait(ctx, "Sync", func(cb backend.ContextBackend) error { return cb.SyncContext(ctx) }, d.be.Sync)
	if err == nil || errors.As(err, new(*backend.Trap)) {
		d.pending = nil
	}
	if verr := d.validated(err == nil); verr != nil {
		return verr
	}
	return err
}

// Launch runs kernel (a //gpu:kernel function) on a grid of blocks. A
// *Buffer[T] stands for a []T parameter, a value for a scalar or struct
// parameter. Launch may return before the kernel finishes.
func (d *Device) Launch(kernel any, grid, block gpu.Dim3, args ...any) error {
	ulps := uint64(0)
	if d != nil && d.val != nil {
		ulps = d.val.ULPs
	}
	return d.launch(ulps, kernel, grid, block, args)
}

// LaunchWithin is Launch with the float bound of validation set for this
// launch: floats may differ by ulps units in the last place from the cpu
// backend's. Without validation it is Launch.
func (d *Device) LaunchWithin(ulps uint64, kernel any, grid, block gpu.Dim3, args ...any) error {
	return d.launch(ulps, kernel, grid, block, args)
}

func (d *Device) launch(ulps uint64, kernel any, grid, block gpu.Dim3, args []any) error {
	k, err := lookupKernel(kernel)
	if err != nil {
		return withKind(ErrLaunch, err)
	}
	if err := d.opened("Launch " + k.Name); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.usable("Launch " + k.Name); err != nil {
		return err
	}
	bargs, err := checkLaunch(d, k, grid, block, args)
	if err != nil {
		return withKind(ErrLaunch, err)
	}
	if l, ok := d.be.(backend.Limiter); ok {
		if err := l.CheckShape(grid, block); err != nil {
			return errorf(ErrLaunch, "device.Launch %s: %v", k.Name, err)
		}
	}
	if d.val != nil {
		d.validateBefore(k, bargs, ulps)
	}
	if err := d.be.Launch(&k.Kernel, grid, block, bargs); err != nil {
		return err
	}
	d.pending = append(d.pending, k.Name)
	if d.val != nil {
		d.validateAfter(grid, block)
	}
	return nil
}
