package ownership

import (
	"fmt"
	"github.com/gpukvet/gpukvet/internal/cmpop"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

// Slices of buffers. A local slice that buffers are appended to (or stored
// into) holds them: it must be freed element by element, or handed on, on
// every path, like a buffer. The classic leak it catches is the loop that
// allocates n buffers and returns on the k-th error without freeing the
// k-1 before it.
//
// A collection is created by make or starts as a nil slice; append results,
// φ-nodes, re-slicings and local variables carry it. It is freed on the exit
// edge of a loop `for i := 0; i < len(s); i++` (a range loop over s) whose
// body frees s's elements, or sends them on a channel: a loop that exits
// has visited every element.

// isBufferSlice reports whether t is a collection of buffers:
// []*device.Buffer[T], [N]*device.Buffer[T] (arrays.go) or
// map[K]*device.Buffer[T] (or a slice or map of an owning struct type, or
// a slice, map or array of plain structs holding buffers: structelems.go).
func (c *checker) isBufferSlice(t types.Type) bool {
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Slice:
		return c.tracked(u.Elem()) || c.carriesBuffers(u.Elem())
	case *types.Map:
		return c.tracked(u.Elem()) || c.carriesBuffers(u.Elem())
	case *types.Array:
		return isBuffer(u.Elem()) || c.carriesBuffers(u.Elem())
	}
	return false
}

// bufferArray reports whether a is a local array variable of buffers
// (`var in [nStreams]*device.Buffer[T]`, not the array behind a slice
// literal or a variadic call): a collection (arrays.go), not a variable
// whose loads see the union of what was stored into it.
func bufferArray(a *ssa.Alloc) bool {
	p, ok := types.Unalias(a.Type()).(*types.Pointer)
	if !ok || a.Comment == "slicelit" || a.Comment == "varargs" {
		return false
	}
	arr, isArray := p.Elem().Underlying().(*types.Array)
	return isArray && isBuffer(arr.Elem())
}

// findCollections creates a collection resource for every make of a buffer
// slice and every nil buffer slice that a φ-node or a store starts from.
func (fa *funcAnalysis) findCollections() {
	newColl := func(v ssa.Value, instr ssa.Instruction) {
		r := fa.newResource(&resource{param: -1, coll: true, pos: v.Pos(), elemFields: fa.c.bufferPaths(collElemType(v.Type()))})
		fa.alias[v] = []int{r.id}
		if instr != nil {
			fa.created[instr] = []int{r.id}
		}
	}
	for _, b := range fa.fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.MakeSlice:
				if fa.c.isBufferSlice(in.Type()) {
					newColl(in, in)
				}
			case *ssa.MakeMap:
				if fa.c.isBufferSlice(in.Type()) {
					newColl(in, in)
				}
			case *ssa.Phi:
				for _, e := range in.Edges {
					if isNilConst(e) && fa.c.isBufferSlice(e.Type()) {
						newColl(e, nil)
					}
				}
			case *ssa.Store:
				if isNilConst(in.Val) && fa.c.isBufferSlice(in.Val.Type()) {
					newColl(in.Val, nil)
				}
			case *ssa.Call:
				// append(nil, b): a slice variable that starts nil and is
				// appended to before any φ.
				if bi, ok := in.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" && len(in.Call.Args) == 2 &&
					isNilConst(in.Call.Args[0]) && fa.c.isBufferSlice(in.Call.Args[0].Type()) {
					newColl(in.Call.Args[0], nil)
				}
			case *ssa.Alloc:
				// A local array of plain structs holding buffers
				// (`var devs [8]plan`): its elements are filled in place.
				if p, ok := types.Unalias(in.Type()).(*types.Pointer); ok && !fa.cells[in] && len(fa.created[in]) == 0 {
					if _, isArray := p.Elem().Underlying().(*types.Array); isArray && fa.c.isBufferSlice(p.Elem()) {
						r := fa.newResource(&resource{param: -1, coll: true, pos: in.Pos(), name: fa.varName(in),
							elemFields: fa.c.bufferPaths(collElemType(p.Elem()))})
						fa.alias[in] = []int{r.id}
						fa.created[in] = []int{r.id}
						continue
					}
				}
				// A slice variable captured by a function literal (a
				// deferred cleanup that frees its elements): the cell
				// starts out holding a nil collection.
				if p, ok := types.Unalias(in.Type()).(*types.Pointer); ok && fa.cells[in] && len(fa.created[in]) == 0 && fa.c.isBufferSlice(p.Elem()) {
					if _, isSlice := p.Elem().Underlying().(*types.Slice); isSlice {
						r := fa.newResource(&resource{param: -1, coll: true, pos: in.Pos(), name: fa.varName(in),
							elemFields: fa.c.bufferPaths(collElemType(p.Elem()))})
						fa.contents[in] = []int{r.id}
						fa.created[in] = []int{r.id}
					}
				}
			}
		}
	}
}

