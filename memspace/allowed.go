package memspace

// Functions of other packages that kernel code may call besides the gpu
// package and //gpu:device functions. doc.go lists the same set; every
// backend must implement each of them.
var allowedCalls = map[string]map[string]bool{
	"math": set(
		// Required by DIALECT.md.
		"Sqrt", "Abs", "Floor", "Ceil", "Trunc", "FMA", "Copysign", "Signbit",
		"Exp", "Log", "Sin", "Cos", "Pow",
		"Float64bits", "Float64frombits", "Float32bits", "Float32frombits",
		// Also pure, total and common in kernels.
		"Round", "RoundToEven", "Exp2", "Expm1", "Log2", "Log10", "Log1p",
		"Tan", "Asin", "Acos", "Atan", "Atan2", "Sinh", "Cosh", "Tanh",
		"Hypot", "Cbrt", "Mod", "Remainder", "Dim", "Max", "Min",
		"Inf", "IsInf", "IsNaN", "NaN",
	),
	"math/bits": set(
		"LeadingZeros", "LeadingZeros8", "LeadingZeros16", "LeadingZeros32", "LeadingZeros64",
		"TrailingZeros", "TrailingZeros8", "TrailingZeros16", "TrailingZeros32", "TrailingZeros64",
		"OnesCount", "OnesCount8", "OnesCount16", "OnesCount32", "OnesCount64",
		"RotateLeft", "RotateLeft8", "RotateLeft16", "RotateLeft32", "RotateLeft64",
		"Reverse", "Reverse8", "Reverse16", "Reverse32", "Reverse64",
		"ReverseBytes", "ReverseBytes16", "ReverseBytes32", "ReverseBytes64",
		"Len", "Len8", "Len16", "Len32", "Len64",
		"Add", "Add32", "Add64", "Sub", "Sub32", "Sub64", "Mul", "Mul32", "Mul64",
		"Div", "Div32", "Div64", "Rem", "Rem32", "Rem64",
	),
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Allowed reports whether kernel code may call the function name of the
// package with import path pkg although it is not a //gpu:device function
// (the gpu package aside). The codegen uses it to know what it must lower.
func Allowed(pkg, name string) bool { return allowedCalls[pkg][name] }
