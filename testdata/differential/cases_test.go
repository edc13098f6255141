package differential

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gpukvet/gpukvet/gpu"
	k "github.com/gpukvet/gpukvet/testdata/differential/kernels"
)

// Inputs are pseudo-random with a seed per case, so a failure reproduces;
// edge values come first in every input.

func rng(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(h.Sum64(), 0x9e3779b97f4a7c15))
}

func fill[T any](n int, edges []T, gen func() T) []T {
	s := make([]T, n)
	copy(s, edges)
	for i := len(edges); i < n; i++ {
		s[i] = gen()
	}
	return s
}

func zeros[T any](n int) []T { return make([]T, n) }

func repeat[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func d1(n int) gpu.Dim3 { return gpu.Dim3{X: n, Y: 1, Z: 1} }

// grid1 is the 1-D grid of blocks of size b covering n threads.
func grid1(n, b int) gpu.Dim3 { return d1((n + b - 1) / b) }

const n = 1000 // not a multiple of the block size, to test the guards

var (
	i32Edges = []int32{0, 1, -1, math.MaxInt32, math.MinInt32, 2, -2, 7, -7, 65535, -65536, 46341}
	i64Edges = []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 2, -2, 1 << 32, -1 << 32, 3037000500}
	u64Edges = []uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 + 1, 1 << 32, 1<<53 + 1}
	f64Edges = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-310, -1e-310, 3.5, 2.5, -2.5, 0.5, -0.5, 1e308}
	f32Edges = []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1, -1,
		math.MaxFloat32, math.SmallestNonzeroFloat32, 1e-40, -1e-40, 3.5, 2.5, -2.5, 0.5, -0.5, 3e38}
)

// kernelCases are the cases of the kernels in package kernels, in the
// order the tests run them.
func kernelCases() []*tcase {
	return slices.Concat(arithmeticCases(), floatCases(), memoryCases(), atomicCases(), controlFlowCases(), trapCases(), floatIdentityCases(), loopVarCases())
}

// caseBlock and caseGrid are the launch shape of most cases: n threads in
// blocks of 128.
var (
	caseBlock = d1(128)
	caseGrid  = grid1(n, 128)
)

// one is a case of kernel launched with caseGrid and caseBlock, its
// arguments drawn from a random source of its own.
func one(name string, kernel any, args func(r *rand.Rand) []any) *tcase {
	return &tcase{name: name, kernel: kernel, grid: caseGrid, block: caseBlock, args: func() []any { return args(rng(name)) }}
}

