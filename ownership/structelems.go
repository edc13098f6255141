package ownership

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

// Collections of plain structs. A struct type without a release method
// whose fields hold buffers, directly or in fields of nested struct values
// (MonteCarloMultiGPU's plan, `struct{ optionData, callValue
// *device.Buffer[T] }`), makes a local slice or map of it (or of pointers
// to it) a collection like a slice of buffers: a struct value built from
// buffers (`append(plans, plan{od, cv})`, `m[k] = plan{...}`) or a buffer
// stored into an element's field (`ranks[i].send, err = device.Alloc(...)`)
// puts them into it. Its elements are freed field by field: a loop over the
// collection frees every element only when it frees every buffer field of
// the element type (`p.optionData.Free(); p.callValue.Free()`, also
// `plans[i].a.Free()` and nested `p.panel.dA.Free()`); a loop that misses
// one leaves the collection holding buffers.

// maxFieldDepth bounds how deep bufferPaths looks into nested structs.
const maxFieldDepth = 4

// bufferPaths returns the paths of the buffer fields of t (field indexes
// from the outermost struct, joined by dots: "1", "0.1") when t is a struct
// type that does not own its buffers through a release method, or a
// pointer to one; nil for any other type.
func (c *checker) bufferPaths(t types.Type) []string {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if o, _ := c.ownerOf(t); o != nil {
		return nil
	}
	return c.pathsIn(t, "", maxFieldDepth)
}

// pathsIn collects the buffer fields of the struct type t (itself, or
// nested struct values) under prefix.
func (c *checker) pathsIn(t types.Type, prefix string, depth int) []string {
	s, ok := types.Unalias(t).Underlying().(*types.Struct)
	if !ok || depth == 0 {
		return nil
	}
	var out []string
	for i := range s.NumFields() {
		path := prefix + strconv.Itoa(i)
		switch ft := s.Field(i).Type(); {
		case isBuffer(ft), isBuffer(collElemType(ft)):
			// A buffer, or a slice, map or array of buffers, freed
			// element by element.
			out = append(out, path)
		default:
			if _, isStruct := types.Unalias(ft).Underlying().(*types.Struct); isStruct {
				out = append(out, c.pathsIn(ft, path+".", depth-1)...)
			}
		}
	}
	return out
}

// holdsBuffers reports whether values of type t are plain structs that
// carry buffers in their fields (not pointers to them).
func (c *checker) holdsBuffers(t types.Type) bool {
	if _, isPtr := types.Unalias(t).(*types.Pointer); isPtr {
		return false
	}
	return c.carriesBuffers(t)
}

// collElemType returns the element type of a slice, map or array (or
// pointer to an array), or nil.
func collElemType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	return nil
}

// fieldRoot strips the field reads and addresses off v (`x.a.b`, `&x.a`,
// loads of pointer fields, a range value spilled into a local variable)
// and returns what they read from, with the path (outermost field first;
// "" when v is no field).
func fieldRoot(v ssa.Value) (ssa.Value, string) {
	var rev []int
	for depth := 0; depth <= 2*maxFieldDepth; depth++ {
		switch x := v.(type) {
		case *ssa.Field:
			rev = append(rev, x.Field)
			v = x.X
			continue
		case *ssa.FieldAddr:
			rev = append(rev, x.Field)
			v = x.X
			continue
		case *ssa.UnOp:
			if f, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
				v = f
				continue
			}
		case *ssa.Alloc:
			if val := onlyStored(x); val != nil && len(rev) > 0 {
				v = val // `*p = s[i]`: the range variable, spilled
				continue
			}
		}
		break
	}
	return v, pathString(rev)
}

// elementField returns, for a field of an element of a collection (a read
// or the address of `s[i].a`, `p.a` or `p.panel.dA` of a range loop's
// value, `m[k].a`, the same through a pointer element), the collection
// and the field's path; nil when v is not such a field.
func elementField(v ssa.Value) (ssa.Value, string) {
	root, path := fieldRoot(v)
	if path == "" {
		return nil, ""
	}
	if base := elementBase(root); base != nil {
		return base, path
	}
	return nil, ""
}

