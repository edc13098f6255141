package math32api

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/apitable"
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
	numKinds // the number of Kinds, None included
)

// api is the functions of package math32 that have a Kind.
var api = apitable.New[Kind](Path, []apitable.Entry{FMA: {Name: "FMA"}})

// String returns the function's name, or "None".
func (k Kind) String() string { return api.Name(k) }

// Func returns the Kind of a function object.
func Func(obj *types.Func) Kind { return api.Func(obj) }

// Callee returns the Kind of the function an SSA call statically calls;
// nil is None.
func Callee(fn *ssa.Function) Kind { return api.Callee(fn) }
