package lower

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
	"github.com/gpukvet/gpukvet/internal/itervars"
	"github.com/gpukvet/gpukvet/internal/targets"
)

// alloc lowers a local variable: a per-thread slot in local memory, zeroed
// where the variable is declared (each loop iteration's variable is fresh),
// or the next of its slots when each execution needs its own.
func (b *builder) alloc(v *ssa.Alloc) *kir.Value {
	t := v.Type().(*types.Pointer).Elem()
	size := sizes.Sizeof(t)
	if size > targets.MaxLocalVar {
		b.fail(v.Pos(), "%s", targets.LocalVarMessage("", size))
	}
	var p *kir.Value
	if s := b.frame.iters[v]; s != nil {
		p = b.nextSlot(s, v.Pos())
	} else {
		p = b.local(size, sizes.Alignof(t))
	}
	b.zeroMemory(p, t)
	return p
}

// local is a fresh per-thread allocation of size bytes.
func (b *builder) local(size, align int64) *kir.Value {
	p := b.val(kir.OpLocal, kir.PtrTo(kir.Local))
	p.Imm = uint64(max(size, 1))
	p.Index = int(align)
	return p
}

// iterSlots are the copies of a variable whose every execution needs a
// slot of its own: an array of them, and a counter of those taken.
type iterSlots struct {
	base, taken    *kir.Value
	copies, stride int64
}

// iterationSlots gives each variable of fn whose address outlives its
// iteration an array of slots, one per execution in a call (the counter
// starts at zero where the call starts), and refuses those that cannot
// have one: memspace reports them, and without the checks it is an error
// here.
func (b *builder) iterationSlots(fn *ssa.Function) map[*ssa.Alloc]*iterSlots {
	out := map[*ssa.Alloc]*iterSlots{}
	for _, e := range itervars.Find(fn) {
		if !e.Compiles() {
			b.fail(e.Pos, "%s", e.Message())
		}
		t := e.Alloc.Type().(*types.Pointer).Elem()
		s := &iterSlots{base: b.local(e.Copies*e.Stride, sizes.Alignof(t)), taken: b.local(8, 8), copies: e.Copies, stride: e.Stride}
		b.val(kir.OpStore, kir.Type{}, s.taken, b.i64(0))
		out[e.Alloc] = s
	}
	return out
}

// nextSlot takes the next of s's slots. The count of executions bounds
// the index; the bounds check keeps a wrong bound from writing past the
// array.
func (b *builder) nextSlot(s *iterSlots, pos token.Pos) *kir.Value {
	k := b.val(kir.OpLoad, kir.TI64, s.taken)
	b.boundsCheck(k, b.i64(s.copies), pos)
	b.val(kir.OpStore, kir.Type{}, s.taken, b.val(kir.OpAdd, kir.TI64, k, b.i64(1)))
	return b.elemAddr(s.base, k, s.stride)
}

// zeroMemory stores t's zero value at p: leaf by leaf for small types, with
// a loop over 8-byte words for large ones.
func (b *builder) zeroMemory(p *kir.Value, t types.Type) {
	size := sizes.Sizeof(t)
	if size <= 256 {
		for _, l := range b.layout(t) {
			b.val(kir.OpStore, kir.Type{}, b.ptrAdd(p, l.off), b.konst(storeType(l.kind), 0))
		}
		return
	}
	// for off := 0; off < size; off += unit { *(p+off) = 0 }
	unit, ty := int64(8), kir.TU64
	if sizes.Alignof(t) < 8 || size%8 != 0 {
		unit, ty = 1, kir.Type{Kind: kir.U8}
		if size%4 == 0 && sizes.Alignof(t) >= 4 {
			unit, ty = 4, kir.TU32
		}
	}
	pre := b.cur
	start := b.i64(0)
	head := b.f.NewBlock(kir.BlockLoopHeader, "zero.loop")
	body := b.f.NewBlock(kir.BlockLoopBody, "zero.body")
	done := b.f.NewBlock(kir.BlockLoopDone, "zero.done")
	pre.Jump(head)
	b.cur = head
	off := b.f.NewPhi(head, kir.TI64)
	limit := b.i64(size)
	b.cur.Branch(b.val(kir.OpLt, kir.TBool, off, limit), body, done)
	b.cur = body
	b.val(kir.OpStore, kir.Type{}, b.val(kir.OpPtrAdd, p.Type, p, off), b.konst(ty, 0))
	next := b.val(kir.OpAdd, kir.TI64, off, b.i64(unit))
	body.Jump(head)
	off.Args = []*kir.Value{start, next}
	b.cur = done
}