// onlyStored returns the value of the one store into the variable a
// itself, or nil when there is none or several.
func onlyStored(a *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// pathString joins a path collected innermost first.
func pathString(rev []int) string {
	s := ""
	for i := len(rev) - 1; i >= 0; i-- {
		if s != "" {
			s += "."
		}
		s += strconv.Itoa(rev[i])
	}
	return s
}

// elemStoreBase returns the collection s of a store into an element s[i]
// or into a field of one (`s[i].a = b`, `s[i].p.a = b`), or nil.
func elemStoreBase(addr ssa.Value) ssa.Value {
	if ia, ok := addr.(*ssa.IndexAddr); ok {
		return ia.X
	}
	if f, ok := addr.(*ssa.FieldAddr); ok {
		if base, _ := elementField(f); base != nil {
			if _, isIndex := innermostAddr(f).(*ssa.IndexAddr); isIndex {
				return base
			}
		}
	}
	return nil
}

// innermostAddr strips the field addresses off addr.
func innermostAddr(addr ssa.Value) ssa.Value {
	for depth := 0; depth <= maxFieldDepth; depth++ {
		f, ok := addr.(*ssa.FieldAddr)
		if !ok {
			break
		}
		addr = f.X
	}
	return addr
}

// structContents returns the buffers a plain struct value carries in its
// fields, nested ones included.
func (fa *funcAnalysis) structContents(v ssa.Value) []int {
	var out []int
	for _, ids := range fa.structFields[v] {
		out, _ = union(out, ids)
	}
	return out
}

// fieldFrees gathers the frees of element fields (recorded per collection
// and path by noteFieldFree) into elemFreed and elemFreeBlocks for the
// collections where every buffer field of the element type is freed.
type fieldFrees struct {
	paths  map[int][]string
	blocks map[int][]*ssa.BasicBlock
}

// noteFieldFree records a Free of the buffer arg when it is a field of an
// element of a collection, or an element of a slice of buffers that is
// such a field (`for _, b := range c.bufs { b.Free() }` in a loop over the
// collection of c).
func (fa *funcAnalysis) noteFieldFree(ff *fieldFrees, arg ssa.Value, b *ssa.BasicBlock) {
	base, path := elementField(arg)
	if base == nil {
		if inner := elementBase(arg); inner != nil {
			base, path = elementField(inner)
		}
	}
	fa.noteFreedPath(ff, base, path, b)
}

// noteFreedPath records that the field at path of the elements of the
// collection base is freed in block b.
func (fa *funcAnalysis) noteFreedPath(ff *fieldFrees, base ssa.Value, path string, b *ssa.BasicBlock) {
	if base == nil {
		return
	}
	for _, id := range fa.collIDs(fa.contentsOrAlias(base)) {
		if !slices.Contains(ff.paths[id], path) {
			ff.paths[id] = append(ff.paths[id], path)
		}
		ff.blocks[id] = append(ff.blocks[id], b)
	}
}

// finishFieldFrees marks the collections whose element fields are all
// freed.
func (fa *funcAnalysis) finishFieldFrees(ff *fieldFrees) {
	for id, freed := range ff.paths {
		want := fa.res[id].elemFields
		if len(want) == 0 {
			continue
		}
		all := true
		for _, p := range want {
			all = all && slices.Contains(freed, p)
		}
		if all {
			fa.elemFreed[id] = true
			fa.elemFreeBlocks[id] = append(fa.elemFreeBlocks[id], ff.blocks[id]...)
		}
	}
}

// literalHolder reports whether v is a struct literal taken by address
// (`&plan{in: in, out: out}`) of a plain struct holding buffers whose only
// uses, besides the stores that fill its fields, put it into a collection
// (an append's argument, an element store, a map update): the buffers
// stored into its fields go into the collection with it, and are not
// handed on by those stores.
func (fa *funcAnalysis) literalHolder(v ssa.Value) bool {
	a, ok := v.(*ssa.Alloc)
	if !ok || !a.Heap || !fa.c.carriesBuffers(a.Type()) {
		return false
	}
	for _, ref := range *a.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			for _, r2 := range *ref.Referrers() {
				if st, ok := r2.(*ssa.Store); ok && st.Addr == ref {
					continue
				}
				if _, dbg := r2.(*ssa.DebugRef); !dbg {
					return false
				}
			}
		case *ssa.Store:
			if _, ok := ref.Addr.(*ssa.IndexAddr); !ok || ref.Val != a {
				return false
			}
		case *ssa.MapUpdate:
			if ref.Value != a {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// elemOf strips the field reads and addresses off a read of an element's
// field and returns the element: its address s[i] (also under a pointer
// element's load), or the value of a range loop.
func elemOf(v ssa.Value) ssa.Value {
	root, _ := fieldRoot(v)
	if load, ok := root.(*ssa.UnOp); ok && load.Op == token.MUL {
		if ia, ok := load.X.(*ssa.IndexAddr); ok {
			return ia
		}
	}
	return root
}

// sameElem reports whether two element reads name the same element: the
// same index of the same slice value, or the same range value.
func sameElem(a, b ssa.Value) bool {
	ia, ok1 := a.(*ssa.IndexAddr)
	ib, ok2 := b.(*ssa.IndexAddr)
	if ok1 && ok2 {
		return sameVal(ia.Index, ib.Index, 0)
	}
	return a == b
}

// overwriteElemField reports a store into the field of an element of a
// collection (`plans[0].out = big`) that loses the buffer the field holds:
// the collection holds buffers, every element was put into it whole with a
// buffer in that field, and the field was not read out (freed, or copied
// to be handed on) before the store.
func (fa *funcAnalysis) overwriteElemField(in *ssa.Store, f *ssa.FieldAddr, st flowState) {
	base, path := elementField(f)
	if base == nil {
		return
	}
	_, inArray := types.Unalias(base.Type()).Underlying().(*types.Pointer)
	for _, c := range fa.collIDs(fa.contentsOrAlias(base)) {
		s, r := st[c], fa.res[c]
		if r.param >= 0 || !responsible(s) || s.bits&(freed|escaped) != 0 {
			continue
		}
		// An element of a slice exists only where it was put (an index
		// out of range traps): where the slice may be empty, a store
		// into s[i] still finds what was put there. An array's elements
		// exist from the start.
		whole := fa.putWhole(c, path, in) && (s.bits&empty == 0 || !inArray)
		if !whole && !fa.refilled(c, path, in) || fa.readOut(c, elemOf(f), path, in) {
			continue
		}
		fa.reportAt(in.Pos(), fmt.Sprintf("the buffer held in %s is not freed before it is overwritten at line %d",
			fa.elemFieldName(r, f), fa.line(in.Pos())), fa.allocated(r))
		return
	}
}

// overwriteElem reports a store over a whole element of a collection of
// plain structs (`plans[0] = p`) that loses the buffers it held: every
// element was put into the collection whole, with a buffer, and the
// element was not read out (or its fields freed) before the store.
func (fa *funcAnalysis) overwriteElem(in *ssa.Store, ia *ssa.IndexAddr, st flowState) {
	_, inArray := types.Unalias(ia.X.Type()).Underlying().(*types.Pointer)
	for _, c := range fa.collIDs(fa.contentsOrAlias(ia.X)) {
		s, r := st[c], fa.res[c]
		if r.param >= 0 || len(r.elemFields) == 0 || !responsible(s) || s.bits&(freed|escaped) != 0 ||
			s.bits&empty != 0 && inArray {
			continue
		}
		if !fa.putWhole(c, r.elemFields[0], in) || fa.readOut(c, ia, "", in) {
			continue
		}
		name := r.name
		if name == "" {
			name = "the slice"
		}
		fa.reportAt(in.Pos(), fmt.Sprintf("the buffers held in %s[%s] are not freed before it is overwritten at line %d",
			name, keyText(ia.Index), fa.line(in.Pos())), fa.allocated(r))
		return
	}
}

// putWhole reports whether every element put into collection c carries a
// buffer in the field at path (its first step): c is filled by appends,
// element stores and map updates of whole values only, other than the
// store at.
func (fa *funcAnalysis) putWhole(c int, path string, at *ssa.Store) bool {
	first, _, _ := strings.Cut(path, ".")
	field, err := strconv.Atoi(first)
	if err != nil {
		return false
	}
	puts := 0
	for _, b := range fa.fn.Blocks {
		for _, instr := range b.Instrs {
			var vals []ssa.Value
			switch in := instr.(type) {
			case *ssa.Call:
				bi, ok := in.Call.Value.(*ssa.Builtin)
				if !ok || bi.Name() != "append" || len(in.Call.Args) != 2 || !slices.Contains(fa.alias[in.Call.Args[0]], c) {
					continue
				}
				if vals, ok = varargElems(in.Call.Args[1]); !ok {
					return false
				}
			case *ssa.MapUpdate:
				if !slices.Contains(fa.contentsOrAlias(in.Map), c) {
					continue
				}
				vals = []ssa.Value{in.Value}
			case *ssa.Store:
				base := elemStoreBase(in.Addr)
				if in == at || base == nil || !slices.Contains(fa.contentsOrAlias(base), c) {
					continue
				}
				if _, whole := in.Addr.(*ssa.IndexAddr); !whole {
					return false // filled field by field
				}
				vals = []ssa.Value{in.Val}
			default:
				continue
			}
			for _, v := range vals {
				if !fa.carries(v, field) {
					return false
				}
				puts++
			}
		}
	}
	return puts > 0
}

// carries reports whether the struct value, or struct literal taken by
// address, v holds a buffer in field f.
func (fa *funcAnalysis) carries(v ssa.Value, f int) bool {
	if a, ok := v.(*ssa.Alloc); ok && fa.literalHolder(a) {
		for _, ref := range *a.Referrers() {
			if fd, ok := ref.(*ssa.FieldAddr); ok && fd.Field == f {
				for _, r2 := range *fd.Referrers() {
					if st, ok := r2.(*ssa.Store); ok && st.Addr == fd && len(fa.alias[st.Val]) > 0 {
						return true
					}
				}
			}
		}
		return false
	}
	if fields, ok := fa.structFields[v]; ok {
		return len(fields[f]) > 0
	}
	// A struct from a constructor (`p, err := newPlan(d)`) carries the
	// buffers it was made with; which fields hold them is not followed.
	return len(fa.alias[v]) > 0
}

// readOut reports whether the field at path of element elem of collection
// c (any field, or the whole element, for path "") is read before at, on
// every path to it, in a way that may free or hand on its buffer.
func (fa *funcAnalysis) readOut(c int, elem ssa.Value, path string, at ssa.Instruction) bool {
	for _, b := range fa.fn.Blocks {
		for _, instr := range b.Instrs {
			v, ok := instr.(ssa.Value)
			if _, isAddr := v.(*ssa.FieldAddr); !ok || isAddr || !before(instr, at) {
				continue // a read, not an address
			}
			base, p := elementField(v)
			if base == nil && path == "" {
				if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
					base = elementBase(v) // the whole element: p := s[i]
				}
			}
			if base == nil || path != "" && p != path || !slices.Contains(fa.contentsOrAlias(base), c) {
				continue
			}
			if sameElem(elemOf(v), elem) && !onlyInspected(v) {
				return true
			}
		}
	}
	return false
}

// elemFieldName spells the field of an element a store writes:
// plans[0].out, plans[i].panel.x.
func (fa *funcAnalysis) elemFieldName(r *resource, f *ssa.FieldAddr) string {
	var names []string
	var v ssa.Value = f
	for depth := 0; depth <= maxFieldDepth; depth++ {
		fd, ok := v.(*ssa.FieldAddr)
		if !ok {
			break
		}
		st := fd.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		names = append([]string{st.Field(fd.Field).Name()}, names...)
		v = fd.X
	}
	index := "i"
	if ia, ok := elemOf(f).(*ssa.IndexAddr); ok {
		index = keyText(ia.Index)
	}
	name := r.name
	if name == "" {
		name = "the slice"
	}
	return name + "[" + index + "]." + strings.Join(names, ".")
}

// refilled reports whether the store at, into the field at path of s[i]
// where i counts a loop L2 from a to n, fills again what an earlier loop L1
// counting from a to n filled: L1 stores into the same field of s[j] on
// every iteration, for its own counter j. Each element's field then holds
// L1's buffer when L2 stores into it (`devs[i].buf, err = device.Alloc(...)`
// in two loops over the devices). L2's earlier iterations store into other
// elements.
func (fa *funcAnalysis) refilled(c int, path string, at *ssa.Store) bool {
	h2, a2, n2, ok := countedLoopOf(at.Addr)
	if !ok {
		return false
	}
	for _, b := range fa.fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || st == at {
				continue
			}
			f, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			base, p := elementField(f)
			if base == nil || p != path || !slices.Contains(fa.contentsOrAlias(base), c) {
				continue
			}
			h1, a1, n1, ok := countedLoopOf(st.Addr)
			if ok && h1 != h2 && h1.Dominates(h2) && !kernelssa.Reaches(h2, h1) &&
				sameVal(a1, a2, 0) && sameBound(n1, n2) && everyIteration(h1, st.Block()) {
				return true
			}
		}
	}
	return false
}

