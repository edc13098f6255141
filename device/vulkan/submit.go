package vulkan

import (
	"fmt"
	"math"
	"unsafe"
)

// maxBatch is the number of launches one command buffer holds at most
// before it is submitted (see record).
const maxBatch = 64

// batch is the command buffer being recorded: launches (and the copies
// ordered after them) that are not submitted yet.
type batch struct {
	cb vkCommandBuffer // 0 when none is open
	n  int             // commands recorded
}

// submit records one command (a copy, a fill) into the open command buffer,
// after the launches recorded there, and submits it; it does not wait.
func (b *Backend) submit(record func(cb vkCommandBuffer)) error {
	if err := b.record(record); err != nil {
		return err
	}
	return b.submitBatch()
}

// submitBatch is flush for a command that is not a wait: its caller
// reports the failure as its own, and the commands recorded before it in
// the same command buffer, launches whose Launch returned nil, are lost
// with it, which the next Sync or Read reports.
func (b *Backend) submitBatch() error {
	n := b.open.n
	err := b.flush()
	if err != nil && n > 1 && b.pending == nil {
		b.pending = fmt.Errorf("vulkan: %d launches or copies recorded earlier were not run (their submission failed): %w", n-1, err)
	}
	return err
}

// record appends one command to the open command buffer, beginning one if
// none is open, after a barrier that orders it after all earlier work on
// the queue (kernels, copies, fills: their writes become visible to its
// reads and writes). The command buffer is submitted by flush: launches
// leave it open while two submissions are unfinished (submitLaunches), so
// that a series of launches goes to the GPU in a few submissions rather
// than one each.
func (b *Backend) record(cmd func(cb vkCommandBuffer)) error {
	l := b.l
	if b.open.cb == 0 {
		cb, err := b.commandBuffer()
		if err != nil {
			return err
		}
		bi := &commandBufferBeginInfo{sType: stCommandBufferBeginInfo, flags: cmdOneTimeSubmit}
		if err := call("vkBeginCommandBuffer", l.beginCommandBuffer, uintptr(cb), uintptr(unsafe.Pointer(bi))); err != nil {
			b.free = append(b.free, cb)
			return err
		}
		b.open = batch{cb: cb}
	}
	before := &memoryBarrier{sType: stMemoryBarrier,
		srcAccessMask: accShaderWrite | accTransferWrite | accHostWrite,
		dstAccessMask: accShaderRead | accShaderWrite | accTransferRead | accTransferWrite}
	void(l.cmdPipelineBarrier, uintptr(b.open.cb), pipeAllCommands, pipeComputeShader|pipeTransfer, 0,
		1, uintptr(unsafe.Pointer(before)), 0, 0, 0, 0)
	cmd(b.open.cb)
	b.open.n++
	return nil
}

// flush ends the open command buffer, if any, with a barrier that makes
// its writes visible to the host (so mapped memory reads correctly once
// the semaphore reaches its value), and submits it with a signal of the
// next value of the timeline semaphore; it does not wait. Every wait
// flushes first.
func (b *Backend) flush() error {
	cb := b.open.cb
	if cb == 0 {
		return nil
	}
	b.open = batch{}
	l := b.l
	after := &memoryBarrier{sType: stMemoryBarrier, srcAccessMask: accShaderWrite | accTransferWrite, dstAccessMask: accHostRead}
	void(l.cmdPipelineBarrier, uintptr(cb), pipeComputeShader|pipeTransfer, pipeHost, 0,
		1, uintptr(unsafe.Pointer(after)), 0, 0, 0, 0)
	if err := call("vkEndCommandBuffer", l.endCommandBuffer, uintptr(cb)); err != nil {
		b.free = append(b.free, cb)
		return err
	}
	value := b.submitted + 1
	tsi := &timelineSemaphoreSubmitInfo{sType: stTimelineSemaphoreSubmit, signalSemaphoreValueCount: 1, pSignalSemaphoreValues: &value}
	cbs := &cb
	sem := &b.sem
	si := &submitInfo{sType: stSubmitInfo, pNext: unsafe.Pointer(tsi), commandBufferCount: 1, pCommandBuffers: cbs,
		signalSemaphoreCount: 1, pSignalSemaphores: sem}
	if err := call("vkQueueSubmit", l.queueSubmit, uintptr(b.queue), 1, uintptr(unsafe.Pointer(si)), 0); err != nil {
		b.free = append(b.free, cb)
		if isResult(err, vkErrDeviceLost) {
			return fmt.Errorf("the Vulkan device was lost: %w", err)
		}
		return err
	}
	b.submitted = value
	b.inflight = append(b.inflight, inflightCB{cb: cb, value: value})
	return nil
}

