package vulkan

import (
	"context"
	"encoding/binary"
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// waitSlice bounds one vkWaitSemaphores of a wait with a context, so that
// the context is looked at that often.
const waitSlice = 10 * time.Millisecond

// SyncContext is Sync bounded by ctx. When ctx is done first, the backend
// sets the stop word of every pending launch's trap record (host-visible
// memory): the kernels, which poll it in every loop the compiler could not
// prove finite, trap with a deadline there, and the wait goes on for
// backend.StopGrace. Stopped so, the error is a *backend.TimeoutError with
// Stopped set, and the device and its buffers stay usable; a kernel still
// running then (a long counted loop) leaves the device unusable.
func (b *Backend) SyncContext(ctx context.Context) error {
	if ctx.Done() == nil {
		return b.Sync()
	}
	if b.closed {
		return fmt.Errorf("vulkan: the device is closed")
	}
	if err := b.waitIdleContext(ctx); err != nil {
		return err
	}
	return b.syncLocked()
}

// ReadContext is Read bounded by ctx, as SyncContext is.
func (b *Backend) ReadContext(ctx context.Context, dst reflect.Value, src backend.Memory) error {
	if err := b.SyncContext(ctx); err != nil {
		return err
	}
	return b.Read(dst, src)
}

// WriteContext is Write bounded by ctx: it waits for the launched work
// first, as SyncContext does, keeping a trap for the next Sync or Read.
func (b *Backend) WriteContext(ctx context.Context, dst backend.Memory, src reflect.Value) error {
	if ctx.Done() != nil && !b.closed {
		if err := b.waitIdleContext(ctx); err != nil {
			return err
		}
	}
	return b.Write(dst, src)
}

// waitIdleContext submits the open command buffer and waits for every
// submission, or, when ctx is done first, stops the launched kernels
// (stopLaunches).
func (b *Backend) waitIdleContext(ctx context.Context) error {
	if err := b.flush(); err != nil {
		return err
	}
	for len(b.inflight) > 0 {
		done, err := b.waitFor(b.submitted, uint64(waitSlice))
		if err != nil {
			return err
		}
		if done {
			b.recycle(b.submitted)
			return nil
		}
		if ctx.Err() != nil {
			return b.stopLaunches(ctx.Err())
		}
	}
	return nil
}

// stopLaunches sets the stop word of every pending launch, waits up to
// backend.StopGrace for them to end, and returns the *backend.TimeoutError that
// says whether they did. Stopped, the launches' trap records are read (a
// trap other than the deadline's is kept for the next Sync) and cleared.
func (b *Backend) stopLaunches(cause error) error {
	if b.trap.mapped == nil {
		return backend.NotStopped("vulkan", b.launched, cause, "cannot reach the kernels' stop words (no host-visible memory for the trap records)")
	}
	recs := unsafe.Slice((*byte)(b.trap.mapped), len(b.launched)*gpuabi.TrapRecordSize)
	for i := range b.launched {
		binary.LittleEndian.PutUint64(recs[i*gpuabi.TrapRecordSize+gpuabi.TrapOffStop:], 1)
	}
	done, err := b.waitFor(b.submitted, uint64(backend.StopGrace))
	if err != nil {
		return fmt.Errorf("vulkan: stopping the launches after the deadline: %w", err)
	}
	if !done {
		return backend.StopGraceExpired("vulkan", b.launched, cause)
	}
	b.recycle(b.submitted)
	te, other := backend.StoppedLaunches("vulkan", recs, b.launched, cause)
	if other != nil && b.pending == nil {
		b.pending = other
	}
	clear(recs)
	b.launched = b.launched[:0]
	b.argsUsed = 0
	return te
}