// countedLoopOf returns, for the address of a field of s[i] where i is the
// counter of a loop tested at its header (`for i := a; i < n; i++`, `for i
// := range s`), that header, a and n.
func countedLoopOf(addr ssa.Value) (h *ssa.BasicBlock, a, n ssa.Value, ok bool) {
	ia, isIndex := elemOf(addr).(*ssa.IndexAddr)
	if !isIndex {
		return nil, nil, nil, false
	}
	instr, isInstr := ia.Index.(ssa.Instruction)
	if !isInstr || instr.Block() == nil {
		return nil, nil, nil, false
	}
	h = instr.Block()
	test, isIf := h.Instrs[len(h.Instrs)-1].(*ssa.If)
	if !isIf {
		return nil, nil, nil, false
	}
	x, n, ok := loopTest(test.Cond)
	if !ok || x != ia.Index {
		return nil, nil, nil, false
	}
	a, ok = counter(h, x)
	return h, a, n, ok && a != nil
}

// everyIteration reports whether block b runs on every iteration of the
// loop headed by h that goes round: it dominates each of the loop's back
// edges.
func everyIteration(h, b *ssa.BasicBlock) bool {
	back := 0
	for _, p := range h.Preds {
		if h.Dominates(p) {
			if !b.Dominates(p) {
				return false
			}
			back++
		}
	}
	return back > 0
}

