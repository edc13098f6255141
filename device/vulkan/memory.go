package vulkan

import (
	"fmt"
	"math"
	"unsafe"
)

// vkBuffer is one VkBuffer with its own memory allocation and its device
// address. mapped is the host's view of it when its memory is host-visible
// (and then coherent), nil otherwise.
type vkBuffer struct {
	buf, mem vkHandle
	size     uint64
	addr     uint64
	mapped   unsafe.Pointer
}

// unified reports whether the device's device-local memory is host-visible
// everywhere it matters: a CPU device (lavapipe) or an integrated GPU whose
// memory types are all shared with the host. Then buffers are mapped and
// copied directly rather than through a staging buffer.
func (b *Backend) unified() bool {
	t := b.props.deviceType
	if t != deviceTypeCPU && t != deviceTypeIntegrated {
		return false
	}
	_, ok := b.memoryType(^uint32(0), memDeviceLocal|memHostVisible|memHostCoherent, 0)
	return ok
}

// memoryType returns the first memory type allowed by bits that has every
// flag of want and none of avoid.
func (b *Backend) memoryType(bits, want, avoid uint32) (uint32, bool) {
	for i := uint32(0); i < b.mem.memoryTypeCount; i++ {
		f := b.mem.memoryTypes[i].propertyFlags
		if bits&(1<<i) != 0 && f&want == want && f&avoid == 0 {
			return i, true
		}
	}
	return 0, false
}

// newBuffer creates a storage buffer with a device address. A mapped buffer
// (for the trap records) prefers device-local memory the host can map, then
// host memory the device can reach; an unmapped one prefers device-local
// memory the host cannot map (the large heap of a discrete GPU) and is
// mapped anyway on a unified device.
func (b *Backend) newBuffer(size uint64, mapped bool) (*vkBuffer, error) {
	return b.createBuffer(size, bufStorage|bufDeviceAddress|bufTransferSrc|bufTransferDst, !mapped && b.staged, func(bits uint32) (uint32, bool) {
		hv := uint32(memHostVisible | memHostCoherent)
		prefs := [][2]uint32{{memDeviceLocal, memHostVisible}, {memDeviceLocal, 0}, {0, 0}}
		switch {
		case b.info.Unified:
			prefs = [][2]uint32{{memDeviceLocal | hv, 0}, {hv, 0}}
		case mapped:
			prefs = [][2]uint32{{memDeviceLocal | hv, 0}, {hv, 0}, {memDeviceLocal, 0}}
		}
		for _, p := range prefs {
			if i, ok := b.memoryType(bits, p[0], p[1]); ok {
				return i, true
			}
		}
		return 0, false
	})
}

// newStaging creates the host-visible buffer Write and Read copy through
// (cached memory first: the host reads it back).
func (b *Backend) newStaging(size uint64) (*vkBuffer, error) {
	return b.createBuffer(size, bufTransferSrc|bufTransferDst, false, func(bits uint32) (uint32, bool) {
		hv := uint32(memHostVisible | memHostCoherent)
		if i, ok := b.memoryType(bits, hv|memHostCached, 0); ok {
			return i, true
		}
		return b.memoryType(bits, hv, 0)
	})
}

// createBuffer creates a buffer in the memory type pick chooses and maps it
// when that type is host-visible, unless noMap.
func (b *Backend) createBuffer(size uint64, usage uint32, noMap bool, pick func(bits uint32) (uint32, bool)) (*vkBuffer, error) {
	l := b.l
	v := &vkBuffer{size: size}
	bci := &bufferCreateInfo{sType: stBufferCreateInfo, size: size, usage: usage}
	if err := call("vkCreateBuffer", l.createBuffer, uintptr(b.dev), uintptr(unsafe.Pointer(bci)), 0, uintptr(unsafe.Pointer(&v.buf))); err != nil {
		return nil, b.memError(size, err)
	}
	var req memoryRequirements
	void(l.getBufferMemoryRequirements, uintptr(b.dev), uintptr(v.buf), uintptr(unsafe.Pointer(&req)))
	ti, ok := pick(req.memoryTypeBits)
	if !ok {
		void(l.destroyBuffer, uintptr(b.dev), uintptr(v.buf), 0)
		return nil, fmt.Errorf("vulkan: no suitable memory type for a buffer (types allowed: %#x)", req.memoryTypeBits)
	}
	flags := &memoryAllocateFlagsInfo{sType: stMemoryAllocateFlagsInfo}
	if usage&bufDeviceAddress != 0 {
		flags.flags = memAllocateDeviceAddress
	}
	mai := &memoryAllocateInfo{sType: stMemoryAllocateInfo, pNext: unsafe.Pointer(flags), allocationSize: req.size, memoryTypeIndex: ti}
	if err := call("vkAllocateMemory", l.allocateMemory, uintptr(b.dev), uintptr(unsafe.Pointer(mai)), 0, uintptr(unsafe.Pointer(&v.mem))); err != nil {
		void(l.destroyBuffer, uintptr(b.dev), uintptr(v.buf), 0)
		return nil, b.memError(size, err)
	}
	if err := call("vkBindBufferMemory", l.bindBufferMemory, uintptr(b.dev), uintptr(v.buf), uintptr(v.mem), 0); err != nil {
		b.destroyBuffer(v)
		return nil, fmt.Errorf("vulkan: %w", err)
	}
	if b.mem.memoryTypes[ti].propertyFlags&memHostVisible != 0 && !noMap {
		var p unsafe.Pointer
		if err := call("vkMapMemory", l.mapMemory, uintptr(b.dev), uintptr(v.mem), 0, uintptr(math.MaxUint64), 0, uintptr(unsafe.Pointer(&p))); err != nil {
			b.destroyBuffer(v)
			return nil, fmt.Errorf("vulkan: %w", err)
		}
		v.mapped = p
	}
	if usage&bufDeviceAddress != 0 {
		ai := &bufferDeviceAddressInfo{sType: stBufferDeviceAddressInfo, buffer: v.buf}
		r := raw(l.getBufferDeviceAddress, uintptr(b.dev), uintptr(unsafe.Pointer(ai)))
		v.addr = uint64(r)
		if v.addr == 0 {
			b.destroyBuffer(v)
			return nil, fmt.Errorf("vulkan: vkGetBufferDeviceAddress returned 0")
		}
	}
	return v, nil
}