// collIDs keeps the collections among ids.
func (fa *funcAnalysis) collIDs(ids []int) []int {
	var out []int
	for _, id := range ids {
		if fa.res[id].coll {
			out = append(out, id)
		}
	}
	return out
}

// finishCollections, once aliases are known, names each collection, dates
// it from the first buffer put into it, and finds those whose elements the
// function frees.
func (fa *funcAnalysis) finishCollections() {
	if !fa.hasColl() {
		return
	}
	fa.elemFreed = map[int]bool{}
	fa.elemFreeBlocks = map[int][]*ssa.BasicBlock{}
	fa.collElems = map[int][]int{}
	addElems := func(colls, elems []int) {
		for _, c := range fa.collIDs(colls) {
			fa.collElems[c], _ = union(fa.collElems[c], elems)
		}
	}
	ff := &fieldFrees{paths: map[int][]string{}, blocks: map[int][]*ssa.BasicBlock{}}
	defer fa.finishFieldFrees(ff)
	for _, b := range fa.fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.DebugRef:
				if obj, ok := in.Object().(*types.Var); ok && !in.IsAddr {
					for _, id := range fa.collIDs(fa.alias[in.X]) {
						if fa.res[id].name == "" {
							fa.res[id].name = obj.Name()
						}
					}
				}
			case ssa.CallInstruction:
				common := in.Common()
				if bi, ok := common.Value.(*ssa.Builtin); ok && bi.Name() == "append" && len(common.Args) == 2 {
					if elems := fa.contentsOrAlias(common.Args[1]); len(elems) > 0 {
						fa.dateColls(fa.alias[common.Args[0]], in.Pos())
						addElems(fa.alias[common.Args[0]], elems)
					}
					continue
				}
				fa.noteHelperFrees(ff, common, b)
				for _, j := range fa.c.freedArgs(common, 0) {
					if j < len(common.Args) && !fa.namedElem(common.Args[j]) {
						for _, id := range fa.collIDs(fa.contentsOrAlias(elementBase(common.Args[j]))) {
							fa.elemFreed[id] = true
							fa.elemFreeBlocks[id] = append(fa.elemFreeBlocks[id], b)
						}
						fa.noteFieldFree(ff, common.Args[j], b)
					}
				}
			case *ssa.Store:
				if base := elemStoreBase(in.Addr); base != nil && len(fa.alias[in.Val]) > 0 {
					fa.dateColls(fa.alias[base], in.Pos())
					addElems(fa.alias[base], fa.alias[in.Val])
				}
			case *ssa.MapUpdate:
				if len(fa.alias[in.Value]) > 0 {
					fa.dateColls(fa.alias[in.Map], in.Pos())
				}
			case *ssa.Send:
				// A loop that sends every element on hands them on.
				if base := elementBase(in.X); base != nil {
					for _, id := range fa.collIDs(fa.alias[base]) {
						fa.elemFreed[id] = true
						fa.elemFreeBlocks[id] = append(fa.elemFreeBlocks[id], b)
					}
				}
			}
		}
	}
}

func (fa *funcAnalysis) hasColl() bool {
	for _, r := range fa.res {
		if r.coll {
			return true
		}
	}
	return false
}

// dateColls records pos as the origin of collections that had none.
func (fa *funcAnalysis) dateColls(ids []int, pos token.Pos) {
	for _, id := range fa.collIDs(ids) {
		if r := fa.res[id]; r.param < 0 && (!r.pos.IsValid() || pos < r.pos) {
			r.pos = pos
		}
	}
}