// arithmeticCases are integer arithmetic, shifts, bit operations,
// narrowing, and comparisons and min/max of integers and floats.
func arithmeticCases() []*tcase {
	return []*tcase{
		one("IntWrap", k.IntWrap, func(r *rand.Rand) []any {
			return []any{
				slice(fill(n, i32Edges, r.Int32)), slice(fill(n, slices.Clone(i32Edges[2:]), r.Int32)),
				slice(fill(n, i64Edges, r.Int64)), slice(fill(n, []uint8{0, 255, 16, 128}, func() uint8 { return uint8(r.Uint32()) })),
				slice(fill(n, []int16{0, -1, 32767, -32768, 181, 182}, func() int16 { return int16(r.Uint32()) })),
				slice(zeros[int32](n)), slice(zeros[int64](n)), slice(zeros[uint8](n)), slice(zeros[int16](n)),
			}
		}),
		one("DivRem", k.DivRem, func(r *rand.Rand) []any {
			nz32 := func() int32 {
				for {
					if v := r.Int32N(2001) - 1000; v != 0 {
						return v
					}
				}
			}
			nz64 := func() int64 {
				for {
					if v := r.Int64() >> r.IntN(63); v != 0 {
						return v
					}
				}
			}
			a := fill(n, []int32{math.MinInt32, math.MinInt32, 7, -7, 7, -7, math.MaxInt32, 0, -1}, func() int32 { return r.Int32() - r.Int32() })
			b := fill(n, []int32{-1, 1, 2, 2, -2, -2, -1, 5, 3}, nz32)
			c := fill(n, []int64{math.MinInt64, math.MinInt64, 7, -7, 7, -7, math.MaxInt64, 0}, func() int64 { return r.Int64() - r.Int64() })
			d := fill(n, []int64{-1, 1, 2, 2, -2, -2, -1, 5}, nz64)
			return []any{slice(a), slice(b), slice(c), slice(d), slice(zeros[int32](4 * n)), slice(zeros[int64](4 * n))}
		}),
		one("UDivRem", k.UDivRem, func(r *rand.Rand) []any {
			nz := func() uint32 { return r.Uint32()>>r.IntN(31) | 1 }
			nz64 := func() uint64 { return r.Uint64()>>r.IntN(63) | 1 }
			return []any{
				slice(fill(n, []uint32{math.MaxUint32, 0, 1 << 31}, r.Uint32)), slice(fill(n, []uint32{1, 3, math.MaxUint32}, nz)),
				slice(fill(n, []uint64{math.MaxUint64, 0, 1 << 63}, r.Uint64)), slice(fill(n, []uint64{1, 3, math.MaxUint64}, nz64)),
				slice(zeros[uint32](4 * n)), slice(zeros[uint64](4 * n)),
			}
		}),
		one("Shifts", k.Shifts, func(r *rand.Rand) []any {
			return []any{
				slice(fill(n, i32Edges, r.Int32)), slice(fill(n, u64Edges, r.Uint64)),
				slice(fill(n, []uint{0, 1, 31, 32, 33, 63, 64, 65, 200, 1 << 40}, func() uint { return uint(r.IntN(70)) })),
				slice(zeros[int32](3 * n)), slice(zeros[uint64](2 * n)),
			}
		}),
		one("SignedShiftCount", k.SignedShiftCount, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i64Edges, r.Int64)), slice(fill(n, []int{0, 1, 63, 64, 65, 1 << 40}, func() int { return r.IntN(70) })), slice(zeros[int64](n))}
		}),
		one("Bits", k.Bits, func(r *rand.Rand) []any {
			return []any{slice(fill(n, []uint32{0, math.MaxUint32}, r.Uint32)), slice(fill(n, []uint32{math.MaxUint32, 0}, r.Uint32)), slice(zeros[uint32](5 * n))}
		}),
		one("Narrowing", k.Narrowing, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i64Edges, r.Int64)), slice(zeros[int8](n)), slice(zeros[uint8](n)), slice(zeros[int16](n)), slice(zeros[uint32](n)), slice(zeros[int64](n))}
		}),
		one("Negate", k.Negate, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i64Edges, r.Int64)), slice(zeros[int64](2 * n))}
		}),
		one("Compare", k.Compare, func(r *rand.Rand) []any {
			f := fill(n, f64Edges, r.NormFloat64)
			g := fill(n, slices.Concat(f64Edges[1:], f64Edges[:1]), r.NormFloat64)
			for i := 40; i < 80; i++ {
				g[i] = f[i] // equal pairs
			}
			return []any{
				slice(fill(n, i32Edges, func() int32 { return r.Int32N(5) })), slice(fill(n, slices.Clone(i32Edges[1:]), func() int32 { return r.Int32N(5) })),
				slice(fill(n, []uint32{0, math.MaxUint32, 5}, func() uint32 { return r.Uint32N(5) })), slice(fill(n, []uint32{math.MaxUint32, 0, 5}, func() uint32 { return r.Uint32N(5) })),
				slice(f), slice(g), slice(zeros[bool](12 * n)),
			}
		}),
		one("MinMax", k.MinMax, func(r *rand.Rand) []any {
			f := fill(n, f64Edges, r.NormFloat64)
			g := fill(n, slices.Concat(f64Edges[4:], f64Edges[:4]), r.NormFloat64)
			h := fill(n, f32Edges, func() float32 { return float32(r.NormFloat64()) })
			kk := fill(n, slices.Concat(f32Edges[4:], f32Edges[:4]), func() float32 { return float32(r.NormFloat64()) })
			return []any{
				slice(fill(n, i64Edges, r.Int64)), slice(fill(n, slices.Clone(i64Edges[3:]), r.Int64)),
				slice(f), slice(g), slice(h), slice(kk),
				slice(zeros[int64](3 * n)), slice(zeros[float64](2 * n)), slice(zeros[float32](2 * n)),
			}
		}),
		one("Unsigned64", k.Unsigned64, func(r *rand.Rand) []any {
			return []any{slice(fill(n, u64Edges, r.Uint64)), slice(fill(n, slices.Clone(u64Edges[2:]), r.Uint64)), slice(zeros[uint64](3 * n))}
		}),
	}
}

