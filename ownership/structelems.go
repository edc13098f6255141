package ownership

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"
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
		case isBuffer(ft):
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
	return len(c.bufferPaths(t)) > 0
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

// elementField returns, for a buffer read from a field of an element of a
// collection (`s[i].a`, `p.a` or `p.panel.dA` of a range loop's value, `m[k].a`,
// the same through a pointer element), the collection and the field's path;
// nil when v is not such a read.
func elementField(v ssa.Value) (ssa.Value, string) {
	var path []int
	for depth := 0; depth <= maxFieldDepth; depth++ {
		switch x := v.(type) {
		case *ssa.Field:
			path = append(path, x.Field)
			v = x.X
			continue
		case *ssa.UnOp:
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && len(path) == 0 {
				return fieldAddrElement(fa)
			}
		}
		if len(path) == 0 {
			return nil, ""
		}
		if base := elementBase(v); base != nil {
			return base, pathString(path)
		}
		return nil, ""
	}
	return nil, ""
}

// fieldAddrElement returns the collection and field path of an address
// &s[i].a (or &s[i].p.a, or &p.a where p is a pointer element of s).
func fieldAddrElement(addr *ssa.FieldAddr) (ssa.Value, string) {
	var path []int
	var v ssa.Value = addr
	for depth := 0; depth <= maxFieldDepth; depth++ {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			path = append(path, x.Field)
			v = x.X
			continue
		case *ssa.IndexAddr:
			return x.X, pathString(path)
		case *ssa.Alloc:
			// The range loop's variable, spilled: `*p = s[i]`.
			if val := onlyStored(x); val != nil {
				v = val
				continue
			}
		}
		if base := elementBase(v); base != nil {
			return base, pathString(path)
		}
		return nil, ""
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
		if base, _ := fieldAddrElement(f); base != nil {
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
// element of a collection.
func (fa *funcAnalysis) noteFieldFree(ff *fieldFrees, arg ssa.Value, b *ssa.BasicBlock) {
	base, path := elementField(arg)
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
