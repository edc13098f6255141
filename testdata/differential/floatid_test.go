package differential

import (
	"math"
	"math/rand/v2"
	"slices"

	k "github.com/gpukvet/gpukvet/testdata/differential/kernels"
)

// f32Normals are f32Edges without the subnormals, which a device lacking
// shaderDenormPreserveFloat32 may flush in float instructions (NVIDIA's
// driver: a listed device gap, which Math32 probes): the float32 identity
// cases probe signed zeros, infinities and NaNs on every device.
var f32Normals = slices.DeleteFunc(slices.Clone(f32Edges), func(x float32) bool {
	return x != 0 && math.Abs(float64(x)) < 0x1p-126
})

// floatIdentityCases are the operations whose Go result a driver's
// algebraic rewrite would change (issue 21: lavapipe folded 0-x to -x,
// x+0 to x and x*0 to 0 although the modules declare
// SignedZeroInfNanPreserve), with constant and variable operands, and NaN
// compares as values, branch conditions and selects. Results must be
// bit-identical to Go's.
func floatIdentityCases() []*tcase {
	f32 := func(r *rand.Rand) func() float32 { return func() float32 { return float32(r.NormFloat64()) } }
	return []*tcase{
		one("FloatIdentities64", k.FloatIdentities64, func(r *rand.Rand) []any {
			return []any{slice(fill(n, f64Edges, r.NormFloat64)), slice(repeat(n, 0.0)), slice(repeat(n, 1.0)),
				slice(zeros[float64](18 * n)), slice(zeros[float64](9 * n))}
		}),
		one("FloatIdentities32", k.FloatIdentities32, func(r *rand.Rand) []any {
			return []any{slice(fill(n, f32Normals, f32(r))), slice(repeat(n, float32(0))), slice(repeat(n, float32(1))),
				slice(zeros[float32](18 * n)), slice(zeros[float32](9 * n))}
		}),
		one("FloatPredicates64", k.FloatPredicates64, func(r *rand.Rand) []any {
			a, b := pairs(f64Edges)
			return []any{slice(fill(n, a, r.NormFloat64)), slice(fill(n, b, r.NormFloat64)), slice(zeros[int32](16 * n)), slice(zeros[float64](4 * n))}
		}),
		one("FloatPredicates32", k.FloatPredicates32, func(r *rand.Rand) []any {
			a, b := pairs(f32Normals)
			return []any{slice(fill(n, a, f32(r))), slice(fill(n, b, f32(r))), slice(zeros[int32](16 * n)), slice(zeros[float32](4 * n))}
		}),
	}
}

// pairs lists every pair of edges, first and second elements apart.
func pairs[T any](edges []T) (a, b []T) {
	for _, x := range edges {
		for _, y := range edges {
			a, b = append(a, x), append(b, y)
		}
	}
	return a, b
}

// loopVarCases are Go 1.22's per-iteration loop variables, their
// addresses used within their iteration and after a break, and kept past
// their iteration (issue 21: a pointer taken in iteration k read the
// final value).
func loopVarCases() []*tcase {
	return []*tcase{
		one("LoopVarAddr", k.LoopVarAddr, func(r *rand.Rand) []any {
			return []any{slice(fill(n, []int32{0, 1, 2, 3, 4, 5, 17, 399, 400}, func() int32 { return r.Int32N(500) })), slice(zeros[int32](n))}
		}),
		one("LoopVarKept", k.LoopVarKept, func(r *rand.Rand) []any {
			return []any{slice(fill(n, []int32{0, 1, 2, 3, -1, -7, math.MaxInt32, math.MinInt32}, r.Int32)), slice(zeros[int32](n))}
		}),
	}
}