// elementBase returns s for an element s[i] read from a slice (or its
// address), m for a
// value m[k] or the value of a range loop over a map, or nil.
func elementBase(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.Lookup:
		if _, isMap := x.X.Type().Underlying().(*types.Map); isMap {
			return x.X
		}
	case *ssa.Extract:
		if next, ok := x.Tuple.(*ssa.Next); ok && !next.IsString && x.Index == 2 {
			if rng, ok := next.Iter.(*ssa.Range); ok {
				return rng.X
			}
		}
	case *ssa.UnOp:
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			return ia.X
		}
	case *ssa.IndexAddr:
		// &s[i], the receiver of a pointer method (`s[i].Release()`)
		return x.X
	case *ssa.Index:
		return x.X
	}
	return nil
}

// fill marks collections as holding the buffers elems put into them. Only
// a buffer that is still the function's to release makes a collection
// responsible for it: one that a deferred Free will release (`defer
// b.Free()` in a loop, then `outs = append(outs, b)`) or that was handed on
// is only referenced there.
func fill(st flowState, ids, elems []int, fa *funcAnalysis) {
	if !owed(st, elems) {
		return
	}
	for _, id := range fa.collIDs(ids) {
		if fa.res[id].param < 0 && st[id].bits&(freed|escaped|deferred) == 0 {
			st[id].bits = st[id].bits&^(empty|isNil) | live
		}
	}
}

// reopenDeferred handles an append to a collection that a deferred call
// received by value (`defer freeAll(bufs)`, not a deferred literal that
// reads bufs at exit): that call sees the slice as it was when the defer
// statement ran, so the buffers appended now are the function's to free.
// (An indexed store, or a map update, is seen by it: they share the backing
// array or the map.)
func (fa *funcAnalysis) reopenDeferred(st flowState, ids []int) {
	for _, id := range fa.collIDs(ids) {
		if s := &st[id]; s.bits&deferred != 0 && s.bits&deferCell == 0 {
			s.bits &^= deferred | deferFreed
		}
	}
}

// refineLoopExit frees, on the exit edge of a loop over a collection's
// elements that frees them, the collection.
func (fa *funcAnalysis) refineLoopExit(cond ssa.Value, t, f flowState) {
	if fa.elemFreed == nil {
		return
	}
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return
	}
	var n ssa.Value
	exit := f
	switch bin.Op {
	case token.LSS: // i < len(s)
		n = bin.Y
	case token.GTR: // len(s) > i
		n = bin.X
	case token.GEQ: // i >= len(s): exit when true
		n, exit = bin.Y, t
	default:
		return
	}
	call, ok := n.(*ssa.Call)
	if !ok || skipsFirst(bin) {
		return
	}
	if bi, ok := call.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "len" || len(call.Call.Args) != 1 {
		return
	}
	for _, id := range fa.collIDs(fa.alias[call.Call.Args[0]]) {
		if fa.elemFreed[id] && exit[id].bits&(live|empty|escaped) != 0 {
			exit[id].bits = exit[id].bits&^(live|empty|escaped) | freed
			exit[id].heldElems, exit[id].namedElems = 0, 0
		}
	}
}

// skipsFirst reports whether a loop test compares a counter that starts
// past the first element (`for j := 1; j < len(s); j++`): the loop does
// not visit every element, so leaving it frees nothing in particular.
func skipsFirst(cond ssa.Value) bool {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Block() == nil {
		return false
	}
	for _, x := range []ssa.Value{bin.X, bin.Y} {
		if init, ok := counter(bin.Block(), x); ok {
			c, isConst := init.(*ssa.Const)
			return !isConst || c.Value == nil || constant.Sign(c.Value) > 0
		}
	}
	return false
}