// floatCases are float special values, conversions between floats and
// integers, fused and unfused multiply-adds, and math functions.
func floatCases() []*tcase {
	return []*tcase{
		one("FloatSpecial", k.FloatSpecial, func(r *rand.Rand) []any {
			var a, b []float64
			for _, x := range f64Edges {
				for _, y := range f64Edges {
					a, b = append(a, x), append(b, y)
				}
			}
			var c, d []float32
			for _, x := range f32Edges {
				for _, y := range f32Edges {
					c, d = append(c, x), append(d, y)
				}
			}
			a = fill(n, a, r.NormFloat64)
			b = fill(n, b, r.NormFloat64)
			c = fill(n, c, func() float32 { return float32(r.NormFloat64()) })
			d = fill(n, d, func() float32 { return float32(r.NormFloat64()) })
			return []any{slice(a), slice(b), slice(c), slice(d), slice(zeros[float64](4 * n)), slice(zeros[float32](4 * n))}
		}),
		one("FloatToInt", k.FloatToInt, func(r *rand.Rand) []any {
			f := fill(n, []float64{0, -0.5, 0.99, -2.7, 2.7, 4e9, -4e9, 4294967295.9, -4294967295.9}, func() float64 { return (r.Float64() - 0.5) * 8e9 })
			g := fill(n, []float32{0, -0.5, 0.99, -2.7, 511.9, -512, 127.5, -3.99}, func() float32 { return (r.Float32() - 0.5) * 1000 })
			return []any{slice(f), slice(g), slice(zeros[int64](n)), slice(zeros[int32](n)), slice(zeros[uint32](n)), slice(zeros[int8](n))}
		}),
		one("IntToFloat", k.IntToFloat, func(r *rand.Rand) []any {
			return []any{
				slice(fill(n, i64Edges, r.Int64)), slice(fill(n, u64Edges, r.Uint64)),
				slice(fill(n, []float64{1 + 1.0/(1<<24), 1 + 3.0/(1<<24), 3.4028235677973366e38, 1e-46, math.NaN()}, r.NormFloat64)),
				slice(zeros[float64](3 * n)), slice(zeros[float32](3 * n)),
			}
		}),
		one("NoFuse", k.NoFuse, func(r *rand.Rand) []any {
			f32 := func() float32 { return r.Float32()*2 - 1 }
			return []any{
				slice(fill(n, nil, f32)), slice(fill(n, nil, f32)), slice(fill(n, nil, f32)),
				slice(fill(n, nil, r.NormFloat64)), slice(fill(n, nil, r.NormFloat64)), slice(fill(n, nil, r.NormFloat64)),
				slice(zeros[float32](n)), slice(zeros[float64](n)),
			}
		}),
		withULP(2, one("Fused", k.Fused, func(r *rand.Rand) []any {
			f32 := func() float32 { return r.Float32() + 0.5 }
			return []any{slice(fill(n, nil, f32)), slice(fill(n, nil, f32)), slice(fill(n, nil, f32)), slice(zeros[float32](n))}
		})),
		withULPArg(3, 4, one("Math64", k.Math64, func(r *rand.Rand) []any {
			x := fill(n, []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, 1e-310, 3.14159, 100, -100}, func() float64 { return (r.Float64() - 0.5) * 20 })
			y := fill(n, nil, func() float64 { return (r.Float64() - 0.5) * 8 })
			return []any{slice(x), slice(y), slice(zeros[float64](8 * n)), slice(zeros[float64](5 * n))}
		})),
		withULPArg(3, 4, one("Math32", k.Math32, func(r *rand.Rand) []any {
			x := fill(n, []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2.5, -2.5, 1e-40, 3.14159, 100, -100}, func() float32 { return (r.Float32() - 0.5) * 20 })
			y := fill(n, nil, func() float32 { return (r.Float32() - 0.5) * 8 })
			return []any{slice(x), slice(y), slice(zeros[float32](6 * n)), slice(zeros[float32](5 * n))}
		})),
		one("FMA", k.FMA, func(r *rand.Rand) []any {
			f32 := func() float32 { return float32(r.NormFloat64()) }
			return []any{slice(fill(n, nil, r.NormFloat64)), slice(fill(n, nil, r.NormFloat64)),
				slice(fill(n, nil, f32)), slice(fill(n, nil, f32)), slice(zeros[float64](n)), slice(zeros[float32](n))}
		}),
		{name: "FMAExact", kernel: k.FMAExact, grid: grid1(fmaN, 128), block: caseBlock, args: fmaExactArgs},
		one("FloatBits", k.FloatBits, func(r *rand.Rand) []any {
			return []any{slice(fill(n, f64Edges, r.NormFloat64)), slice(fill(n, f32Edges, func() float32 { return float32(r.NormFloat64()) })),
				slice(zeros[uint64](n)), slice(zeros[uint32](n)), slice(zeros[float64](n)), slice(zeros[float32](n))}
		}),
		one("MathConstants", k.MathConstants, func(r *rand.Rand) []any {
			return []any{slice(zeros[float64](4)), slice(zeros[int64](2))}
		}),
		one("Float32Chain", k.Float32Chain, func(r *rand.Rand) []any {
			return []any{slice(fill(n, f32Edges, func() float32 { return float32(r.NormFloat64() * 100) })), slice(zeros[float32](n))}
		}),
	}
}

