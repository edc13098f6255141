package spirv

import (
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// Pointers are 64-bit integers. A global pointer is a buffer device
// address (bits 62-63 zero on every device); a shared pointer is tagShared
// plus a byte offset into the kernel's Workgroup word array; a local
// pointer is tagLocal plus a byte offset into its Function word array. So
// converting between spaces is free and a generic pointer (a pointer stored
// in memory, a phi of pointers into different spaces) dispatches on the tag
// at the access. Shared and local memory are arrays of 32-bit words: 8- and
// 16-bit values are read by shifting a word and written with an atomic AND
// and OR (shared; other threads may write the word's other bytes) or a
// read-modify-write (local); 64-bit values are two words.
const (
	tagShared  = uint64(1) << 62
	tagLocal   = uint64(2) << 62
	offsetMask = uint64(1)<<62 - 1
)

// pushBlock is the kernel's parameter block (gpuabi.LayoutPush): the
// push-constant block itself, or, for a block over Vulkan's minimum
// push-constant space (layout.Indirect), an argument buffer whose device
// address is the one push constant.
type pushBlock struct {
	v      uint32   // the PushConstant variable
	member []uint32 // member (slot) index of each kir parameter
	mtype  []uint32 // member type of each kir parameter
	trap   uint32   // member index of the trap-record address
	layout gpuabi.PushLayout
}

// PushParams maps a kernel's entry parameters to gpuabi's parameter kinds,
// and each entry parameter to its slot in gpuabi.LayoutPush's result.
func PushParams(f *kir.Func) (params []gpuabi.Param, slotOf []int) {
	slotOf = make([]int, len(f.Params))
	for i := 0; i < len(f.Params); i++ {
		p := f.Params[i]
		g := len(params)
		switch {
		case p.Bytes > 0:
			params = append(params, gpuabi.Param{Kind: gpuabi.Struct, Size: p.Bytes, Align: p.Align})
			slotOf[i] = g
		case p.Type.Kind == kir.Ptr && i+1 < len(f.Params) && f.Params[i+1].Len:
			params = append(params, gpuabi.Param{Kind: gpuabi.Slice})
			slotOf[i], slotOf[i+1] = g, g
			i++
		default:
			params = append(params, gpuabi.Param{Kind: gpuabi.Scalar, Size: p.Type.Kind.Size(), Align: p.Type.Kind.Size()})
			slotOf[i] = g
		}
	}
	// slotOf holds Go parameter indices so far; turn them into slot indices.
	l := gpuabi.LayoutPush(params)
	for i := range f.Params {
		g := slotOf[i]
		slots := l.Entry[g]
		if len(slots) == 2 && f.Params[i].Len {
			slotOf[i] = slots[1]
		} else {
			slotOf[i] = slots[0]
		}
	}
	return params, slotOf
}

func (e *funcEmitter) declarePush() {
	b := e.b
	f := e.p.f
	params, slotOf := PushParams(f)
	l := gpuabi.LayoutPush(params)
	e.push.layout = l
	members := make([]uint32, len(l.Slots)+1)
	e.push.member = make([]uint32, len(f.Params))
	e.push.mtype = make([]uint32, len(f.Params))
	for i, p := range f.Params {
		s := slotOf[i]
		var t uint32
		switch {
		case p.Bytes > 0:
			t = b.tArray(b.tInt(32), l.Slots[s].Size/4, 4)
		case p.Type.Kind == kir.F32:
			t = b.tFloat(32)
		case p.Type.Kind == kir.F64:
			t = b.tFloat(64)
		case l.Slots[s].Size == 8:
			t = b.tInt(64)
		default:
			t = b.tInt(32)
		}
		members[s] = t
		e.push.member[i] = uint32(s)
		e.push.mtype[i] = t
	}
	e.push.trap = uint32(len(l.Slots))
	members[len(l.Slots)] = b.tInt(64)
	st := b.id()
	if l.Indirect {
		// The parameters are read through the argument buffer's
		// address, the block's only member (pushLoad).
		inst(&b.globals, opTypeStruct, st, b.tInt(64))
		inst(&b.decos, opDecorate, st, decBlock)
		inst(&b.decos, opMemberDecorate, st, 0, decOffset, 0)
	} else {
		inst(&b.globals, opTypeStruct, append([]uint32{st}, members...)...)
		inst(&b.decos, opDecorate, st, decBlock)
		for i := range l.Slots {
			inst(&b.decos, opMemberDecorate, st, uint32(i), decOffset, uint32(l.Slots[i].Offset))
		}
		inst(&b.decos, opMemberDecorate, st, e.push.trap, decOffset, uint32(l.Trap.Offset))
	}
	e.push.v = b.id()
	inst(&b.globals, opVariable, b.tPtr(scPushConstant, st), e.push.v, scPushConstant)
	e.interfaces = append(e.interfaces, e.push.v)
}

// pushLoad loads parameter-block member m (a slot, or the trap address) of
// type t, or, given word, 32-bit word number word[0] of a struct member.
// In an argument buffer (layout.Indirect) the member is read at its
// offset from the buffer's address, aligned as its type (slots are
// aligned for their size; struct words for 4).
func (e *funcEmitter) pushLoad(m, t uint32, word ...int) uint32 {
	b := e.b
	if e.push.layout.Indirect {
		slot := e.push.layout.Trap
		if int(m) < len(e.push.layout.Slots) {
			slot = e.push.layout.Slots[m]
		}
		off, align := uint64(slot.Offset), uint32(slot.Size)
		if len(word) > 0 {
			off, align = off+4*uint64(word[0]), 4
		}
		u64 := b.tInt(64)
		p := e.op(opAccessChain, b.tPtr(scPushConstant, u64), e.push.v, b.constU32(0))
		a := e.op(opIAdd, u64, e.op(opLoad, u64, p), b.constU64(off))
		return e.op(opLoad, t, e.globalPtr(a, t), memopAligned, min(align, 8))
	}
	idx := []uint32{b.constU32(m)}
	if len(word) > 0 {
		idx = append(idx, b.constU32(uint32(word[0])))
	}
	p := e.op(opAccessChain, b.tPtr(scPushConstant, t), append([]uint32{e.push.v}, idx...)...)
	return e.op(opLoad, t, p)
}

// layoutMemory gives the kernel's shared variables and local allocations
// their offsets in its word arrays.
func (e *funcEmitter) layoutMemory() {
	e.sharedOff = map[int]int{}
	e.localOff = map[*kir.Value]int{}
	for _, blk := range e.p.f.Blocks {
		for _, v := range blk.Values {
			switch v.Op {
			case kir.OpShared:
				if _, ok := e.sharedOff[v.Index]; !ok {
					sv := e.mod.Shared[v.Index]
					a := max(sv.Align, 4)
					e.sharedBytes = (e.sharedBytes + a - 1) / a * a
					e.sharedOff[v.Index] = e.sharedBytes
					e.sharedBytes += (max(sv.Size, 1) + 3) / 4 * 4
				}
			case kir.OpLocal:
				a := max(v.Index, 4)
				e.localBytes = (e.localBytes + a - 1) / a * a
				e.localOff[v] = e.localBytes
				e.localBytes += (int(max(v.Imm, 1)) + 3) / 4 * 4
			}
		}
	}
}

// typ is the SPIR-V type of a register holding kind k.
func (e *funcEmitter) typ(k kir.Kind) uint32 {
	b := e.b
	switch k {
	case kir.Void:
		return b.tVoid()
	case kir.Bool:
		return b.tBool()
	case kir.F32:
		e.floats[32] = true
		return b.tFloat(32)
	case kir.F64:
		e.feats["float64"] = true
		e.floats[64] = true
		return b.tFloat(64)
	case kir.I64, kir.U64, kir.Ptr:
		return b.tInt(64)
	}
	return b.tInt(32)
}

// param reads a kernel parameter.
func (e *funcEmitter) param(v *kir.Value) {
	b := e.b
	i := v.Index
	p := e.p.f.Params[i]
	k := v.Type.Kind
	m, mt := e.push.member[i], e.push.mtype[i]
	if p.Bytes == 0 {
		x := e.pushLoad(m, mt)
		switch {
		case k == kir.Bool:
			e.opTo(e.val[v.ID], opINotEqual, b.tBool(), x, b.constU32(0))
		case k.IsInt() && k.Bits() < 32:
			e.normalizeTo(e.val[v.ID], x, k)
		default:
			e.opTo(e.val[v.ID], opCopyObject, e.typ(k), x)
		}
		return
	}
	// A struct: words of Go's bytes.
	u32 := b.tInt(32)
	off := int(v.Imm)
	word := func(w int) uint32 { return e.pushLoad(m, u32, w) }
	e.fromWords(e.val[v.ID], k, off, word)
}

// fromWords assembles a value of kind k at byte offset off from 32-bit
// words, into id.
func (e *funcEmitter) fromWords(id uint32, k kir.Kind, off int, word func(int) uint32) {
	b := e.b
	u32 := b.tInt(32)
	switch {
	case k.Bits() == 64:
		lo := e.op(opUConvert, b.tInt(64), word(off/4))
		hi := e.op(opUConvert, b.tInt(64), word(off/4+1))
		hi = e.op(opShiftLeftLogical, b.tInt(64), hi, b.constU32(32))
		if k == kir.F64 {
			x := e.op(opBitwiseOr, b.tInt(64), lo, hi)
			e.opTo(id, opBitcast, e.typ(k), x)
		} else {
			e.opTo(id, opBitwiseOr, b.tInt(64), lo, hi)
		}
	case k == kir.F32:
		e.opTo(id, opBitcast, e.typ(k), word(off/4))
	case k.Bits() == 32:
		e.opTo(id, opCopyObject, u32, word(off/4))
	default:
		x := word(off / 4)
		if sh := off % 4 * 8; sh != 0 {
			x = e.op(opShiftRightLogical, u32, x, b.constU32(uint32(sh)))
		}
		if k == kir.Bool {
			x = e.op(opBitwiseAnd, u32, x, b.constU32(0xff))
			e.opTo(id, opINotEqual, b.tBool(), x, b.constU32(0))
			return
		}
		e.normalizeTo(id, x, k)
	}
}

// memType is the SPIR-V type of kind k in global memory.
func (e *funcEmitter) memType(k kir.Kind) uint32 {
	b := e.b
	switch k {
	case kir.Bool, kir.I8, kir.U8:
		b.caps[capStorageBuffer8BitAccess] = true
		b.caps[capInt8] = true
		e.feats["storageBuffer8BitAccess"] = true
		e.feats["int8"] = true
		return b.tInt(8)
	case kir.I16, kir.U16:
		b.caps[capStorageBuffer16BitAccess] = true
		b.caps[capInt16] = true
		e.feats["storageBuffer16BitAccess"] = true
		e.feats["int16"] = true
		return b.tInt(16)
	}
	return e.typ(k)
}

// globalPtr converts address a (u64) to a PhysicalStorageBuffer pointer to t.
func (e *funcEmitter) globalPtr(a, t uint32) uint32 {
	return e.op(opConvertUToPtr, e.b.tPtr(scPhysicalStorageBuffer, t), a)
}

// storeGlobalAt stores x (of type t) at address base+off.
func (e *funcEmitter) storeGlobalAt(base uint32, off uint64, t, x uint32, align uint32) {
	a := base
	if off != 0 {
		a = e.op(opIAdd, e.b.tInt(64), base, e.b.constU64(off))
	}
	e.ins(opStore, e.globalPtr(a, t), x, memopAligned, align)
}

// loadStop reads the stop word of the launch's trap record with a relaxed
// atomic load at device scope, so that it sees the host's write and no
// driver may remove it or hoist it out of the loop that polls. A volatile
// plain load is not enough: NVIDIA's Vulkan driver (580, on an H100) never
// saw the host's write through one, and the loops ran on.
func (e *funcEmitter) loadStop() uint32 {
	b := e.b
	u32, u64 := b.tInt(32), b.tInt(64)
	rec := e.pushLoad(e.push.trap, u64)
	a := e.op(opIAdd, u64, rec, b.constU64(gpuabi.TrapOffStop))
	return e.op(opAtomicLoad, u32, e.globalPtr(a, u32), b.constU32(scopeDevice), b.constU32(0))
}

// wordPtr returns a pointer to word w (u32) of the shared or local array.
func (e *funcEmitter) wordPtr(space kir.Space, w uint32) uint32 {
	b := e.b
	if space == kir.Shared {
		return e.op(opAccessChain, b.tPtr(scWorkgroup, b.tInt(32)), e.sharedVar, w)
	}
	return e.op(opAccessChain, b.tPtr(scFunction, b.tInt(32)), e.localVar, w)
}

// byteOffset returns the u32 byte offset a shared or local pointer holds.
func (e *funcEmitter) byteOffset(ptr uint32) uint32 {
	b := e.b
	o := e.op(opBitwiseAnd, b.tInt(64), ptr, b.constU64(offsetMask))
	return e.op(opUConvert, b.tInt(32), o)
}

// spaces returns the spaces a pointer of space s may point into.
func (e *funcEmitter) spaces(s kir.Space) []kir.Space {
	if s != kir.Generic {
		return []kir.Space{s}
	}
	out := []kir.Space{kir.Global}
	if e.sharedBytes > 0 {
		out = append(out, kir.Shared)
	}
	if e.localBytes > 0 {
		out = append(out, kir.Local)
	}
	return out
}

// dispatch runs access for each space ptr may point into, choosing by the
// pointer's tag at run time when there are several; t is the result type
// (0 for none). It returns the result.
func (e *funcEmitter) dispatch(ptr uint32, s kir.Space, t uint32, access func(kir.Space) uint32) uint32 {
	sp := e.spaces(s)
	if len(sp) == 1 {
		return access(sp[0])
	}
	b := e.b
	tag := e.op(opShiftRightLogical, b.tInt(64), ptr, b.constU32(62))
	var arm func(sp []kir.Space) uint32
	arm = func(sp []kir.Space) uint32 {
		if len(sp) == 1 {
			return access(sp[0])
		}
		want := uint64(0)
		switch sp[0] {
		case kir.Shared:
			want = 1
		case kir.Local:
			want = 2
		}
		is := e.op(opIEqual, b.tBool(), tag, b.constU64(want))
		this, other, merge := b.id(), b.id(), b.id()
		e.ins(opSelectionMerge, merge, 0)
		e.ins(opBranchConditional, is, this, other)
		e.label(this)
		r1 := access(sp[0])
		end1 := e.cur
		e.branch(merge)
		e.label(other)
		r2 := arm(sp[1:])
		end2 := e.cur
		e.branch(merge)
		e.label(merge)
		if t == 0 {
			return 0
		}
		return e.op(opPhi, t, r1, end1, r2, end2)
	}
	return arm(sp)
}

func (e *funcEmitter) load(v *kir.Value) {
	k := v.Type.Kind
	p := v.Args[0]
	ptr := e.val[p.ID]
	r := e.guard(e.typ(k), k, func() uint32 {
		return e.dispatch(ptr, p.Type.Space, e.typ(k), func(s kir.Space) uint32 { return e.loadIn(s, ptr, k) })
	})
	e.opTo(e.val[v.ID], opCopyObject, e.typ(k), r)
}

// loadIn loads a value of kind k through ptr in space s.
func (e *funcEmitter) loadIn(s kir.Space, ptr uint32, k kir.Kind) uint32 {
	b := e.b
	if s == kir.Global {
		mt := e.memType(k)
		x := e.op(opLoad, mt, e.globalPtr(ptr, mt), memopAligned, uint32(k.Size()))
		return e.fromMem(x, k)
	}
	off := e.byteOffset(ptr)
	w := e.op(opShiftRightLogical, b.tInt(32), off, b.constU32(2))
	word := func(i int) uint32 {
		idx := w
		if i > 0 {
			idx = e.op(opIAdd, b.tInt(32), w, b.constU32(uint32(i)))
		}
		return e.op(opLoad, b.tInt(32), e.wordPtr(s, idx))
	}
	id := b.id()
	if k.Bits() >= 32 {
		e.fromWords(id, k, 0, word)
		return id
	}
	x := word(0)
	sh := e.op(opShiftLeftLogical, b.tInt(32), e.op(opBitwiseAnd, b.tInt(32), off, b.constU32(3)), b.constU32(3))
	x = e.op(opShiftRightLogical, b.tInt(32), x, sh)
	if k == kir.Bool {
		x = e.op(opBitwiseAnd, b.tInt(32), x, b.constU32(0xff))
		e.opTo(id, opINotEqual, b.tBool(), x, b.constU32(0))
		return id
	}
	e.normalizeTo(id, x, k)
	return id
}

// fromMem converts a value loaded from global memory to its register.
func (e *funcEmitter) fromMem(x uint32, k kir.Kind) uint32 {
	b := e.b
	switch {
	case k == kir.Bool:
		w := e.op(opUConvert, b.tInt(32), x)
		return e.op(opINotEqual, b.tBool(), w, b.constU32(0))
	case k.IsSigned() && k.Bits() < 32:
		return e.op(opSConvert, b.tInt(32), x)
	case k.IsInt() && k.Bits() < 32:
		return e.op(opUConvert, b.tInt(32), x)
	}
	return x
}

// toMem converts a register to kind k's global memory type.
func (e *funcEmitter) toMem(x uint32, k kir.Kind) uint32 {
	b := e.b
	switch {
	case k == kir.Bool:
		w := e.op(opSelect, b.tInt(32), x, b.constU32(1), b.constU32(0))
		return e.op(opUConvert, e.memType(k), w)
	case k.IsInt() && k.Bits() < 32:
		return e.op(opUConvert, e.memType(k), x)
	}
	return x
}

func (e *funcEmitter) store(v *kir.Value) {
	p, x := v.Args[0], v.Args[1]
	ptr := e.val[p.ID]
	k := x.Type.Kind
	e.guard(0, kir.Void, func() uint32 {
		return e.dispatch(ptr, p.Type.Space, 0, func(s kir.Space) uint32 {
			e.storeIn(s, ptr, k, e.val[x.ID])
			return 0
		})
	})
}

// storeIn stores x of kind k through ptr in space s.
func (e *funcEmitter) storeIn(s kir.Space, ptr uint32, k kir.Kind, x uint32) {
	b := e.b
	u32 := b.tInt(32)
	if s == kir.Global {
		mt := e.memType(k)
		e.ins(opStore, e.globalPtr(ptr, mt), e.toMem(x, k), memopAligned, uint32(k.Size()))
		return
	}
	off := e.byteOffset(ptr)
	w := e.op(opShiftRightLogical, u32, off, b.constU32(2))
	switch {
	case k.Bits() == 64:
		bits := x
		if k == kir.F64 {
			bits = e.op(opBitcast, b.tInt(64), x)
		}
		lo := e.op(opUConvert, u32, bits)
		hi := e.op(opUConvert, u32, e.op(opShiftRightLogical, b.tInt(64), bits, b.constU32(32)))
		e.ins(opStore, e.wordPtr(s, w), lo)
		e.ins(opStore, e.wordPtr(s, e.op(opIAdd, u32, w, b.constU32(1))), hi)
	case k.Bits() == 32:
		if k == kir.F32 {
			x = e.op(opBitcast, u32, x)
		}
		e.ins(opStore, e.wordPtr(s, w), x)
	default:
		if k == kir.Bool {
			x = e.op(opSelect, u32, x, b.constU32(1), b.constU32(0))
		}
		mask := uint32(0xff)
		if k.Bits() == 16 {
			mask = 0xffff
		}
		sh := e.op(opShiftLeftLogical, u32, e.op(opBitwiseAnd, u32, off, b.constU32(3)), b.constU32(3))
		val := e.op(opShiftLeftLogical, u32, e.op(opBitwiseAnd, u32, x, b.constU32(mask)), sh)
		keep := e.op(opNot, u32, e.op(opShiftLeftLogical, u32, b.constU32(mask), sh))
		wp := e.wordPtr(s, w)
		if s == kir.Shared {
			// Other threads may write the word's other bytes at once.
			e.op(opAtomicAnd, u32, wp, b.constU32(scopeWorkgroup), b.constU32(0), keep)
			e.op(opAtomicOr, u32, wp, b.constU32(scopeWorkgroup), b.constU32(0), val)
			return
		}
		old := e.op(opLoad, u32, wp)
		e.ins(opStore, wp, e.op(opBitwiseOr, u32, e.op(opBitwiseAnd, u32, old, keep), val))
	}
}