// unfinished is the number of submissions the queue has not finished.
func (b *Backend) unfinished() (int, error) {
	if len(b.inflight) == 0 {
		return 0, nil
	}
	done, err := b.completed()
	if err != nil {
		return 0, err
	}
	b.recycle(done)
	return len(b.inflight), nil
}

// completed is the timeline semaphore's value: the last submission done.
func (b *Backend) completed() (uint64, error) {
	var done uint64
	err := call("vkGetSemaphoreCounterValue", b.l.getSemaphoreCounterValue, uintptr(b.dev), uintptr(b.sem), uintptr(unsafe.Pointer(&done)))
	return done, err
}

// commandBuffer returns a command buffer no pending submission uses:
// a recycled one, a new one, or, with maxInFlight pending, the oldest once
// it is done.
func (b *Backend) commandBuffer() (vkCommandBuffer, error) {
	l := b.l
	if len(b.free) == 0 && len(b.inflight) > 0 {
		done, err := b.completed()
		if err != nil {
			return 0, err
		}
		b.recycle(done)
	}
	if len(b.free) == 0 && len(b.inflight) >= maxInFlight {
		if err := b.wait(b.inflight[0].value); err != nil {
			return 0, err
		}
		b.recycle(b.inflight[0].value)
	}
	if n := len(b.free); n > 0 {
		cb := b.free[n-1]
		b.free = b.free[:n-1]
		if err := call("vkResetCommandBuffer", l.resetCommandBuffer, uintptr(cb), 0); err != nil {
			return 0, err
		}
		return cb, nil
	}
	ai := &commandBufferAllocateInfo{sType: stCommandBufferAllocateInfo, commandPool: b.pool, commandBufferCount: 1}
	var cb vkCommandBuffer
	if err := call("vkAllocateCommandBuffers", l.allocateCommandBuffers, uintptr(b.dev), uintptr(unsafe.Pointer(ai)), uintptr(unsafe.Pointer(&cb))); err != nil {
		return 0, err
	}
	return cb, nil
}

// recycle moves the command buffers of submissions up to value done to the
// free list.
func (b *Backend) recycle(done uint64) {
	i := 0
	for ; i < len(b.inflight) && b.inflight[i].value <= done; i++ {
		b.free = append(b.free, b.inflight[i].cb)
	}
	b.inflight = append(b.inflight[:0], b.inflight[i:]...)
}

// wait blocks until the timeline semaphore reaches value.
func (b *Backend) wait(value uint64) error {
	_, err := b.waitFor(value, math.MaxUint64) // UINT64_MAX: no timeout
	return err
}

// waitFor waits at most timeout nanoseconds for the timeline semaphore to
// reach value and reports whether it did.
func (b *Backend) waitFor(value, timeout uint64) (bool, error) {
	sem := b.sem
	wi := &semaphoreWaitInfo{sType: stSemaphoreWaitInfo, semaphoreCount: 1, pSemaphores: &sem, pValues: &value}
	r, err := callResult("vkWaitSemaphores", b.l.waitSemaphores, uintptr(b.dev), uintptr(unsafe.Pointer(wi)), uintptr(timeout))
	if err != nil {
		if isResult(err, vkErrDeviceLost) {
			return false, fmt.Errorf("the Vulkan device was lost (a kernel faulted or ran too long): %w", err)
		}
		return false, err
	}
	return r == vkSuccess, nil
}

// waitIdle submits the open command buffer and waits for every submission.
func (b *Backend) waitIdle() error {
	if err := b.flush(); err != nil {
		return err
	}
	if len(b.inflight) == 0 {
		return nil
	}
	if err := b.wait(b.submitted); err != nil {
		return err
	}
	b.recycle(b.submitted)
	return nil
}
