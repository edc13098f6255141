package ownership

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
)

// This file asks internal/deviceapi about the device package's API in SSA.

// isBuffer reports whether t is *device.Buffer[T].
func isBuffer(t types.Type) bool {
	_, ptr := types.Unalias(t).(*types.Pointer)
	return ptr && deviceapi.IsBuffer(t)
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

// isMethodOf reports whether obj is a method (exported or not) whose
// receiver's type satisfies is (deviceapi.IsBuffer or IsDevice).
func isMethodOf(obj *types.Func, is func(types.Type) bool) bool {
	if obj == nil {
		return false
	}
	r := obj.Signature().Recv()
	return r != nil && is(r.Type())
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