// memoryCases are structs and arrays as parameters and locals, pointers,
// shared memory, slicing and thread indexes.
func memoryCases() []*tcase {
	return []*tcase{
		withULP(2, one("StructParam", k.StructParam, func(r *rand.Rand) []any {
			p := k.Params{Scale: 1.5, Shift: -1 << 40, Flip: true, Small: -7, Inner: k.Inner{A: 65535, B: 0.125}}
			return []any{p, slice(fill(n, nil, func() float32 { return float32(r.NormFloat64()) })), slice(zeros[float64](n))}
		})),
		// Products added to a sum may be fused (FMA) on a GPU, as the Go spec
		// allows; with operands of one sign that moves a result by at most
		// 2 ULP. (With cancellation the difference in ULPs is unbounded,
		// which is why these inputs avoid it.)
		withULP(2, one("StructSlice", k.StructSlice, func(r *rand.Rand) []any {
			ps := fill(n, nil, func() k.Particle {
				return k.Particle{X: r.Float32(), Y: r.Float32(), VX: r.Float32(), VY: r.Float32(), ID: r.Int32(), Alive: r.IntN(4) != 0}
			})
			return []any{slice(ps), float32(0.75)}
		})),
		one("LocalArray", k.LocalArray, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, r.Int32)), slice(zeros[int32](n))}
		}),
		one("ManyParams", k.ManyParams, func(r *rand.Rand) []any {
			p := k.Params{Scale: -2.5, Shift: 1 << 41, Flip: true, Small: -100, Inner: k.Inner{A: 40000, B: -0.375}}
			args := []any{p}
			for q := range 14 {
				args = append(args, slice(fill(n-q, i32Edges, func() int32 { return r.Int32N(1 << 20) })))
			}
			return append(args, int8(-7), false, 0.5, uint16(65535), slice(zeros[float64](n)), slice(zeros[int64](15)))
		}),
		one("PointerLocal", k.PointerLocal, func(r *rand.Rand) []any {
			return []any{slice(fill(n, f64Edges, r.NormFloat64)), slice(zeros[float64](n))}
		}),
		{name: "SharedReverse", kernel: k.SharedReverse, grid: d1(8), block: d1(128), args: func() []any {
			r := rng("SharedReverse")
			return []any{slice(fill(1024, nil, r.Float32)), slice(zeros[float32](1024))}
		}},
		{name: "BlockSum", kernel: k.BlockSum, grid: d1(4), block: d1(256), args: func() []any {
			r := rng("BlockSum")
			return []any{slice(fill(1000, i64Edges[5:], func() int64 { return r.Int64N(1 << 40) })), slice(zeros[int64](4))}
		}},
		{name: "Shared2D", kernel: k.Shared2D, grid: gpu.Dim3{X: 3, Y: 3, Z: 1}, block: gpu.Dim3{X: 16, Y: 16, Z: 1}, args: func() []any {
			r := rng("Shared2D")
			return []any{slice(fill(40*40, nil, r.Float32)), slice(zeros[float32](40 * 40)), 40}
		}},
		one("Slicing", k.Slicing, func(r *rand.Rand) []any {
			return []any{slice(fill(16, nil, func() int32 { return r.Int32N(1000) })), slice(zeros[int32](n))}
		}),
		{name: "Indexes", kernel: k.Indexes, grid: gpu.Dim3{X: 3, Y: 2, Z: 2}, block: gpu.Dim3{X: 4, Y: 3, Z: 2}, args: func() []any {
			return []any{slice(zeros[int32](12 * 6 * 4 * 6))}
		}},
	}
}

