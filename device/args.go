package device

import (
	"fmt"
	"math"
	"reflect"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/targets"
)

// bufferArg is implemented by every *Buffer[T], so that Launch can take one
// apart whatever T is.
type bufferArg interface {
	launchArg() (d *Device, mem backend.Memory, elem reflect.Type, freed bool)
}

func (b *Buffer[T]) launchArg() (*Device, backend.Memory, reflect.Type, bool) {
	if b == nil {
		return nil, nil, reflect.TypeFor[T](), false
	}
	return b.d, b.mem, reflect.TypeFor[T](), b.freed
}

// checkLaunch checks a launch of k on d against the kernel's parameters,
// shapes and dimensionality, and returns the arguments for the backend.
func checkLaunch(d *Device, k *kernel, grid, block gpu.Dim3, args []any) ([]backend.Arg, error) {
	if err := checkShapes(k, grid, block); err != nil {
		return nil, err
	}
	if len(args) != len(k.Params) {
		return nil, fmt.Errorf("device.Launch %s: %d arguments for %d parameters after the gpu.Thread (%s)",
			k.Name, len(args), len(k.Params), k.signature())
	}
	out := make([]backend.Arg, len(args))
	for i, a := range args {
		arg, err := checkArg(d, k, i, a)
		if err != nil {
			return nil, fmt.Errorf("device.Launch %s %s: %w", k.Name, k.param(i), err)
		}
		out[i] = arg
	}
	return out, nil
}

func (k *kernel) signature() string {
	s := ""
	for i, p := range k.Params {
		if i > 0 {
			s += ", "
		}
		if i < len(k.params) && k.params[i] != "" {
			s += k.params[i] + " "
		}
		s += p.String()
	}
	return s
}

func checkShapes(k *kernel, grid, block gpu.Dim3) error {
	for _, s := range []struct {
		what         string
		shape, fixed gpu.Dim3
	}{{"block", block, k.Block}, {"grid", grid, k.Grid}} {
		if s.shape.X < 1 || s.shape.Y < 1 || s.shape.Z < 1 {
			return fmt.Errorf("device.Launch %s: %s %s has a dimension below 1 (an unused dimension has extent 1: write gpu.Dim3{X: n, Y: 1, Z: 1})",
				k.Name, s.what, shapeString(s.shape))
		}
		if s.fixed.X != 0 && s.shape != s.fixed {
			return fmt.Errorf("device.Launch %s: %s %s, but its //gpu:kernel directive fixes %s=%s",
				k.Name, s.what, shapeString(s.shape), s.what, shapeString(s.fixed))
		}
		if (k.Dims < 2 && s.shape.Y != 1) || (k.Dims < 3 && s.shape.Z != 1) {
			return fmt.Errorf("device.Launch %s: %s %s, but the kernel is %d-dimensional (it never reads %s of an index or extent), so its %s extent beyond X%s must be 1",
				k.Name, s.what, shapeString(s.shape), k.Dims, unread(k.Dims), s.what, map[int]string{1: "", 2: " and Y"}[k.Dims])
		}
	}
	// The backends check what their device reports too (a Vulkan device
	// may run fewer threads per block); these are the limits no target
	// exceeds, the ones the checks apply to //gpu:kernel shapes.
	if err := targets.Static.CheckBlock([3]int{block.X, block.Y, block.Z}); err != nil {
		return fmt.Errorf("device.Launch %s: block %s: %v", k.Name, shapeString(block), err)
	}
	if err := targets.Static.CheckGrid([3]int{grid.X, grid.Y, grid.Z}); err != nil {
		return fmt.Errorf("device.Launch %s: grid %s: %v", k.Name, shapeString(grid), err)
	}
	return nil
}

func unread(dims int) string {
	if dims == 1 {
		return "Y or Z"
	}
	return "Z"
}

func shapeString(d gpu.Dim3) string { return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z) }

