package kernelapi

import (
	"slices"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// DevMathPath is the import path of codegen/devmath, whose functions the
// lowering inlines for the math functions without a GPU instruction.
const DevMathPath = "github.com/gpukvet/gpukvet/codegen/devmath"

// funcs lists, by import path, the functions kernel code may call.
var funcs = map[string][]string{
	"math": {
		// Required by DIALECT.md.
		"Sqrt", "Abs", "Floor", "Ceil", "Trunc", "FMA", "Copysign", "Signbit",
		"Exp", "Log", "Sin", "Cos", "Pow",
		"Float64bits", "Float64frombits", "Float32bits", "Float32frombits",
		// Also pure, total and common in kernels.
		"Round", "RoundToEven", "Exp2", "Expm1", "Log2", "Log10", "Log1p",
		"Tan", "Asin", "Acos", "Atan", "Atan2", "Sinh", "Cosh", "Tanh",
		"Hypot", "Cbrt", "Mod", "Remainder", "Dim", "Max", "Min",
		"Inf", "IsInf", "IsNaN", "NaN",
		// The lowering compiles these through codegen/devmath, which the
		// functions above use, so they are allowed too.
		"Frexp", "Ldexp", "Modf",
	},
	"math/bits": {
		"LeadingZeros", "LeadingZeros8", "LeadingZeros16", "LeadingZeros32", "LeadingZeros64",
		"TrailingZeros", "TrailingZeros8", "TrailingZeros16", "TrailingZeros32", "TrailingZeros64",
		"OnesCount", "OnesCount8", "OnesCount16", "OnesCount32", "OnesCount64",
		"RotateLeft", "RotateLeft8", "RotateLeft16", "RotateLeft32", "RotateLeft64",
		"Reverse", "Reverse8", "Reverse16", "Reverse32", "Reverse64",
		"ReverseBytes", "ReverseBytes16", "ReverseBytes32", "ReverseBytes64",
		"Len", "Len8", "Len16", "Len32", "Len64",
		"Add", "Add32", "Add64", "Sub", "Sub32", "Sub64", "Mul", "Mul32", "Mul64",
		"Div", "Div32", "Div64", "Rem", "Rem32", "Rem64",
	},
}

var allowed = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for pkg, names := range funcs {
		m[pkg] = map[string]bool{}
		for _, n := range names {
			m[pkg][n] = true
		}
	}
	return m
}()

// Allowed reports whether kernel code may call the function name of the
// package with import path pkg.
func Allowed(pkg, name string) bool { return allowed[pkg][name] }

// Listed reports whether pkg is a package some of whose functions kernel
// code may call (so a call of one of its other functions deserves a
// diagnostic that says so).
func Listed(pkg string) bool { return allowed[pkg] != nil }

// Packages returns the import paths of the listed packages, sorted.
func Packages() []string {
	var ps []string
	for p := range funcs {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return ps
}

// Funcs returns the functions of pkg that kernel code may call, sorted.
func Funcs(pkg string) []string {
	fs := slices.Clone(funcs[pkg])
	slices.Sort(fs)
	return fs
}

// Uncounted reports whether the functions of the package with import path
// pkg are the compiler's own fixed code rather than the user's: the gpu
// package, the standard-library packages of the table, and DevMathPath,
// which implements them. They read no thread index of their own, the
// inlining budget leaves them out, and no check sees their bodies.
func Uncounted(pkg string) bool {
	return pkg == gpuapi.Path || pkg == DevMathPath || Listed(pkg)
}
