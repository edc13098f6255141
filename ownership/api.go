package ownership

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/kernels"
)

// This file recognizes the device package's API in SSA.

func namedOf(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

func isDeviceNamed(t types.Type, name string) bool {
	n := namedOf(t)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == kernels.DevicePath && n.Obj().Name() == name
}

// isBuffer reports whether t is *device.Buffer[T].
func isBuffer(t types.Type) bool {
	_, ptr := types.Unalias(t).(*types.Pointer)
	return ptr && isDeviceNamed(t, "Buffer")
}

// calleeObj returns the *types.Func a static call calls (the generic origin
// for an instantiation), or nil.
func calleeObj(fn *ssa.Function) *types.Func {
	if fn == nil {
		return nil
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, _ := fn.Object().(*types.Func)
	if obj != nil {
		obj = obj.Origin()
	}
	return obj
}

// isDeviceFunc reports whether obj is the package-level function device.name.
func isDeviceFunc(obj *types.Func, name string) bool {
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == kernels.DevicePath &&
		obj.Name() == name && obj.Signature().Recv() == nil
}

// isMethodOf reports whether obj is a method of device type recv.
func isMethodOf(obj *types.Func, recv string) bool {
	if obj == nil {
		return false
	}
	r := obj.Signature().Recv()
	return r != nil && isDeviceNamed(r.Type(), recv)
}

// noReturn reports whether a call to obj never returns normally.
func noReturn(obj *types.Func) bool {
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	name := obj.Name()
	switch obj.Pkg().Path() {
	case "os":
		return name == "Exit"
	case "runtime":
		return name == "Goexit"
	case "log":
		return strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")
	case "testing":
		switch name {
		case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
			return obj.Signature().Recv() != nil
		}
	}
	return false
}