// refineLoopExitBlock frees a collection on the exit edge of any other
// loop (a reverse loop, a while loop) whose header is h and whose body frees
// the collection's elements: leaving the loop at its header means the loop
// ran to its end.
func (fa *funcAnalysis) refineLoopExitBlock(h *ssa.BasicBlock, t, f flowState) {
	if fa.elemFreed == nil || !fa.inLoop[h] || len(h.Succs) != 2 {
		return
	}
	if test, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If); ok && skipsFirst(test.Cond) {
		return
	}
	exit, ok := fa.loopExit[h]
	if !ok {
		exit = -1
		for k, s := range h.Succs {
			if !kernelssa.Reaches(s, h) {
				if exit >= 0 {
					exit = -1
					break
				}
				exit = k
			}
		}
		if fa.loopExit == nil {
			fa.loopExit = map[*ssa.BasicBlock]int{}
		}
		fa.loopExit[h] = exit
	}
	if exit < 0 {
		return
	}
	body := h.Succs[1-exit]
	st := t
	if exit == 1 {
		st = f
	}
	for id, blocks := range fa.elemFreeBlocks {
		for _, b := range blocks {
			if body.Dominates(b) && kernelssa.Reaches(b, h) {
				if st[id].bits&(live|empty|escaped) != 0 {
					st[id].bits = st[id].bits&^(live|empty|escaped) | freed
					st[id].heldElems, st[id].namedElems = 0, 0
				}
				break
			}
		}
	}
}

// elemFreeTwice reports, at a Free of an element read from a local
// collection (bufs[2].Free(), or b.Free() in a loop over bufs), the double
// frees that a deferred call makes of the same buffer: a deferred call that
// frees every element of the collection (a deferred literal looping over
// it), or a deferred Free of a buffer that was appended to it.
func (fa *funcAnalysis) elemFreeTwice(arg ssa.Value, st flowState, pos token.Pos) {
	base := elementBase(arg)
	if base == nil {
		base, _ = elementField(arg) // plans[i].a.Free(): a field of an element
	}
	if base == nil || fa.clearedAfter(arg) || fa.deletedAfter(arg) || fa.cur != nil && cutBefore(elemOf(arg), fa.cur) {
		return
	}
	for _, c := range fa.collIDs(fa.alias[base]) {
		r := fa.res[c]
		if s := st[c]; s.bits&deferFreed != 0 && s.bits&(live|escaped|freed) == 0 {
			fa.reportAt(pos, fmt.Sprintf("an element of %s is freed twice: Free at line %d, and again by the deferred call at line %d that frees every element of %s",
				r.label(), fa.line(pos), fa.line(s.deferPos), r.label()))
			continue
		}
		for _, e := range fa.collElems[c] {
			if s := st[e]; s.bits&deferFreed != 0 && s.bits&(live|freed) == 0 {
				fa.reportAt(pos, fmt.Sprintf("%s is freed twice: Free of an element of %s at line %d, and the deferred %s at line %d",
					fa.res[e].label(), r.label(), fa.line(pos), fa.res[e].freeName(), fa.line(s.deferPos)))
			}
		}
	}
}

// clearedAfter reports whether the element s[i] that arg was read from,
// or the field of it, is set to nil or replaced right after the Free in
// the same block (`bufs[i].Free(); bufs[i] = nil`, `plans[i].a.Free();
// plans[i].a = nil` or `= big`, `plans[0] = p`), so that a deferred loop
// over the collection does not free it again.
func (fa *funcAnalysis) clearedAfter(arg ssa.Value) bool {
	load, ok := arg.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || fa.cur == nil {
		return false
	}
	base, path := elementField(arg)
	ia, isIndex := load.X.(*ssa.IndexAddr)
	if !isIndex && base == nil {
		return false
	}
	after := false
	for _, instr := range fa.cur.Block().Instrs {
		if instr == fa.cur {
			after = true
			continue
		}
		st, ok := instr.(*ssa.Store)
		if !after || !ok {
			continue
		}
		if isIndex {
			// Set to nil, or replaced (`ws[0].Free(); ws[0], err =
			// device.Alloc(...)`): the deferred loop frees the new one.
			if ja, ok := st.Addr.(*ssa.IndexAddr); ok && st.Val != arg && sameVal(ja.Index, ia.Index, 0) &&
				(ja.X == ia.X || sameColl(fa.collIDs(fa.alias[ja.X]), fa.collIDs(fa.alias[ia.X]))) {
				return true
			}
			continue
		}
		if fa.storesOver(st, base, path, elemOf(arg)) {
			return true
		}
	}
	return false
}