// atomicCases are the atomic operations, on global and shared memory.
func atomicCases() []*tcase {
	return []*tcase{
		one("AtomicAddAll", k.AtomicAddAll, func(r *rand.Rand) []any {
			return []any{n, slice([]int32{5}), slice([]uint32{0}), slice([]int64{-9}), slice([]uint64{0}), slice([]float32{0.5}), slice([]float64{0})}
		}),
		one("AtomicMinMax", k.AtomicMinMax, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i64Edges[4:], func() int64 { return r.Int64() >> r.IntN(64) })),
				slice([]int32{math.MaxInt32, math.MinInt32}), slice([]uint32{math.MaxUint32, 0}),
				slice([]int64{math.MaxInt64, math.MinInt64}), slice([]uint64{math.MaxUint64, 0})}
		}),
		{name: "AtomicCAS", kernel: k.AtomicCAS, grid: caseGrid, block: caseBlock, ignore: []int{1, 3}, check: checkCAS, args: func() []any {
			r := rng("AtomicCAS")
			return []any{slice(fill(n, nil, func() int32 { return r.Int32N(100) })), slice(repeat[int32](64, -1)), slice(zeros[uint32](64)), slice(zeros[int32](n))}
		}},
		{name: "AtomicExchangeAll", kernel: k.AtomicExchangeAll, grid: caseGrid, block: caseBlock, ignore: []int{1, 2, 3, 4}, check: checkExchange, args: func() []any {
			return []any{n, slice([]int32{0}), slice([]float64{-1}), slice(zeros[int32](n)), slice(zeros[float64](n))}
		}},
		one("AtomicPerThread", k.AtomicPerThread, func(r *rand.Rand) []any {
			return []any{slice(fill(n, nil, r.Int32)), slice(fill(n, nil, r.Uint32)), slice(fill(n, nil, r.Int64)), slice(fill(n, nil, r.Uint64)),
				slice(fill(n, nil, func() float32 { return float32(r.IntN(1000)) })), slice(fill(n, nil, r.NormFloat64)), slice(zeros[int64](8 * n))}
		}),
		{name: "SharedHistogram", kernel: k.SharedHistogram, grid: d1(4), block: d1(256), args: func() []any {
			r := rng("SharedHistogram")
			return []any{slice(fill(10000, nil, r.Uint32)), slice(zeros[uint32](64))}
		}},
	}
}

// controlFlowCases are early returns, switches, loops, device function
// calls, and the control-flow shapes SPIR-V restructures.
func controlFlowCases() []*tcase {
	return []*tcase{
		one("EarlyReturn", k.EarlyReturn, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, func() int32 { return r.Int32N(21) - 10 })), slice(repeat[int32](n, 77))}
		}),
		one("Switch", k.Switch, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, func() int32 { return r.Int32N(401) - 200 })), slice(zeros[int32](n))}
		}),
		one("Loops", k.Loops, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, r.Int32)), slice(zeros[int64](n))}
		}),
		{name: "GridStride", kernel: k.GridStride, grid: d1(4), block: d1(128), args: func() []any {
			r := rng("GridStride")
			return []any{slice(fill(5000, f32Edges, r.Float32)), slice(zeros[float32](5000))}
		}},
		withULP(2, one("DeviceCalls", k.DeviceCalls, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, func() int32 { return r.Int32N(41) - 20 })), slice(fill(n, nil, func() float64 { return r.Float64() * 5 })),
				slice(zeros[int32](n)), slice(zeros[float64](n))}
		})),
		one("BoolParam", k.BoolParam, func(r *rand.Rand) []any {
			return []any{true, slice(fill(n, nil, func() bool { return r.IntN(2) == 1 })), slice(zeros[bool](n))}
		}),
		{name: "TwoD", kernel: k.TwoD, grid: gpu.Dim3{X: 2, Y: 2, Z: 1}, block: gpu.Dim3{X: 32, Y: 16, Z: 1}, args: func() []any {
			r := rng("TwoD")
			return []any{37, 23, slice(fill(37*23, nil, func() int32 { return r.Int32N(1000) })), slice(zeros[int32](37 * 23))}
		}},
		one("Collatz", k.Collatz, func(r *rand.Rand) []any {
			return []any{slice(fill(n, []uint64{0, 1, 27, 97, 871}, func() uint64 { return r.Uint64N(1 << 20) })), slice(zeros[int32](n))}
		}),
		// Control-flow shapes SPIR-V restructures (kernels/shapes.go).
		one("Labeled2", k.Labeled2, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, r.Int32)), slice(zeros[int64](n))}
		}),
		one("Labeled3", k.Labeled3, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, r.Int32)), slice(zeros[int64](n))}
		}),
		one("ReturnInSwitch", k.ReturnInSwitch, func(r *rand.Rand) []any {
			small := func() int32 { return r.Int32N(81) - 40 }
			return []any{slice(fill(40, nil, small)), slice(fill(n, []int32{0, 40, -40, 100, -100}, small)), slice(zeros[int32](n))}
		}),
		one("FallthroughLoops", k.FallthroughLoops, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, r.Int32)), slice(zeros[int32](n))}
		}),
		one("ShortCircuit", k.ShortCircuit, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, func() int32 { return r.Int32N(401) - 200 })), slice(zeros[int32](n))}
		}),
		one("ReturnNested", k.ReturnNested, func(r *rand.Rand) []any {
			return []any{slice(fill(n, i32Edges, r.Int32)), slice(zeros[int32](n)), slice(zeros[int32](n))}
		}),
	}
}