// memError explains an allocation failure.
func (b *Backend) memError(size uint64, err error) error {
	if isResult(err, vkErrOutOfDeviceMemory) || isResult(err, vkErrOutOfHostMemory) {
		var heaps []string
		for i := uint32(0); i < b.mem.memoryHeapCount; i++ {
			h := b.mem.memoryHeaps[i]
			kind := "host"
			if h.flags&heapDeviceLocal != 0 {
				kind = "device-local"
			}
			heaps = append(heaps, fmt.Sprintf("%d MiB %s", h.size>>20, kind))
		}
		return fmt.Errorf("vulkan: not enough memory on %s for %d bytes (heaps: %v): %w", b.info.Name, size, heaps, err)
	}
	if isResult(err, vkErrTooManyObjects) {
		return fmt.Errorf("vulkan: too many allocations on %s (maxMemoryAllocationCount = %d; each buffer is one): %w", b.info.Name, b.info.MaxMemoryAllocationCount, err)
	}
	return fmt.Errorf("vulkan: allocating %d bytes: %w", size, err)
}

// destroyBuffer releases a buffer and its memory (freeing mapped memory
// unmaps it).
func (b *Backend) destroyBuffer(v *vkBuffer) {
	void(b.l.destroyBuffer, uintptr(b.dev), uintptr(v.buf), 0)
	if v.mem != 0 {
		void(b.l.freeMemory, uintptr(b.dev), uintptr(v.mem), 0)
	}
	v.buf, v.mem, v.mapped = 0, 0, nil
}

// zero clears size bytes of v from off: on the host for mapped memory (the
// callers clear only memory no queued work uses: new buffers, and trap
// records after waitIdle), else with vkCmdFillBuffer in the queue's order.
func (b *Backend) zero(v *vkBuffer, off, size uint64) error {
	if v.mapped != nil {
		clear(unsafe.Slice((*byte)(unsafe.Add(v.mapped, off)), size))
		return nil
	}
	return b.submit(func(cb vkCommandBuffer) {
		void(b.l.cmdFillBuffer, uintptr(cb), uintptr(v.buf), uintptr(off), uintptr(size), 0)
	})
}

// upload copies host into v, waiting until the copy is done. Into mapped
// memory it first waits for the queued work (kernels may still use v); a
// staged copy is ordered after that work on the queue instead.
func (b *Backend) upload(v *vkBuffer, host []byte) error {
	if v.mapped != nil {
		if err := b.waitIdle(); err != nil {
			return err
		}
		copy(unsafe.Slice((*byte)(v.mapped), len(host)), host)
		return nil
	}
	st, err := b.stagingBuffer()
	if err != nil {
		return err
	}
	for off := 0; off < len(host); off += int(st.size) {
		n := min(len(host)-off, int(st.size))
		copy(unsafe.Slice((*byte)(st.mapped), n), host[off:off+n])
		err := b.submit(func(cb vkCommandBuffer) {
			region := &bufferCopy{dstOffset: uint64(off), size: uint64(n)}
			void(b.l.cmdCopyBuffer, uintptr(cb), uintptr(st.buf), uintptr(v.buf), 1, uintptr(unsafe.Pointer(region)))
		})
		if err != nil {
			return err
		}
		if err := b.waitIdle(); err != nil {
			return err
		}
	}
	return nil
}

// download copies len(host) bytes of v from off into host; the caller has
// waited for the work that writes v.
func (b *Backend) download(host []byte, v *vkBuffer, off uint64) error {
	if v.mapped != nil {
		copy(host, unsafe.Slice((*byte)(unsafe.Add(v.mapped, off)), len(host)))
		return nil
	}
	st, err := b.stagingBuffer()
	if err != nil {
		return err
	}
	for done := 0; done < len(host); done += int(st.size) {
		n := min(len(host)-done, int(st.size))
		err := b.submit(func(cb vkCommandBuffer) {
			region := &bufferCopy{srcOffset: off + uint64(done), size: uint64(n)}
			void(b.l.cmdCopyBuffer, uintptr(cb), uintptr(v.buf), uintptr(st.buf), 1, uintptr(unsafe.Pointer(region)))
		})
		if err != nil {
			return err
		}
		if err := b.waitIdle(); err != nil {
			return err
		}
		copy(host[done:done+n], unsafe.Slice((*byte)(st.mapped), n))
	}
	return nil
}

func (b *Backend) stagingBuffer() (*vkBuffer, error) {
	if b.staging == nil {
		st, err := b.newStaging(stagingSize)
		if err != nil {
			return nil, fmt.Errorf("vulkan: allocating the staging buffer: %w", err)
		}
		if st.mapped == nil {
			b.destroyBuffer(st)
			return nil, fmt.Errorf("vulkan: the staging buffer is not host-visible")
		}
		b.staging = st
	}
	return b.staging, nil
}