// cutBefore reports whether the slice variable that the element address
// elem indexes is re-sliced in place (`s = s[:k]`) before at: the element
// read may be one the cut took out of the collection (the pop idiom `last
// := s[len(s)-1]; s = s[:len(s)-1]; last.a.Free()`).
func cutBefore(elem ssa.Value, at ssa.Instruction) bool {
	ia, ok := elem.(*ssa.IndexAddr)
	if !ok {
		return false
	}
	load, ok := ia.X.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	for _, ref := range *load.X.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == load.X {
			if _, cut := st.Val.(*ssa.Slice); cut && before(st, at) {
				return true
			}
		}
	}
	return false
}

// storesOver reports whether st stores into the field at path of element
// elem of collection base (nil, or a new buffer), or a new element over
// elem.
func (fa *funcAnalysis) storesOver(st *ssa.Store, base ssa.Value, path string, elem ssa.Value) bool {
	same := func(b2 ssa.Value) bool {
		return sameColl(fa.collIDs(fa.contentsOrAlias(b2)), fa.collIDs(fa.contentsOrAlias(base)))
	}
	if ja, ok := st.Addr.(*ssa.IndexAddr); ok {
		return sameElem(ja, elem) && same(ja.X)
	}
	b2, p2 := elementField(st.Addr)
	return b2 != nil && p2 == path && sameElem(elemOf(st.Addr), elem) && same(b2)
}

func sameColl(a, b []int) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// dropAll applies an operation that empties a collection without freeing
// what it holds: clear(m) or clear(s), or a slice cut to nothing
// (`tmp = tmp[:0]`, whose later appends overwrite the old elements). The
// buffers a responsible collection holds are lost there; afterwards it
// holds nothing, and a deferred release that reads it at exit still covers
// what is put into it later.
func (fa *funcAnalysis) dropAll(st flowState, ids []int, pos token.Pos, what string, final bool) {
	for _, id := range fa.collIDs(ids) {
		s, r := &st[id], fa.res[id]
		if r.param >= 0 || s.bits&escaped != 0 {
			continue // not this function's collection to empty
		}
		if final && responsible(*s) && s.bits&(freed|empty) == 0 {
			fa.reportAt(pos, fmt.Sprintf("%s %s not freed before %s at line %d",
				fa.origin(r), r.isAre(), what, fa.line(pos)), fa.allocated(r))
		}
		if s.bits != 0 {
			s.bits = s.bits&(deferred|deferFreed|deferCell) | empty
		}
	}
}

// cutToNothing reports whether sl is s[:0] (or s[0:0]) and s is not read
// after it: the slice is truncated for reuse, not filtered in place
// (`kept := bufs[:0]; for _, b := range bufs { ... }`).
func cutToNothing(sl *ssa.Slice) bool {
	if sl.Low != nil && !isConstInt(sl.Low, 0) || sl.High == nil || !isConstInt(sl.High, 0) {
		return false
	}
	for _, ref := range *sl.X.Referrers() {
		if _, dbg := ref.(*ssa.DebugRef); !dbg && ref != ssa.Instruction(sl) && before(sl, ref) {
			return false
		}
	}
	return true
}

// cutsTail reports whether sl shortens a slice variable in place (`s =
// s[:k]`, k neither 0 nor len(s)), dropping the elements past k, with no
// element of s read out before it that may be freed or handed on (the pop
// idiom `last := s[len(s)-1]; s = s[:len(s)-1]; last.Free()`).
func (fa *funcAnalysis) cutsTail(sl *ssa.Slice) bool {
	if sl.Low != nil && !isConstInt(sl.Low, 0) || sl.High == nil || isConstInt(sl.High, 0) || isLenOf(sl.High, sl.X) {
		return false
	}
	load, ok := sl.X.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || !fa.cells[load.X] || !storedBack(sl, load.X) {
		return false
	}
	for _, ref := range *load.X.Referrers() {
		if l, ok := ref.(*ssa.UnOp); ok && l.Op == token.MUL && readsOutBefore(l, sl) {
			return false
		}
	}
	return true
}

// isLenOf reports whether n is len(s).
func isLenOf(n, s ssa.Value) bool {
	call, ok := n.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 || call.Call.Args[0] != s {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "len"
}

// storedBack reports whether the result of sl is stored into the variable
// cell.
func storedBack(sl *ssa.Slice, cell ssa.Value) bool {
	for _, ref := range *sl.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell && st.Val == sl {
			return true
		}
	}
	return false
}