// nilCheck traps with a nil dereference at pos unless pointer p, the
// lowering of x, is not nil. Go's SSA proves x when it is the address of a
// variable, a field or an element (each made only from a non-nil base);
// the IR proves more once phis are complete (kir.NonNil, folded by
// FoldConstants), so only a pointer that may be nil keeps its test.
func (b *builder) nilCheck(x ssa.Value, p *kir.Value, pos token.Pos) {
	switch x.(type) {
	case *ssa.Alloc, *ssa.FieldAddr, *ssa.IndexAddr:
		return
	}
	if kir.NonNil(p) {
		return
	}
	// Compare generic addresses: the shared and local windows start at 0,
	// so a variable there may have the address nil has (p's space may
	// still change, see settleSpaces, so convert whatever it is now).
	g := b.val(kir.OpConvert, kir.PtrTo(kir.Generic), p)
	null := b.konst(kir.Type{Kind: kir.Ptr}, 0)
	b.check(b.val(kir.OpNe, kir.TBool, g, null), gpuabi.TrapNil, pos, nil, nil)
}

// storeType is the memory type of a leaf of kind k.
func storeType(k kir.Kind) kir.Type {
	if k == kir.Ptr {
		return kir.TU64
	}
	return kir.Type{Kind: k}
}

func (b *builder) ptrAdd(p *kir.Value, off int64) *kir.Value {
	if off == 0 {
		return p
	}
	return b.val(kir.OpPtrAdd, p.Type, p, b.i64(off))
}

// load reads a value of type t at p.
func (b *builder) load(p *kir.Value, t types.Type, pos token.Pos) []*kir.Value {
	var out []*kir.Value
	for _, l := range b.layout(t) {
		ty := kir.Type{Kind: l.kind}
		if l.kind == kir.Ptr {
			ty = kir.PtrTo(kir.Generic)
		}
		out = append(out, b.val(kir.OpLoad, ty, b.ptrAdd(p, l.off)))
	}
	return out
}

// store writes the leaves of a value of type t at p. Pointers are stored as
// generic addresses.
func (b *builder) store(p *kir.Value, t types.Type, vals []*kir.Value, pos token.Pos) {
	for i, l := range b.layout(t) {
		v := vals[i]
		if v.Type.Kind == kir.Ptr && v.Op != kir.OpConst {
			// Convert even a pointer that is generic now: a phi's space
			// settles after its users are lowered (settleSpaces), and a
			// local address stored as it is reads as a global one.
			v = b.val(kir.OpConvert, kir.PtrTo(kir.Generic), v)
		}
		b.val(kir.OpStore, kir.Type{}, b.ptrAdd(p, l.off), v)
	}
}

func (b *builder) fieldAddr(v *ssa.FieldAddr) *kir.Value {
	st := v.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	x := b.value(v.X)[0]
	b.nilCheck(v.X, x, v.Pos())
	return b.ptrAdd(x, fieldOffset(st, v.Field))
}

func fieldOffset(st *types.Struct, i int) int64 {
	fields := make([]*types.Var, st.NumFields())
	for j := range fields {
		fields[j] = st.Field(j)
	}
	return sizes.Offsetsof(fields)[i]
}

// field selects a field's leaves from a struct value.
func (b *builder) field(v *ssa.Field) []*kir.Value {
	st := v.X.Type().Underlying().(*types.Struct)
	x := b.value(v.X)
	start := 0
	for i := 0; i < v.Field; i++ {
		start += len(b.layout(st.Field(i).Type()))
	}
	return x[start : start+len(b.layout(st.Field(v.Field).Type()))]
}

// indexAddr lowers &x[i] for a slice or a pointer to an array, with a
// bounds check.
func (b *builder) indexAddr(v *ssa.IndexAddr) *kir.Value {
	x := b.value(v.X)
	idx := b.toInt(b.value(v.Index)[0], v.Index.Type())
	var base, length *kir.Value
	var elem types.Type
	switch t := v.X.Type().Underlying().(type) {
	case *types.Slice:
		base, length, elem = x[0], x[1], t.Elem()
	case *types.Pointer:
		at := t.Elem().Underlying().(*types.Array)
		b.nilCheck(v.X, x[0], v.Pos())
		base, length, elem = x[0], b.i64(at.Len()), at.Elem()
	default:
		b.fail(v.Pos(), "indexing %s cannot be used in kernels", v.X.Type())
	}
	b.boundsCheck(idx, length, v.Pos())
	return b.elemAddr(base, idx, sizes.Sizeof(elem))
}

// elemAddr is base + idx*size.
func (b *builder) elemAddr(base, idx *kir.Value, size int64) *kir.Value {
	if idx.Op == kir.OpConst {
		return b.ptrAdd(base, idx.Int()*size)
	}
	off := idx
	if size != 1 {
		off = b.val(kir.OpMul, kir.TI64, idx, b.i64(size))
	}
	return b.val(kir.OpPtrAdd, base.Type, base, off)
}

// toInt converts an index of any integer type to i64. An unsigned index
// above MaxInt64 becomes negative and fails the bounds check, as in Go.
func (b *builder) toInt(x *kir.Value, t types.Type) *kir.Value {
	if x.Type.Kind == kir.I64 {
		return x
	}
	if x.Type.Kind == kir.U64 {
		return b.val(kir.OpBitcast, kir.TI64, x)
	}
	return b.val(kir.OpConvert, kir.TI64, x)
}