// sameBound reports whether two loop bounds are equal: the same value
// (sameVal), or len of a variable holding a slice that is assigned once
// (`plans := make([]plan, n)` captured by a literal, read at each loop).
func sameBound(a, b ssa.Value) bool {
	if sameVal(a, b, 0) {
		return true
	}
	la, lb := lenArg(a), lenArg(b)
	if la == nil || lb == nil {
		return false
	}
	ua, ok1 := la.(*ssa.UnOp)
	ub, ok2 := lb.(*ssa.UnOp)
	if !ok1 || !ok2 || ua.Op != token.MUL || ub.Op != token.MUL || ua.X != ub.X {
		return false
	}
	cell, ok := ua.X.(*ssa.Alloc)
	return ok && onlyStored(cell) != nil
}

// lenArg returns s for len(s), or nil.
func lenArg(v ssa.Value) ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return nil
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
		return nil
	}
	return call.Call.Args[0]
}

// carriesBuffers reports whether values of type t are plain structs holding
// buffers, or pointers to them. Putting one into a collection hands its
// buffers on but is not a use of them: a table of cases may hold a freed
// buffer on purpose.
func (c *checker) carriesBuffers(t types.Type) bool {
	return len(c.bufferPaths(t)) > 0
}

// paramFieldFrees returns, for a function of the package, the buffer
// fields of its struct parameters (the receiver included) that it frees
// itself, by parameter and path: `func (p *plan) destroy() { p.a.Free();
// p.b.Free() }` frees paths 0 and 1 of parameter 0.
func (c *checker) paramFieldFrees(fn *ssa.Function) map[int][]string {
	if got, ok := c.paramFrees[fn]; ok {
		return got
	}
	if c.paramFrees == nil {
		c.paramFrees = map[*ssa.Function]map[int][]string{}
	}
	out := map[int][]string{}
	c.paramFrees[fn] = out // a recursive call sees none
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			common := call.Common()
			for _, j := range c.freedArgs(common, 0) {
				if j >= len(common.Args) {
					continue
				}
				root, path := fieldRoot(common.Args[j])
				if k := paramOf(fn, root); k >= 0 && path != "" && !slices.Contains(out[k], path) {
					out[k] = append(out[k], path)
				}
			}
		}
	}
	return out
}

