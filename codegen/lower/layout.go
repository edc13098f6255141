package lower

import (
	"go/types"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// leaf is one scalar of a flattened Go type, at its byte offset in Go's
// (gc, amd64) layout: int and uint are 64 bits as on every backend.
type leaf struct {
	kind kir.Kind
	off  int64
}

// layout returns the scalar leaves of t. A slice is (pointer, len, cap); a
// gpu.Thread has none (its methods are intrinsics).
func (b *builder) layout(t types.Type) []leaf {
	if ls, ok := b.layouts[t]; ok {
		return ls
	}
	var ls []leaf
	var walk func(t types.Type, off int64)
	walk = func(t types.Type, off int64) {
		if gpuapi.IsThread(t) {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			ls = append(ls, leaf{leafKind(b, u), off})
		case *types.Pointer:
			ls = append(ls, leaf{kir.Ptr, off})
		case *types.Slice:
			ls = append(ls, leaf{kir.Ptr, off}, leaf{kir.I64, off + 8}, leaf{kir.I64, off + 16})
		case *types.Struct:
			fields := make([]*types.Var, u.NumFields())
			for i := range fields {
				fields[i] = u.Field(i)
			}
			offs := sizes.Offsetsof(fields)
			for i, fl := range fields {
				walk(fl.Type(), off+offs[i])
			}
		case *types.Array:
			es := sizes.Sizeof(u.Elem())
			if u.Len() > 4096 {
				b.fail(0, "array value of %d elements is too large to hold in registers; use a pointer to it", u.Len())
			}
			for i := int64(0); i < u.Len(); i++ {
				walk(u.Elem(), off+i*es)
			}
		case *types.Tuple:
			for i := 0; i < u.Len(); i++ {
				walk(u.At(i).Type(), off) // offsets are meaningless for tuples
			}
		default:
			b.fail(0, "values of type %s cannot be used in kernels", t)
		}
	}
	walk(t, 0)
	b.layouts[t] = ls
	return ls
}

// leafKind maps a basic type to its kind.
func leafKind(b *builder, t types.Type) kir.Kind {
	u, ok := t.Underlying().(*types.Basic)
	if !ok {
		if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
			return kir.Ptr
		}
		return kir.Void
	}
	switch u.Kind() {
	case types.Bool, types.UntypedBool:
		return kir.Bool
	case types.Int8:
		return kir.I8
	case types.Int16:
		return kir.I16
	case types.Int32, types.UntypedRune:
		return kir.I32
	case types.Int, types.Int64, types.UntypedInt:
		return kir.I64
	case types.Uint8:
		return kir.U8
	case types.Uint16:
		return kir.U16
	case types.Uint32:
		return kir.U32
	case types.Uint, types.Uint64, types.Uintptr:
		return kir.U64
	case types.Float32:
		return kir.F32
	case types.Float64, types.UntypedFloat:
		return kir.F64
	}
	if b != nil {
		b.fail(0, "values of type %s cannot be used in kernels", t)
	}
	return kir.Void
}

// basicKind is leafKind for a type known to be basic.
func (b *builder) basicKind(t types.Type) kir.Kind {
	k := leafKind(b, t)
	if k == kir.Void {
		b.fail(0, "values of type %s cannot be used here", t)
	}
	return k
}