// trapCases are kernels that trap, and their twins that do not: every
// backend must trap with the same error at the same line.
func trapCases() []*tcase {
	return []*tcase{
		{name: "TrapIndex", kernel: k.TrapIndex, grid: caseGrid, block: caseBlock, trap: "index out of range", args: func() []any {
			return []any{5, slice(zeros[float32](n)), slice(zeros[float32](n))}
		}},
		{name: "TrapDivide", kernel: k.TrapDivide, grid: caseGrid, block: caseBlock, trap: "integer divide by zero", args: func() []any {
			b := repeat[int32](n, 3)
			b[517] = 0
			return []any{slice(repeat[int32](n, 12)), slice(b), slice(zeros[int32](n))}
		}},
		{name: "TrapPanic", kernel: k.TrapPanic, grid: caseGrid, block: caseBlock, trap: "panic", args: func() []any {
			x := repeat[int32](n, 1)
			x[300] = -4
			return []any{slice(x), slice(zeros[int32](n))}
		}},
		{name: "TrapSlice", kernel: k.TrapSlice, grid: d1(1), block: d1(100), trap: "slice bounds out of range", args: func() []any {
			return []any{3, slice(zeros[int32](100)), slice(zeros[int32](100))}
		}},
		{name: "TrapShift", kernel: k.TrapShift, grid: caseGrid, block: caseBlock, trap: "negative shift amount", args: func() []any {
			s := repeat(n, 2)
			s[9] = -1
			return []any{slice(repeat[int32](n, 1)), slice(s), slice(zeros[int32](n))}
		}},
		{name: "TrapLocal", kernel: k.TrapLocal, grid: caseGrid, block: caseBlock, trap: "index out of range", args: func() []any {
			kk := repeat(n, 1)
			kk[700] = 4
			return []any{slice(kk), slice(zeros[int32](n))}
		}},
		// A kernel's precondition guard: held, the kernel runs; broken (a
		// length that is not a multiple of 32, a grid too small), it traps
		// at the guard.
		{name: "Precondition", kernel: k.Precondition, grid: d1(8), block: d1(32), args: func() []any {
			r := rng("Precondition")
			return []any{256, slice(fill(256, i32Edges[:2], func() int32 { return r.Int32N(1000) })), slice(zeros[int32](256))}
		}},
		{name: "TrapPreconditionLength", kernel: k.Precondition, grid: d1(8), block: d1(32), trap: "panic", trapAt: "traps.go:78", args: func() []any {
			return []any{250, slice(zeros[int32](256)), slice(zeros[int32](256))}
		}},
		{name: "TrapPreconditionGrid", kernel: k.Precondition, grid: d1(4), block: d1(32), trap: "panic", trapAt: "traps.go:78", args: func() []any {
			return []any{256, slice(zeros[int32](256)), slice(zeros[int32](256))}
		}},
		// A trap before a barrier the rest of the block waits at, and inside
		// a loop of barriers: the launch must end with the trap, not hang.
		{name: "TrapBeforeBarrier", kernel: k.TrapBeforeBarrier, grid: d1(4), block: d1(128), trap: "index out of range [10000] with length 512", args: func() []any {
			r := rng("TrapBeforeBarrier")
			kk := fill(512, nil, func() int { return r.IntN(512) })
			kk[300] = 10000
			return []any{slice(kk), slice(fill(512, nil, r.Int32)), slice(zeros[int32](512))}
		}},
		{name: "BarrierNoTrap", kernel: k.TrapBeforeBarrier, grid: d1(4), block: d1(128), args: func() []any {
			r := rng("BarrierNoTrap")
			return []any{slice(fill(512, nil, func() int { return r.IntN(512) })), slice(fill(512, nil, r.Int32)), slice(zeros[int32](512))}
		}},
		{name: "TrapInBarrierLoop", kernel: k.TrapInBarrierLoop, grid: d1(4), block: d1(128), trap: "index out of range [512] with length 512", args: func() []any {
			r := rng("TrapInBarrierLoop")
			kk := fill(512, nil, func() int { return r.IntN(509) })
			kk[77] = 510
			return []any{slice(kk), slice(fill(512, nil, r.Int32)), slice(zeros[int32](512))}
		}},
		{name: "BarrierLoopNoTrap", kernel: k.TrapInBarrierLoop, grid: d1(4), block: d1(128), args: func() []any {
			r := rng("BarrierLoopNoTrap")
			return []any{slice(fill(512, nil, func() int { return r.IntN(509) })), slice(fill(512, nil, r.Int32)), slice(zeros[int32](512))}
		}},
		// A pointer nil on one thread's path: the store through it traps
		// at its line on every backend (it crashed lavapipe before).
		{name: "TrapNil", kernel: k.TrapNil, grid: caseGrid, block: caseBlock, trap: "invalid memory address or nil pointer dereference", trapAt: "traps.go:96", args: func() []any {
			kk := repeat[int32](n, 2)
			kk[611] = 0
			return []any{slice(kk), slice(zeros[int32](n))}
		}},
		{name: "NilNoTrap", kernel: k.TrapNil, grid: caseGrid, block: caseBlock, args: func() []any {
			return []any{slice(repeat[int32](n, 2)), slice(zeros[int32](n))}
		}},
		one("NoTrapAfter", k.NoTrapAfter, func(r *rand.Rand) []any {
			return []any{slice(zeros[int32](n))}
		}),
	}
}

