package memspace

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kernels"
)

// checkKernelParams reports kernel parameters (after the gpu.Thread) of a
// type that cannot cross from host to device: DIALECT.md allows bool, the
// integer types, float32, float64, structs of those by value, and slices of
// any of those.
func checkKernelParams(pass *analysis.Pass, k *kernels.Kernel) {
	if k.Func.Signature().TypeParams().Len() > 0 {
		return // reported as a problem of the kernel's signature
	}
	params := k.Func.Signature().Params()
	first := 0
	if params.Len() > 0 && gpuapi.IsThread(params.At(0).Type()) {
		first = 1
	}
	for i := first; i < params.Len(); i++ {
		p := params.At(i)
		if why := paramTypeProblem(p.Type()); why != "" {
			name := p.Name()
			if name == "" || name == "_" {
				name = fmt.Sprintf("#%d", i)
			}
			pass.Reportf(p.Pos(), "kernel %s: parameter %s has type %s, which cannot be passed to a kernel: %s",
				k.Func.Name(), name, typeString(pass.Pkg, p.Type()), why)
		}
	}
}

// paramTypeProblem says why t is not a kernel parameter type, or "".
func paramTypeProblem(t types.Type) string {
	if s, ok := t.Underlying().(*types.Slice); ok {
		if !isScalar(s.Elem()) && !isScalarStruct(s.Elem(), 0) {
			return "a slice parameter's elements must be bool, integers, float32, float64 or structs of those"
		}
		return ""
	}
	if isScalar(t) || isScalarStruct(t, 0) {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return "pointers to host memory mean nothing on the device; pass a slice (a *device.Buffer) instead"
	case *types.Array:
		return "arrays are not passed by value; pass a slice (a *device.Buffer) instead"
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return "strings live in host memory"
		}
		if u.Info()&types.IsComplex != 0 {
			return "complex numbers are not part of the kernel dialect"
		}
	case *types.Struct:
		return "a struct parameter may hold only bool, integer, float32, float64 and such struct fields"
	}
	return "kernel parameters are bool, integers, float32, float64, structs of those, and slices of any of those"
}

// isScalar reports whether t is bool, an integer type, float32 or float64.
func isScalar(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	switch {
	case b.Kind() == types.Bool, b.Info()&types.IsInteger != 0 && b.Kind() != types.Uintptr && b.Info()&types.IsUntyped == 0:
		return true
	case b.Kind() == types.Float32, b.Kind() == types.Float64:
		return true
	}
	return false
}

// isScalarStruct reports whether t is a struct whose fields are scalars or
// such structs.
func isScalarStruct(t types.Type, depth int) bool {
	s, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 8 {
		return false
	}
	for f := range s.Fields() {
		if !isScalar(f.Type()) && !isScalarStruct(f.Type(), depth+1) {
			return false
		}
	}
	return true
}