// noteHelperFrees records the element fields that a call of a function of
// the package frees through its parameters (`plans[i].destroy()`,
// `freePlan(p)` on a range value, `freePanel(p.panel)`).
func (fa *funcAnalysis) noteHelperFrees(ff *fieldFrees, common *ssa.CallCommon, b *ssa.BasicBlock) {
	callee := common.StaticCallee()
	if callee == nil || !fa.c.inPackage(callee) || len(callee.Blocks) == 0 {
		return
	}
	for j, paths := range fa.c.paramFieldFrees(callee) {
		if j >= len(common.Args) {
			continue
		}
		arg := common.Args[j]
		if load, ok := arg.(*ssa.UnOp); ok && load.Op == token.MUL {
			if a, ok := load.X.(*ssa.Alloc); ok && onlyStored(a) != nil {
				arg = onlyStored(a) // a range value, spilled
			}
		} else if a, ok := arg.(*ssa.Alloc); ok && onlyStored(a) != nil {
			arg = onlyStored(a) // &p of a spilled range value: a pointer method
		}
		base, prefix := elementBase(arg), ""
		if base == nil {
			base, prefix = elementField(arg)
		}
		for _, p := range paths {
			if prefix != "" {
				p = prefix + "." + p
			}
			fa.noteFreedPath(ff, base, p, b)
		}
	}
}