// boundsCheck traps unless 0 <= idx < length, comparing unsigned (a negative
// index is a huge unsigned one), unless the check is proved redundant later.
func (b *builder) boundsCheck(idx, length *kir.Value, pos token.Pos) {
	if idx.Op == kir.OpConst && length.Op == kir.OpConst && uint64(idx.Int()) < uint64(length.Int()) {
		return
	}
	ui := b.val(kir.OpBitcast, kir.TU64, idx)
	ul := b.val(kir.OpBitcast, kir.TU64, length)
	b.check(b.val(kir.OpLt, kir.TBool, ui, ul), gpuabi.TrapIndex, pos, idx, length)
}

// index lowers x[i] of an array value.
func (b *builder) index(v *ssa.Index) []*kir.Value {
	if s, ok := constString(v.X); ok {
		return b.stringIndex(s, v)
	}
	at, ok := v.X.Type().Underlying().(*types.Array)
	if !ok {
		b.fail(v.Pos(), "indexing %s cannot be used in kernels", v.X.Type())
	}
	x := b.value(v.X)
	idx := b.toInt(b.value(v.Index)[0], v.Index.Type())
	n := len(b.layout(at.Elem()))
	if idx.Op == kir.OpConst && idx.Int() >= 0 && idx.Int() < at.Len() {
		return x[int(idx.Int())*n : int(idx.Int()+1)*n]
	}
	// A dynamic index into an array value: spill it to local memory.
	p := b.val(kir.OpLocal, kir.PtrTo(kir.Local))
	p.Imm = uint64(max(sizes.Sizeof(at), 1))
	p.Index = int(sizes.Alignof(at))
	b.store(p, at, x, v.Pos())
	b.boundsCheck(idx, b.i64(at.Len()), v.Pos())
	return b.load(b.elemAddr(p, idx, sizes.Sizeof(at.Elem())), at.Elem(), v.Pos())
}

// slice lowers x[lo:hi:max] with Go's checks 0 <= lo <= hi <= max <= cap.
func (b *builder) slice(v *ssa.Slice) []*kir.Value {
	x := b.value(v.X)
	var base, length, capacity *kir.Value
	var elem types.Type
	switch t := v.X.Type().Underlying().(type) {
	case *types.Slice:
		base, length, capacity, elem = x[0], x[1], x[2], t.Elem()
	case *types.Pointer:
		at, ok := t.Elem().Underlying().(*types.Array)
		if !ok {
			b.fail(v.Pos(), "slicing %s cannot be used in kernels", v.X.Type())
		}
		b.nilCheck(v.X, x[0], v.Pos())
		base, elem = x[0], at.Elem()
		length = b.i64(at.Len())
		capacity = length
	default:
		b.fail(v.Pos(), "slicing %s cannot be used in kernels", v.X.Type())
	}
	lo, hi, mx := b.i64(0), length, capacity
	if v.Low != nil {
		lo = b.toInt(b.value(v.Low)[0], v.Low.Type())
	}
	if v.High != nil {
		hi = b.toInt(b.value(v.High)[0], v.High.Type())
	}
	if v.Max != nil {
		mx = b.toInt(b.value(v.Max)[0], v.Max.Type())
	}
	le := func(a, c *kir.Value) *kir.Value {
		ua := b.val(kir.OpBitcast, kir.TU64, a)
		uc := b.val(kir.OpBitcast, kir.TU64, c)
		return b.val(kir.OpLe, kir.TBool, ua, uc)
	}
	if v.Max != nil {
		b.check(le(mx, capacity), gpuabi.TrapSlice, v.Pos(), mx, capacity)
	}
	if v.High != nil {
		b.check(le(hi, mx), gpuabi.TrapSlice, v.Pos(), hi, mx)
	}
	if v.Low != nil {
		b.check(le(lo, hi), gpuabi.TrapSlice, v.Pos(), lo, hi)
	}
	ptr := b.elemAddr(base, lo, sizes.Sizeof(elem))
	return []*kir.Value{ptr, b.sub(hi, lo), b.sub(mx, lo)}
}

func (b *builder) sub(x, y *kir.Value) *kir.Value {
	if y.Op == kir.OpConst && y.Imm == 0 {
		return x
	}
	return b.val(kir.OpSub, kir.TI64, x, y)
}

// sliceToArrayPointer lowers (*[N]T)(s), which panics when len(s) < N.
func (b *builder) sliceToArrayPointer(v *ssa.SliceToArrayPointer) []*kir.Value {
	x := b.value(v.X)
	n := v.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array).Len()
	b.check(b.val(kir.OpGe, kir.TBool, x[1], b.i64(n)), gpuabi.TrapSlice, v.Pos(), b.i64(n), x[1])
	return x[:1]
}