func withULP(ulp int64, c *tcase) *tcase { c.ulp = ulp; return c }

// withULPArg sets a ULP bound for one argument only.
func withULPArg(arg int, ulp int64, c *tcase) *tcase {
	c.argULP = map[int]int64{arg: ulp}
	return c
}

// checkCAS: every slot claimed once at most, by a thread whose key maps to
// it, and one winner per claim.
func checkCAS(outs []any) error {
	keys, slots, claims, won := outs[0].([]int32), outs[1].([]int32), outs[2].([]uint32), outs[3].([]int32)
	wins := 0
	for _, w := range won {
		wins += int(w)
	}
	total := 0
	for s, c := range claims {
		total += int(c)
		if c > 1 {
			return fmt.Errorf("slot %d claimed %d times", s, c)
		}
		if c == 1 && (slots[s] < 0 || int(keys[slots[s]])%len(slots) != s || won[slots[s]] != 1) {
			return fmt.Errorf("slot %d held by thread %d, which did not claim it", s, slots[s])
		}
	}
	if total != wins {
		return fmt.Errorf("%d claims, %d winners", total, wins)
	}
	return nil
}

// checkExchange: the old values returned plus the final value are exactly
// the initial value and every value stored.
func checkExchange(outs []any) error {
	cell, cellf, old, oldf := outs[1].([]int32), outs[2].([]float64), outs[3].([]int32), outs[4].([]float64)
	all := append(slices.Clone(old), cell[0])
	slices.Sort(all)
	for i, v := range all {
		if v != int32(i) {
			return fmt.Errorf("exchanged int32 values: %d at %d, want %d", v, i, i)
		}
	}
	allf := append(slices.Clone(oldf), cellf[0])
	slices.Sort(allf)
	if allf[0] != -1 {
		return fmt.Errorf("initial float64 value lost: smallest is %v", allf[0])
	}
	for i, v := range allf[1:] {
		if v != float64(i)+0.5 {
			return fmt.Errorf("exchanged float64 values: %v at %d, want %v", v, i, float64(i)+0.5)
		}
	}
	return nil
}

// fmaN is the number of FMAExact inputs of each width.
const fmaN = 20000