// readsOutBefore reports whether an element of the slice s is read before
// at, on every path to it, and may be freed or handed on.
func readsOutBefore(s ssa.Value, at ssa.Instruction) bool {
	for _, ref := range *s.Referrers() {
		switch ref := ref.(type) {
		case *ssa.IndexAddr:
			for _, r2 := range *ref.Referrers() {
				if l, ok := r2.(*ssa.UnOp); ok && l.Op == token.MUL && before(l, at) && !onlyInspected(l) {
					return true
				}
			}
		case *ssa.Index:
			if before(ref, at) && !onlyInspected(ref) {
				return true
			}
		}
	}
	return false
}

// elemsFreedHere reports whether every buffer put into the collection r
// was freed through its own variable on this path (`bufs = append(bufs,
// a, b)`, later `a.Free(); b.Free()`), each made once (outside any loop,
// so that its state is that one buffer's): the collection holds nothing
// left to free.
func (fa *funcAnalysis) elemsFreedHere(r *resource, st flowState) bool {
	elems := fa.collElems[r.id]
	if !r.coll || len(elems) == 0 {
		return false
	}
	for _, e := range elems {
		c := fa.creator(e)
		if c == nil || c.Block() == nil || fa.inLoop[c.Block()] || st[e].bits&freed == 0 || st[e].bits&(live|escaped) != 0 {
			return false
		}
	}
	return true
}

// dropTail reports the buffers a responsible collection holds as lost
// where it is cut short (`s = s[:k]`): the elements past the cut are no
// longer reachable through it.
func (fa *funcAnalysis) dropTail(st flowState, ids []int, pos token.Pos) {
	for _, id := range fa.collIDs(ids) {
		s, r := st[id], fa.res[id]
		// A cut to a length k > 0 of a collection that holds nothing
		// would panic: one whose release is deferred holds buffers here.
		if r.param < 0 && responsible(s) && s.bits&(freed|empty|escaped) == 0 {
			fa.reportAt(pos, fmt.Sprintf("%s %s not freed before the slice is cut short at line %d: the elements past the cut are dropped",
				fa.origin(r), r.isAre(), fa.line(pos)), fa.allocated(r))
		}
	}
}

// refineEmpty applies a test of a collection's length against zero
// (`if len(bufs) == 0`, `len(bufs) > 0`, `len(bufs) < 1`): on the edge
// where it is empty it holds nothing to free.
func (fa *funcAnalysis) refineEmpty(cond ssa.Value, t, f flowState) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return
	}
	x, y, op := bin.X, bin.Y, bin.Op
	if _, isConst := x.(*ssa.Const); isConst {
		x, y, op = y, x, cmpop.Swap(op)
	}
	call, ok := x.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
		return
	}
	var none flowState // the edge where the collection is empty
	switch {
	case op == token.EQL && isConstInt(y, 0), op == token.LEQ && isConstInt(y, 0), op == token.LSS && isConstInt(y, 1):
		none = t
	case op == token.NEQ && isConstInt(y, 0), op == token.GTR && isConstInt(y, 0), op == token.GEQ && isConstInt(y, 1):
		none = f
	default:
		return
	}
	for _, id := range fa.collIDs(fa.contentsOrAlias(call.Call.Args[0])) {
		if s := &none[id]; s.bits&live != 0 && fa.res[id].param < 0 {
			s.bits = s.bits&^live | empty
		}
	}
}

// elemReleasedAgain reports, at a Free (or Close) of an element read from
// a local collection, a double free where every element of the collection
// was released already on every path (a range loop that freed them all).
func (fa *funcAnalysis) elemReleasedAgain(arg ssa.Value, st flowState, pos token.Pos, what string) {
	base := elementBase(arg)
	if base == nil {
		return
	}
	for _, c := range fa.collIDs(fa.contentsOrAlias(base)) {
		if s := st[c]; s.bits == freed {
			r := fa.res[c]
			fa.reportAt(pos, fmt.Sprintf("an element of %s is freed twice: %s at line %d, after a loop over %s freed every element",
				r.label(), what, fa.line(pos), r.label()), fa.allocated(r))
		}
	}
}
