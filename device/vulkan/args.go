package vulkan

import (
	"fmt"
	"unsafe"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// argsRingSize is the argument buffer's first size: room for about 450
// launches of 144-byte parameter blocks between two waits (it grows for a
// block larger than itself).
const argsRingSize = 64 << 10

// argsSlot reserves size bytes of the argument buffer for one launch whose
// parameters exceed Vulkan's minimum push-constant space
// (gpuabi.PushLayout.Indirect) and returns the slot's offset. Slots are
// handed out in order and the buffer is reused from the start only after
// every submitted launch has finished (a full buffer waits for them here;
// Sync resets it too), so an asynchronous launch never has its parameters
// overwritten while it runs.
func (b *Backend) argsSlot(size int) (uint64, error) {
	need := uint64(size+gpuabi.ArgsAlign-1) &^ (gpuabi.ArgsAlign - 1)
	if b.args == nil || b.argsUsed+need > b.args.size {
		if err := b.waitIdle(); err != nil {
			return 0, err
		}
		b.argsUsed = 0
	}
	if b.args == nil || need > b.args.size {
		if b.args != nil {
			b.destroyBuffer(b.args)
			b.args = nil
		}
		// Unmapped where the device has a heap the host cannot map
		// (written with vkCmdUpdateBuffer then), mapped where it is
		// unified.
		v, err := b.newBuffer(max(argsRingSize, need), false)
		if err != nil {
			return 0, fmt.Errorf("allocating the argument buffer: %w", err)
		}
		b.args = v
	}
	off := b.argsUsed
	b.argsUsed += need
	return off, nil
}

// writeArgs puts a launch's parameter block at off in the argument buffer:
// through the host mapping (the slot is unused, see argsSlot; the submit's
// first barrier makes host writes visible), or, for device memory the host
// cannot map, recorded into the launch's command buffer by writeArgsCmd.
func (b *Backend) writeArgs(off uint64, block []byte) bool {
	if b.args.mapped == nil {
		return false
	}
	copy(unsafe.Slice((*byte)(unsafe.Add(b.args.mapped, off)), len(block)), block)
	return true
}

// writeArgsCmd records the copy of block to off in the argument buffer and
// a barrier that makes it visible to the dispatch that follows.
func (b *Backend) writeArgsCmd(cb vkCommandBuffer, off uint64, block []byte) {
	l := b.l
	void(l.cmdUpdateBuffer, uintptr(cb), uintptr(b.args.buf), uintptr(off), uintptr(len(block)), uintptr(unsafe.Pointer(&block[0])))
	mb := &memoryBarrier{sType: stMemoryBarrier, srcAccessMask: accTransferWrite, dstAccessMask: accShaderRead}
	void(l.cmdPipelineBarrier, uintptr(cb), pipeTransfer, pipeComputeShader, 0, 1, uintptr(unsafe.Pointer(mb)), 0, 0, 0, 0)
}
