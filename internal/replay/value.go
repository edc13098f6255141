package replay

import (
	"fmt"
	"go/constant"
	"go/types"
	"math"
)

// A value is what an SSA value holds at run time. Integers and bools are
// n (an integer wrapped to its type's width, a bool 0 or 1), floats f;
// pointers and slices name an object and a leaf offset in it (slices with
// their length and capacity in elements); arrays, structs and tuples are
// agg, one value per element or field.
type value struct {
	n      int64
	f      float64
	obj    *object
	off    int
	ln, cp int
	agg    []value
}

// An object is a piece of memory: its scalar leaves in order (an array of
// structs is flattened field by field), and, for shared and global memory,
// which Object it is.
//
// A leaf holding a number (an integer, a bool or a float) is kept in
// nums, which holds no pointer: a launch's slices are most of what a
// replay allocates, and the collector neither scans nor write-barriers
// them. A leaf holding a pointer or a slice is kept whole in refs, made
// at the first such store.
type object struct {
	nums  []scalar
	refs  []value // nil until a leaf holds more than a number
	id    Object
	named bool // id is set: accesses to it are watched
	// typ is the type of what the object holds, for element paths: a
	// slice parameter's slice type (sliceLen elements) or a Shared
	// variable's type.
	typ      types.Type
	sliceLen int
}

// leaves returns the number of scalar leaves a value of type t occupies in
// memory.
//
// A count past maxLeaves is maxLeaves+1, so that no product overflows and
// an object too large to replay is told by one comparison.
func leaves(t types.Type) int {
	switch t := t.Underlying().(type) {
	case *types.Array:
		n := leaves(t.Elem())
		if t.Len() > 0 && int64(n) > maxLeaves/t.Len() {
			return maxLeaves + 1
		}
		return int(t.Len()) * n
	case *types.Struct:
		n := 0
		for i := 0; i < t.NumFields(); i++ {
			n = min(n+leaves(t.Field(i).Type()), maxLeaves+1)
		}
		return n
	}
	return 1
}

// fieldOffset returns the leaf offset of field f of struct type t.
func fieldOffset(t *types.Struct, f int) int {
	n := 0
	for i := 0; i < f; i++ {
		n += leaves(t.Field(i).Type())
	}
	return n
}

// zero returns the zero value of type t.
func zero(t types.Type) value {
	switch t := t.Underlying().(type) {
	case *types.Array:
		agg := make([]value, t.Len())
		for i := range agg {
			agg[i] = zero(t.Elem())
		}
		return value{agg: agg}
	case *types.Struct:
		agg := make([]value, t.NumFields())
		for i := range agg {
			agg[i] = zero(t.Field(i).Type())
		}
		return value{agg: agg}
	}
	return value{}
}

// load reads a value of type t from obj at leaf offset off.
func load(obj *object, off int, t types.Type) value {
	switch u := t.Underlying().(type) {
	case *types.Array:
		n := leaves(u.Elem())
		agg := make([]value, u.Len())
		for i := range agg {
			agg[i] = load(obj, off+i*n, u.Elem())
		}
		return value{agg: agg}
	case *types.Struct:
		agg := make([]value, u.NumFields())
		for i := range agg {
			agg[i] = load(obj, off+fieldOffset(u, i), u.Field(i).Type())
		}
		return value{agg: agg}
	}
	return obj.leaf(off)
}

// store writes v, of type t, into obj at leaf offset off.
func store(obj *object, off int, t types.Type, v value) {
	switch u := t.Underlying().(type) {
	case *types.Array:
		n := leaves(u.Elem())
		for i := range v.agg {
			store(obj, off+i*n, u.Elem(), v.agg[i])
		}
		return
	case *types.Struct:
		for i := range v.agg {
			store(obj, off+fieldOffset(u, i), u.Field(i).Type(), v.agg[i])
		}
		return
	}
	obj.setLeaf(off, v)
}

// newObject returns a zeroed object of n leaves.
func newObject(n int) *object { return &object{nums: make([]scalar, n)} }

// A scalar is a leaf holding a number: a value's n and f.
type scalar struct {
	n int64
	f float64
}

// numeric reports whether v is a number only (n and f), which a leaf
// keeps in nums.
func (v value) numeric() bool {
	return v.obj == nil && v.off == 0 && v.ln == 0 && v.cp == 0 && v.agg == nil
}

// leaf returns leaf i of o.
func (o *object) leaf(i int) value {
	if o.refs != nil && !o.refs[i].numeric() {
		return o.refs[i]
	}
	return value{n: o.nums[i].n, f: o.nums[i].f}
}

// setLeaf makes v leaf i of o.
func (o *object) setLeaf(i int, v value) {
	o.nums[i] = scalar{v.n, v.f}
	switch {
	case !v.numeric():
		if o.refs == nil {
			o.refs = make([]value, len(o.nums))
		}
		o.refs[i] = v
	case o.refs != nil:
		o.refs[i] = value{}
	}
}

// basic returns t's basic type, or nil.
func basic(t types.Type) *types.Basic {
	b, _ := t.Underlying().(*types.Basic)
	return b
}

func isFloat(t types.Type) bool {
	b := basic(t)
	return b != nil && b.Info()&types.IsFloat != 0
}

func isUnsigned(t types.Type) bool {
	b := basic(t)
	return b != nil && b.Info()&types.IsUnsigned != 0
}

// wrap truncates x to the width of integer type t, with Go's wrap-around.
func wrap(x int64, t types.Type) int64 {
	b := basic(t)
	if b == nil {
		return x
	}
	switch b.Kind() {
	case types.Int8:
		return int64(int8(x))
	case types.Int16:
		return int64(int16(x))
	case types.Int32:
		return int64(int32(x))
	case types.Uint8:
		return int64(uint8(x))
	case types.Uint16:
		return int64(uint16(x))
	case types.Uint32:
		return int64(uint32(x))
	}
	return x
}

// round rounds f to float32 when t is float32.
func round(f float64, t types.Type) float64 {
	if b := basic(t); b != nil && b.Kind() == types.Float32 {
		return float64(float32(f))
	}
	return f
}

// constValue returns the run-time value of constant c of type t.
func constValue(c constant.Value, t types.Type) (value, error) {
	if c == nil {
		return zero(t), nil
	}
	switch c.Kind() {
	case constant.Bool:
		if constant.BoolVal(c) {
			return value{n: 1}, nil
		}
		return value{}, nil
	case constant.Int, constant.Float:
		if isFloat(t) {
			f, _ := constant.Float64Val(constant.ToFloat(c))
			return value{f: round(f, t)}, nil
		}
		if x, ok := constant.Int64Val(constant.ToInt(c)); ok {
			return value{n: wrap(x, t)}, nil
		}
		if x, ok := constant.Uint64Val(constant.ToInt(c)); ok {
			return value{n: int64(x)}, nil
		}
	}
	return value{}, fmt.Errorf("constant %s of type %s", c, t)
}

// floatToInt returns float f converted to integer type t,
// saturating where Go leaves the conversion to the implementation.
func floatToInt(f float64, t types.Type) int64 {
	if math.IsNaN(f) {
		return 0
	}
	if isUnsigned(t) {
		if f <= 0 {
			return 0
		}
		if f >= math.MaxUint64 {
			return -1
		}
		return wrap(int64(uint64(f)), t)
	}
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	if f <= math.MinInt64 {
		return math.MinInt64
	}
	return wrap(int64(f), t)
}
