package kirexec

import "encoding/binary"

// Pointers in memory: a thread's local memory may hold pointers (an array
// of the addresses of a loop's per-iteration variables), which the
// interpreter cannot write as bytes. It keeps them beside the bytes, by
// buffer and offset, and writes a non-zero word in their place, so that a
// nil pointer reads back as zero and a word written over a pointer ends
// it. Other memory holds no pointers in kernel code.

// ptrSlot is where in memory a pointer was stored.
type ptrSlot struct {
	buf *Buffer
	off int64
}

// storePtr stores pointer x at p, in local memory only.
func (t *thread) storePtr(p, x ptr) bool {
	if !p.buf.local {
		t.fail("storing a pointer outside local memory is not supported by the interpreter")
		return false
	}
	if !t.check(p, 8, "store") {
		return false
	}
	mark := uint64(0)
	if x.buf != nil {
		mark = 1
		t.ptrs[ptrSlot{p.buf, p.off}] = x
	} else {
		delete(t.ptrs, ptrSlot{p.buf, p.off})
	}
	binary.LittleEndian.PutUint64(p.buf.Data[p.off:], mark)
	return true
}

// loadPtr reads the pointer at p, which the caller checked: the one
// stored there, or nil where the memory is zero.
func (t *thread) loadPtr(p ptr) (ptr, bool) {
	if x, ok := t.ptrs[ptrSlot{p.buf, p.off}]; ok {
		return x, true
	}
	if binary.LittleEndian.Uint64(p.buf.Data[p.off:]) != 0 {
		t.fail("loading a pointer from memory that holds none is not supported by the interpreter")
		return ptr{}, false
	}
	return ptr{}, true
}

// overwrite forgets the pointers that a store of size bytes at p writes
// over.
func (t *thread) overwrite(p ptr, size int) {
	if len(t.ptrs) == 0 {
		return
	}
	for off := p.off - 7; off < p.off+int64(size); off++ {
		delete(t.ptrs, ptrSlot{p.buf, off})
	}
}
