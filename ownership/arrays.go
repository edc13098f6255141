package ownership

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Arrays of buffers. A local array variable of buffers (`var in
// [nStreams]*device.Buffer[T]` filled by `in[i], err = device.Upload(...)`
// in a loop, a ping-pong pair `[2]*Buffer`) is a collection (bufferArray):
// a loop over it that frees its elements frees it, like a slice of
// buffers. Its elements, and those of a slice of buffers indexed as made,
// are also followed one by one where they are named by constant indices:
// each store into an element sets the element's bit in heldElems (every
// bit for a store under a variable index, or an append), a Free of
// `buf[k]` (or a deferred one) clears bit k, and the collection holds
// nothing left to free once every bit is clear (`buf[0].Free();
// buf[1].Free()`): a pair of which only one half is freed still holds the
// other. namedElems keeps the elements stored under their constant index,
// whose overwrite without a Free loses a buffer.

// arrayLen returns the length of the array a collection value points to
// (or is), when it is a local array of buffers of at most 64 elements; 64
// for a slice of buffers indexed as made (`bufs := make([]*Buffer[T], n)`,
// never reassigned, so that `bufs[k]` is its element k: its first 64
// elements are followed by name, a store under a variable index or an
// append fills them all); 0 otherwise.
func arrayLen(base ssa.Value) int64 {
	if mk, ok := base.(*ssa.MakeSlice); ok && isBuffer(collElemType(mk.Type())) {
		return 64
	}
	if sl, ok := base.(*ssa.Slice); ok && sl.Low == nil {
		if a, ok := sl.X.(*ssa.Alloc); ok && a.Comment == "makeslice" {
			return arrayLen(a) // make with a constant length
		}
	}
	if v := madeSliceVar(base); v != nil {
		return arrayLen(v)
	}
	t := base.Type()
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	arr, ok := types.Unalias(t).Underlying().(*types.Array)
	if !ok || !isBuffer(arr.Elem()) || arr.Len() <= 0 || arr.Len() > 64 {
		return 0
	}
	return arr.Len()
}

// elemBits returns the heldElems bits of the element that addr (an
// IndexAddr) names, with the array: the element's bit under a constant
// index, every bit under a variable one; 0 when addr is no element of a
// local array of buffers.
func elemBits(addr ssa.Value) (ssa.Value, uint64) {
	ia, ok := addr.(*ssa.IndexAddr)
	if !ok {
		return nil, 0
	}
	n := arrayLen(ia.X)
	if n == 0 {
		return nil, 0
	}
	if c, ok := ia.Index.(*ssa.Const); ok && c.Value != nil {
		if k, exact := constant.Int64Val(constant.ToInt(c.Value)); exact && k >= 0 && k < n {
			return ia.X, 1 << k
		}
	}
	return ia.X, 1<<n - 1 // every bit (for n = 64, 1<<64 wraps to 0)
}

// holdElem records, at a store of buffers ids into an element of a local
// array of buffers, that the element holds them where the function still
// owes them (fill has made the array responsible); a store under a
// constant index into an element that holds a buffer stored there by name,
// not read out before, loses that buffer.
func (fa *funcAnalysis) holdElem(st flowState, in *ssa.Store, ids []int, final bool) {
	base, bits := elemBits(in.Addr)
	if bits == 0 {
		return
	}
	named := bits&(bits-1) == 0
	for _, c := range fa.collIDs(fa.contentsOrAlias(base)) {
		s := &st[c]
		if final && named && s.namedElems&bits != 0 && responsible(*s) && s.bits&(freed|escaped) == 0 &&
			!fa.readOut(c, in.Addr, "", in) {
			name := fa.res[c].name
			if name == "" {
				name = "the array"
			}
			fa.reportAt(in.Pos(), fmt.Sprintf("the buffer held in %s[%s] is not freed before it is overwritten at line %d",
				name, keyText(in.Addr.(*ssa.IndexAddr).Index), fa.line(in.Pos())), fa.allocated(fa.res[c]))
		}
		if !owed(st, ids) {
			s.heldElems &^= bits
			s.namedElems &^= bits
			continue
		}
		s.heldElems |= bits
		if named {
			s.namedElems |= bits
		}
	}
}

// releaseElem handles a Free of `buf[k]` (k constant), now or deferred:
// element k holds nothing more to free, and an array none of whose
// elements does is freed (or left to the deferred calls).
func (fa *funcAnalysis) releaseElem(st flowState, recv ssa.Value, isDefer bool, pos token.Pos) {
	load, ok := recv.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return
	}
	base, bits := elemBits(load.X)
	if bits == 0 || bits&(bits-1) != 0 || fa.storedSince(load) {
		return // not one element under a constant index, or no longer its value
	}
	for _, c := range fa.collIDs(fa.contentsOrAlias(base)) {
		s := &st[c]
		if s.heldElems&bits == 0 {
			continue
		}
		s.namedElems &^= bits
		if s.heldElems &^= bits; s.heldElems != 0 || s.bits&live == 0 {
			continue
		}
		if isDefer {
			s.bits = s.bits&^(live|empty) | deferred
			s.deferPos = pos
		} else {
			s.bits = s.bits&^(live|empty) | freed
			s.freePos = pos
		}
	}
}