// checkArg checks argument a for parameter i of k.
func checkArg(d *Device, k *kernel, i int, a any) (backend.Arg, error) {
	p := k.Params[i]
	if p.Kind() == reflect.Slice {
		b, ok := a.(bufferArg)
		if !ok {
			if a != nil && reflect.TypeOf(a).Kind() == reflect.Slice {
				return backend.Arg{}, fmt.Errorf("got the host slice %T; pass a *device.Buffer[%v] (device.Upload copies a host slice to the device)", a, p.Elem())
			}
			return backend.Arg{}, fmt.Errorf("got %s; a slice parameter takes a *device.Buffer[%v]", describe(a), p.Elem())
		}
		bd, mem, elem, freed := b.launchArg()
		switch {
		case bd == nil && reflect.ValueOf(a).IsNil():
			return backend.Arg{}, errorf(ErrInvalid, "got a nil *device.Buffer[%v]", elem)
		case bd == nil:
			return backend.Arg{}, errorf(ErrInvalid, "got a *device.Buffer[%v] that device.Alloc or device.Upload did not make", elem)
		case elem != p.Elem():
			return backend.Arg{}, fmt.Errorf("got a *device.Buffer[%v]; it needs a *device.Buffer[%v]", elem, p.Elem())
		case freed:
			return backend.Arg{}, errorf(ErrFreed, "the *device.Buffer[%v] was freed", elem)
		case bd != d:
			return backend.Arg{}, fmt.Errorf("the *device.Buffer[%v] belongs to another device (%s)", elem, bd.Backend())
		}
		return backend.Arg{Mem: mem}, nil
	}
	if _, ok := a.(bufferArg); ok {
		return backend.Arg{}, fmt.Errorf("got %T, a device buffer, for a parameter that is not a slice", a)
	}
	if a == nil {
		return backend.Arg{}, fmt.Errorf("got nil")
	}
	v := reflect.ValueOf(a)
	if v.Type() == p {
		return backend.Arg{Value: v}, nil
	}
	if c, ok := convertConst(v, p); ok {
		return backend.Arg{Value: c}, nil
	}
	return backend.Arg{}, fmt.Errorf("got %s; it needs a %v", describe(a), p)
}

func describe(a any) string {
	if a == nil {
		return "nil"
	}
	return fmt.Sprintf("a %T", a)
}

// convertConst converts an int or float64, the types an untyped constant
// argument such as 2 or 0.5 gets in an `any`, to the numeric parameter type
// p, as Go converts a constant: an integer in range to any integer type or to
// a float type, a float64 to float32 (rounded) or to an integer type if it is
// a whole number in range. Any other type mismatch is an error.
func convertConst(v reflect.Value, p reflect.Type) (reflect.Value, bool) {
	out := reflect.New(p).Elem()
	switch v.Kind() {
	case reflect.Int:
		if v.Type() != reflect.TypeFor[int]() {
			return out, false
		}
		x := v.Int()
		switch {
		case out.CanInt() && !out.OverflowInt(x):
			out.SetInt(x)
		case out.CanUint() && x >= 0 && !out.OverflowUint(uint64(x)):
			out.SetUint(uint64(x))
		case out.CanFloat():
			out.SetFloat(float64(x))
		default:
			return out, false
		}
	case reflect.Float64:
		if v.Type() != reflect.TypeFor[float64]() {
			return out, false
		}
		x := v.Float()
		switch {
		case out.CanFloat():
			if p.Kind() == reflect.Float32 && math.Abs(x) > math.MaxFloat32 && !math.IsInf(x, 0) {
				return out, false
			}
			out.SetFloat(x)
		case x != math.Trunc(x) || math.IsInf(x, 0):
			return out, false
		case out.CanInt() && x >= math.MinInt64 && x < math.MaxInt64 && !out.OverflowInt(int64(x)):
			out.SetInt(int64(x))
		case out.CanUint() && x >= 0 && x < math.MaxUint64 && !out.OverflowUint(uint64(x)):
			out.SetUint(uint64(x))
		default:
			return out, false
		}
	default:
		return out, false
	}
	return out, true
}

// checkElem checks that T may be the element type of a device buffer.
func checkElem[T any](op string) error {
	if err := allowedType(reflect.TypeFor[T]()); err != nil {
		return fmt.Errorf("%s: %v", op, err)
	}
	return nil
}

// allowedType checks that t may be a kernel's scalar parameter or the element
// of a slice parameter and of a device buffer: bool, a sized or unsized
// integer type, float32, float64, or a struct of those (structs may nest).
func allowedType(t reflect.Type) error {
	switch t.Kind() {
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return nil
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if err := allowedType(f.Type); err != nil {
				return fmt.Errorf("type %v: field %s: %v", t, f.Name, err)
			}
		}
		return nil
	}
	return fmt.Errorf("type %v is not allowed on the device (only bool, integers, float32, float64 and structs of those)", t)
}
