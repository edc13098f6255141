package math32api

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Path is the import path of package gpu/math32.
const Path = "github.com/gpukvet/gpukvet/gpu/math32"

// Kind names a function of package math32 that the compiler treats
// specially; None is any other function, math32's included.
type Kind uint8

// The functions of package math32 the lowering compiles to an instruction.
const (
	None Kind = iota
	// FMA is math32.FMA, the float32 fused multiply-add.
	FMA
	numKinds
)

// names is each Kind's function name.
var names = [numKinds]string{None: "None", FMA: "FMA"}

// String returns the function's name, or "None".
func (k Kind) String() string {
	if k >= numKinds {
		return "None"
	}
	return names[k]
}

// Func returns the Kind of a function object.
func Func(obj *types.Func) Kind {
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != Path || obj.Signature().Recv() != nil {
		return None
	}
	for k := None + 1; k < numKinds; k++ {
		if names[k] == obj.Name() {
			return k
		}
	}
	return None
}

// Callee returns the Kind of the function an SSA call statically calls;
// nil is None.
func Callee(fn *ssa.Function) Kind {
	if fn == nil {
		return None
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, _ := fn.Object().(*types.Func)
	return Func(obj)
}