// fmaExactArgs are FMAExact's operands: every combination of edge values,
// then hard cases for a once-rounded FMA (a double-rounding FMA fails
// hundreds of them), then random bit patterns.
func fmaExactArgs() []any {
	r := rng("FMAExact")
	var x, y, z []float64
	var x32, y32, z32 []float32
	e64 := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64,
		math.SmallestNonzeroFloat64, -0x1p-1022, 0x1p-1023, 1 + 0x1p-52, 1 - 0x1p-53, 0x1p512, 3}
	e32 := []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32,
		math.SmallestNonzeroFloat32, -0x1p-126, 0x1p-127, 1 + 0x1p-23, 1 - 0x1p-24, 0x1p64, 3}
	for _, a := range e64 {
		for _, b := range e64 {
			for _, c := range e64 {
				x, y, z = append(x, a), append(y, b), append(z, c)
			}
		}
	}
	for _, a := range e32 {
		for _, b := range e32 {
			for _, c := range e32 {
				x32, y32, z32 = append(x32, a), append(y32, b), append(z32, c)
			}
		}
	}
	ld := math.Ldexp
	sign := func() float64 { return float64(1 - 2*r.IntN(2)) }
	for len(x) < fmaN {
		var a, b, c float64
		switch r.IntN(6) {
		case 0: // a tie or near-tie of the product that z decides
			a, b = 1+float64(r.Uint64N(1<<26))*0x1p-26, 1+float64(r.Uint64N(1<<27))*0x1p-27
			c = ld(float64(r.IntN(7)-3), -r.IntN(200)-53)
		case 1: // cancellation
			a, b = r.NormFloat64(), r.NormFloat64()
			c = -a*b + ld(float64(r.IntN(5)-2), math.Ilogb(a*b)-52-r.IntN(3))
		case 2: // subnormal results
			a = ld(r.Float64()+0.5, -r.IntN(600)-400)
			b = sign() * ld(r.Float64()+0.5, -1074+600-math.Ilogb(a)-r.IntN(80))
			c = ld(r.NormFloat64(), -1060-r.IntN(20))
		case 3: // overflow
			a, b, c = ld(r.Float64()+1, 511+r.IntN(3)), ld(r.Float64()+1, 511+r.IntN(3)), -ld(r.Float64(), 1023)
		case 4: // z == 0 and products that underflow
			a = ld(r.NormFloat64(), -r.IntN(600))
			b = ld(r.NormFloat64(), -1074-math.Ilogb(a)+r.IntN(4)-2)
			c = math.Copysign(0, sign())
		case 5:
			a, b, c = math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64())
		}
		x, y, z = append(x, a), append(y, b), append(z, c)
	}
	l32 := func(f float64, e int) float32 { return float32(ld(f, e)) }
	for len(x32) < fmaN {
		var a, b, c float32
		switch r.IntN(6) {
		case 0: // a float32 tie that rounding through float64 first breaks
			a, b = 1+float32(r.Uint32N(1<<12))*0x1p-12, 1+float32(r.Uint32N(1<<12))*0x1p-12
			c = l32(float64(r.IntN(7)-3), -r.IntN(100)-30)
		case 1:
			a, b = float32(r.NormFloat64()), float32(r.NormFloat64())
			p := float64(a) * float64(b)
			c = float32(-p) + l32(float64(r.IntN(5)-2), math.Ilogb(p)-23-r.IntN(3))
		case 2:
			a = l32(r.Float64()+0.5, -r.IntN(60)-40)
			b = float32(sign()) * l32(r.Float64()+0.5, -149+60-math.Ilogb(float64(a))-r.IntN(30))
			c = l32(r.NormFloat64(), -140-r.IntN(10))
		case 3:
			a, b, c = l32(r.Float64()+1, 63+r.IntN(3)), l32(r.Float64()+1, 63+r.IntN(3)), -l32(r.Float64(), 127)
		case 4:
			a = l32(r.NormFloat64(), -r.IntN(60))
			b = l32(r.NormFloat64(), -149-math.Ilogb(float64(a))+r.IntN(4)-2)
			c = float32(math.Copysign(0, sign()))
		case 5:
			a, b, c = math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32())
		}
		x32, y32, z32 = append(x32, a), append(y32, b), append(z32, c)
	}
	x, y, z, x32, y32, z32 = x[:fmaN], y[:fmaN], z[:fmaN], x32[:fmaN], y32[:fmaN], z32[:fmaN]
	return []any{slice(x), slice(y), slice(z), slice(x32), slice(y32), slice(z32), slice(zeros[float64](fmaN)), slice(zeros[float32](fmaN))}
}
