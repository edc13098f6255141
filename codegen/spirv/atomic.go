package spirv

import "github.com/gpukvet/gpukvet/codegen/kir"

// atomic emits an OpAtomic. Global atomics are device-scoped and shared
// ones workgroup-scoped, both relaxed as CUDA's atomics are. Float addition
// is a compare-exchange loop on the value's bits, which every Vulkan device
// runs (no float-atomic feature needed). An atomic on local memory, which
// no other thread sees, is a plain read-modify-write.
func (e *funcEmitter) atomic(v *kir.Value) {
	p := v.Args[0]
	ptr := e.val[p.ID]
	k := v.Type.Kind
	r := e.guard(e.typ(k), k, func() uint32 {
		return e.dispatch(ptr, p.Type.Space, e.typ(k), func(s kir.Space) uint32 { return e.atomicIn(s, v) })
	})
	e.opTo(e.val[v.ID], opCopyObject, e.typ(k), r)
}

func (e *funcEmitter) atomicIn(s kir.Space, v *kir.Value) uint32 {
	b := e.b
	k := v.Type.Kind
	op := kir.AtomicOp(v.Index)
	ptr := e.val[v.Args[0].ID]
	x := e.val[v.Args[1].ID]
	bits := k.Bits()
	it := b.tInt(bits)
	if s == kir.Local {
		return e.localAtomic(v)
	}
	var ap, scope uint32
	if s == kir.Global {
		if bits == 64 {
			b.caps[capInt64Atomics] = true
			e.feats["shaderBufferInt64Atomics"] = true
		}
		ap = e.globalPtr(ptr, it)
		scope = b.constU32(scopeDevice)
	} else {
		if bits == 64 {
			e.fail(v, "64-bit atomics on gpu.Shared memory are not supported by the SPIR-V emitter (shared memory is an array of 32-bit words)")
			return b.constU64(0)
		}
		off := e.byteOffset(ptr)
		w := e.op(opShiftRightLogical, b.tInt(32), off, b.constU32(2))
		ap = e.wordPtr(kir.Shared, w)
		scope = b.constU32(scopeWorkgroup)
	}
	relaxed := b.constU32(0)
	bitsOf := func(y uint32) uint32 {
		if k.IsFloat() {
			return e.op(opBitcast, it, y)
		}
		return y
	}
	result := func(r uint32) uint32 {
		if k.IsFloat() {
			return e.op(opBitcast, e.typ(k), r)
		}
		return r
	}
	switch op {
	case kir.AtomicAdd:
		if k.IsFloat() {
			return e.casLoop(ap, scope, k, func(old uint32) uint32 {
				return e.op(opFAdd, e.typ(k), old, x)
			})
		}
		return e.op(opAtomicIAdd, it, ap, scope, relaxed, x)
	case kir.AtomicMin, kir.AtomicMax:
		var o uint32
		switch {
		case op == kir.AtomicMin && k.IsSigned():
			o = opAtomicSMin
		case op == kir.AtomicMin:
			o = opAtomicUMin
		case k.IsSigned():
			o = opAtomicSMax
		default:
			o = opAtomicUMax
		}
		return e.op(o, it, ap, scope, relaxed, x)
	case kir.AtomicExchange:
		return result(e.op(opAtomicExchange, it, ap, scope, relaxed, bitsOf(x)))
	case kir.AtomicCAS:
		nw := e.val[v.Args[2].ID]
		return result(e.op(opAtomicCompareExchange, it, ap, scope, relaxed, relaxed, bitsOf(nw), bitsOf(x)))
	}
	e.fail(v, "unknown atomic")
	return 0
}

// casLoop applies f to the value at ap atomically with a compare-exchange
// loop and returns the old value (as kind k).
func (e *funcEmitter) casLoop(ap, scope uint32, k kir.Kind, f func(old uint32) uint32) uint32 {
	// (Aligned is required on PhysicalStorageBuffer and allowed on the
	// others.)
	b := e.b
	it := b.tInt(k.Bits())
	relaxed := b.constU32(0)
	first := e.op(opLoad, it, ap, memopAligned, uint32(k.Size()))
	pre := e.cur
	head, body, cont, merge := b.id(), b.id(), b.id(), b.id()
	e.branch(head)
	e.label(head)
	cur := b.id()
	seen := b.id()
	e.opTo(cur, opPhi, it, first, pre, seen, cont)
	e.ins(opLoopMerge, merge, cont, 0)
	e.branch(body)
	e.label(body)
	nw := e.op(opBitcast, it, f(e.op(opBitcast, e.typ(k), cur)))
	e.opTo(seen, opAtomicCompareExchange, it, ap, scope, relaxed, relaxed, nw, cur)
	done := e.op(opIEqual, b.tBool(), seen, cur)
	e.branch(cont)
	e.label(cont)
	e.ins(opBranchConditional, done, merge, head)
	e.label(merge)
	return e.op(opBitcast, e.typ(k), cur)
}

// localAtomic is an atomic on the thread's own memory: load, compute, store.
func (e *funcEmitter) localAtomic(v *kir.Value) uint32 {
	b := e.b
	k := v.Type.Kind
	t := e.typ(k)
	ptr := e.val[v.Args[0].ID]
	x := e.val[v.Args[1].ID]
	old := e.loadIn(kir.Local, ptr, k)
	var nw uint32
	switch kir.AtomicOp(v.Index) {
	case kir.AtomicAdd:
		if k.IsFloat() {
			nw = e.op(opFAdd, t, old, x)
		} else {
			nw = e.op(opIAdd, t, old, x)
		}
	case kir.AtomicMin, kir.AtomicMax:
		less := uint32(opULessThan)
		if k.IsSigned() {
			less = opSLessThan
		}
		lt := e.op(less, b.tBool(), x, old)
		if kir.AtomicOp(v.Index) == kir.AtomicMax {
			lt = e.op(less, b.tBool(), old, x)
		}
		nw = e.op(opSelect, t, lt, x, old)
	case kir.AtomicExchange:
		nw = x
	case kir.AtomicCAS:
		eq := e.op(opIEqual, b.tBool(), old, x)
		nw = e.op(opSelect, t, eq, e.val[v.Args[2].ID], old)
	}
	e.storeIn(kir.Local, ptr, k, nw)
	return old
}
