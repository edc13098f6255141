package cuda

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"time"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// waitSlice is how often a wait with a context looks at it.
const waitSlice = 10 * time.Millisecond

// The flags of the events and the stream a wait with a context uses.
const (
	eventDisableTiming = 2 // CU_EVENT_DISABLE_TIMING
	streamNonBlocking  = 1 // CU_STREAM_NON_BLOCKING: not ordered after the default stream
)

// SyncContext is Sync bounded by ctx. When ctx is done first, the backend
// writes 1 to the stop word of every pending launch's trap record with a
// copy on a second, non-blocking stream (a copy engine's work, which runs
// beside the kernels); the kernels, which poll the word in every loop the
// compiler could not prove finite, trap with a deadline there, and the
// wait goes on for backend.StopGrace. Stopped so, the error is a
// *backend.TimeoutError with Stopped set and the context stays usable.
// (Written without a GPU to run it on: see device/BADINPUTS.md.)
func (b *Backend) SyncContext(ctx context.Context) error {
	if ctx.Done() == nil {
		return b.Sync()
	}
	var ev uintptr
	d := b.drv
	err := b.own.do(func() error {
		if err := d.call("cuEventCreate", d.cuEventCreate, uintptr(unsafe.Pointer(&ev)), eventDisableTiming); err != nil {
			return err
		}
		return d.call("cuEventRecord", d.cuEventRecord, ev, 0)
	})
	if err != nil {
		return fmt.Errorf("cuda: %w", err)
	}
	defer b.own.do(func() error { return d.call("cuEventDestroy", d.cuEventDestroy, ev) })
	start := time.Now()
	for {
		done, err := b.eventDone(ev)
		if err != nil || done {
			if err != nil {
				return fmt.Errorf("cuda: %w", err)
			}
			return b.Sync()
		}
		select {
		case <-ctx.Done():
			return b.stopLaunches(ctx.Err(), ev)
		case <-time.After(pollAfter(time.Since(start))):
		}
	}
}

// pollAfter is how long a wait that has lasted waited looks away before
// asking again: an eighth of that, between minPoll and waitSlice, so that a
// short wait ends at most about 12% late (every Sync of package device has
// a context, and a fixed 10 ms slice made each one take at least 10 ms
// whenever work was still running) and a long one costs few queries.
func pollAfter(waited time.Duration) time.Duration {
	return min(max(waited/8, minPoll), waitSlice)
}

// minPoll is the shortest look away of a wait with a context.
const minPoll = 20 * time.Microsecond

// ReadContext is Read bounded by ctx, as SyncContext is.
func (b *Backend) ReadContext(ctx context.Context, dst reflect.Value, src backend.Memory) error {
	if err := b.SyncContext(ctx); err != nil {
		return err
	}
	return b.Read(dst, src)
}

// WriteContext is Write bounded by ctx: it waits for the launched work
// first, as SyncContext does.
func (b *Backend) WriteContext(ctx context.Context, dst backend.Memory, src reflect.Value) error {
	if err := b.SyncContext(ctx); err != nil {
		var te *backend.TimeoutError
		if errors.As(err, &te) {
			return err
		}
		b.keep(err) // a trap: for the next Sync or Read
	}
	return b.Write(dst, src)
}

// eventDone reports whether the work before event ev has finished.
func (b *Backend) eventDone(ev uintptr) (bool, error) {
	d := b.drv
	done := false
	err := b.own.do(func() error {
		err := d.call("cuEventQuery", d.cuEventQuery, ev)
		var ce *Error
		if errors.As(err, &ce) && ce.Code == cudaErrNotReady {
			return nil
		}
		done = err == nil
		return err
	})
	return done, err
}

// stopLaunches sets the stop words of the pending launches, waits up to
// backend.StopGrace for the work before ev, and returns the *backend.TimeoutError
// that says whether it ended; ended, the records are read, and cleared by
// Sync.
func (b *Backend) stopLaunches(cause error, ev uintptr) error {
	d := b.drv
	var launched []*backend.Kernel
	err := b.own.do(func() error {
		launched = slices.Clone(b.launched)
		var stream uintptr
		if err := d.call("cuStreamCreate", d.cuStreamCreate, uintptr(unsafe.Pointer(&stream)), streamNonBlocking); err != nil {
			return err
		}
		defer d.call("cuStreamDestroy", d.cuStreamDestroy, stream)
		one := new(uint64)
		*one = 1
		for i := range launched {
			word := b.trap + uintptr(i*gpuabi.TrapRecordSize+gpuabi.TrapOffStop)
			if err := d.call("cuMemcpyHtoDAsync", d.cuMemcpyHtoDAsync, word, uintptr(unsafe.Pointer(one)), 8, stream); err != nil {
				return err
			}
		}
		runtime.KeepAlive(one)
		return nil
	})
	if err != nil {
		return backend.NotStopped("cuda", launched, cause, fmt.Sprintf("could not set the kernels' stop words (%v)", err))
	}
	for start := time.Now(); time.Since(start) < backend.StopGrace; time.Sleep(waitSlice) {
		done, err := b.eventDone(ev)
		if err != nil {
			return fmt.Errorf("cuda: stopping the launches after the deadline: %w", err)
		}
		if done {
			return b.stopped(cause, launched)
		}
	}
	return backend.StopGraceExpired("cuda", launched, cause)
}

// stopped reads the trap records of the launches a deadline stopped and
// clears them (Sync), keeping a trap other than the deadline's for the
// next Sync.
func (b *Backend) stopped(cause error, launched []*backend.Kernel) error {
	d := b.drv
	recs := make([]byte, len(launched)*gpuabi.TrapRecordSize)
	err := b.own.do(func() error {
		if len(launched) == 0 {
			return nil
		}
		err := d.call("cuMemcpyDtoH", d.cuMemcpyDtoH, uintptr(unsafe.Pointer(&recs[0])), b.trap, uintptr(len(recs)))
		runtime.KeepAlive(recs)
		if err != nil {
			return err
		}
		b.launched = b.launched[:0]
		return d.call("cuMemsetD8", d.cuMemsetD8, b.trap, 0, uintptr(len(recs)))
	})
	if err != nil {
		return fmt.Errorf("cuda: reading the trap records after the deadline: %w", err)
	}
	te, other := backend.StoppedLaunches("cuda", recs, launched, cause)
	if other != nil {
		b.keep(other)
	}
	return te
}

// keep makes err the trap the next Sync or Read reports, unless one is
// kept already (on the owning thread, which owns pending).
func (b *Backend) keep(err error) {
	b.own.do(func() error {
		if b.pending == nil {
			b.pending = err
		}
		return nil
	})
}