// elemsFailed handles the branch where the allocations ids failed: an
// element of a local array of buffers that one of them was stored into
// under a constant index (`if buf[1], err = device.Alloc(...); err != nil`)
// holds nil there, and an array that held nothing else holds nothing.
func (fa *funcAnalysis) elemsFailed(errEdge flowState, ids []int) {
	for _, id := range ids {
		call, ok := fa.creator(id).(*ssa.Call)
		if !ok {
			continue
		}
		for _, ref := range *call.Referrers() {
			if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 {
				fa.elemStoreFailed(errEdge, ex)
			}
		}
	}
}

// elemStoreFailed clears, on errEdge, the element bits of the stores of
// the failed result v into constant elements of local arrays of buffers.
func (fa *funcAnalysis) elemStoreFailed(errEdge flowState, v ssa.Value) {
	for _, ref := range *v.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != v {
			continue
		}
		base, bits := elemBits(st.Addr)
		if bits == 0 || bits&(bits-1) != 0 {
			continue
		}
		for _, c := range fa.collIDs(fa.contentsOrAlias(base)) {
			s := &errEdge[c]
			s.namedElems &^= bits
			if s.heldElems &^= bits; s.heldElems == 0 && s.bits&live != 0 {
				s.bits = s.bits&^live | empty
			}
		}
	}
}

// namedElem reports whether v is read from an element of a local array of
// buffers under a constant index (`ws[0]`): a Free of it in a loop frees
// that element (releaseElem), not every element of the array.
func (fa *funcAnalysis) namedElem(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	_, bits := elemBits(load.X)
	return bits != 0 && bits&(bits-1) == 0
}

// storedSince reports whether the element that load read (`old :=
// ws[0]`) was stored into between the load and the current instruction
// (`ws[0] = nb; old.Free()`): the Free releases the old buffer, not what
// the element holds now.
func (fa *funcAnalysis) storedSince(load *ssa.UnOp) bool {
	ia := load.X.(*ssa.IndexAddr)
	if fa.cur == nil {
		return false
	}
	for _, ref := range *ia.X.Referrers() {
		ja, ok := ref.(*ssa.IndexAddr)
		if !ok || !sameVal(ja.Index, ia.Index, 0) {
			continue
		}
		for _, r2 := range *ja.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ja && before(load, st) && before(st, fa.cur) {
				return true
			}
		}
	}
	return false
}

// reachingElemStore returns the store into the same constant element of a
// local array of buffers that load certainly reads (`ws[0], err =
// device.Alloc(...)`, then `ws[0].Free()`: straight-line code, through
// blocks with one predecessor), or nil: a store into the array under a
// variable index, or a call of a function literal, in between, or a join
// of paths, leaves the element's value unknown.
func (fa *funcAnalysis) reachingElemStore(load *ssa.UnOp) *ssa.Store {
	ia, ok := load.X.(*ssa.IndexAddr)
	if !ok || !fa.namedElem(load) {
		return nil
	}
	return storeBefore(load, func(st *ssa.Store) (hit, stop bool) {
		ja, ok := st.Addr.(*ssa.IndexAddr)
		if !ok || !sameBase(ja.X, ia.X) {
			return false, false
		}
		if sameVal(ja.Index, ia.Index, 0) {
			return true, false
		}
		_, isConst := ja.Index.(*ssa.Const)
		return false, !isConst
	})
}

// holdAll records an append of buffers ids to collections: which element
// holds them is not followed, so every element may hold one.
func (fa *funcAnalysis) holdAll(st flowState, colls, ids []int) {
	if !owed(st, ids) {
		return
	}
	for _, c := range fa.collIDs(colls) {
		st[c].heldElems = ^uint64(0)
	}
}

// madeSliceVar returns, for a load of a slice variable captured only by
// deferred function literals and stored into once, by make (`bufs :=
// make([]*Buffer[T], k)`, then `defer func() { for _, b := range bufs
// {...} }()`), the made slice; nil otherwise.
func madeSliceVar(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	a, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, ref := range *a.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok {
			for _, r2 := range *mc.Referrers() {
				switch r2.(type) {
				case *ssa.Defer, *ssa.DebugRef:
				default:
					return nil // a literal that may run now, and reassign it
				}
			}
		}
	}
	switch made := onlyStored(a).(type) {
	case *ssa.MakeSlice:
		return made
	case *ssa.Slice:
		return made
	}
	return nil
}

// sameBase reports whether two collection values index the same slice or
// array: the same value, or loads of the same made slice variable.
func sameBase(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ma := madeSliceVar(a)
	return ma != nil && ma == madeSliceVar(b)
}
