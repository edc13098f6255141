package differential

import (
	"math/rand/v2"

	"github.com/gpukvet/gpukvet/examples/histogram"
	"github.com/gpukvet/gpukvet/examples/matmul"
	"github.com/gpukvet/gpukvet/examples/reduce"
	"github.com/gpukvet/gpukvet/examples/saxpy"
	"github.com/gpukvet/gpukvet/examples/scan"
	"github.com/gpukvet/gpukvet/examples/transpose"
	"github.com/gpukvet/gpukvet/examples/vecadd"
	"github.com/gpukvet/gpukvet/gpu"
)

// exampleCases runs every kernel of examples/.
func exampleCases() []*tcase {
	f32 := func(r *rand.Rand) func() float32 { return func() float32 { return r.Float32()*2 - 1 } }
	const big = 1<<20 + 3
	return []*tcase{
		// a*x + y may be fused: positive inputs keep that within 2 ULP.
		withULP(2, &tcase{name: "examples/saxpy.Saxpy", kernel: saxpy.Saxpy, grid: grid1(big, 256), block: d1(256), args: func() []any {
			r := rng("saxpy")
			return []any{float32(2.5), slice(fill(big, nil, r.Float32)), slice(fill(big, nil, r.Float32))}
		}}),
		{name: "examples/vecadd.VecAdd", kernel: vecadd.VecAdd, grid: grid1(big, 256), block: d1(256), args: func() []any {
			r := rng("vecadd")
			return []any{slice(fill(big, nil, f32(r))), slice(fill(big, nil, f32(r))), slice(zeros[float32](big))}
		}},
		{name: "examples/reduce.BlockSum", kernel: reduce.BlockSum, grid: d1(64), block: d1(reduce.BlockSize), args: func() []any {
			r := rng("reduce")
			return []any{slice(fill(64*reduce.BlockSize, nil, f32(r))), slice(zeros[float32](64))}
		}},
		{name: "examples/histogram.Histogram", kernel: histogram.Histogram, grid: d1(16), block: d1(256), args: func() []any {
			r := rng("histogram")
			return []any{slice(fill(100000, nil, func() uint8 { return uint8(r.Uint32()) })), slice(zeros[uint32](histogram.Bins))}
		}},
		withULP(16, &tcase{name: "examples/matmul.MatMul", kernel: matmul.MatMul,
			grid: gpu.Dim3{X: (50 + matmul.Tile - 1) / matmul.Tile, Y: (100 + matmul.Tile - 1) / matmul.Tile, Z: 1}, block: gpu.Dim3{X: matmul.Tile, Y: matmul.Tile, Z: 1},
			args: func() []any {
				r := rng("matmul")
				return []any{100, 70, 50, slice(fill(100*70, nil, r.Float32)), slice(fill(70*50, nil, r.Float32)), slice(zeros[float32](100 * 50))}
			}}),
		{name: "examples/scan.BlockScan", kernel: scan.BlockScan, grid: d1(8), block: d1(scan.BlockSize), args: func() []any {
			r := rng("scan")
			return []any{slice(fill(8*scan.BlockSize-5, nil, func() int32 { return r.Int32N(2001) - 1000 })), slice(zeros[int32](8*scan.BlockSize - 5)), slice(zeros[int32](8))}
		}},
		{name: "examples/scan.AddOffsets", kernel: scan.AddOffsets, grid: d1(8), block: d1(scan.BlockSize), args: func() []any {
			r := rng("scan2")
			return []any{slice(fill(8, nil, func() int32 { return r.Int32N(1000) })), slice(fill(8*scan.BlockSize, nil, func() int32 { return r.Int32N(1000) }))}
		}},
		{name: "examples/transpose.Transpose", kernel: transpose.Transpose,
			grid:  gpu.Dim3{X: (100 + transpose.TileDim - 1) / transpose.TileDim, Y: (70 + transpose.TileDim - 1) / transpose.TileDim, Z: 1},
			block: gpu.Dim3{X: transpose.TileDim, Y: transpose.BlockRows, Z: 1},
			args: func() []any {
				r := rng("transpose")
				return []any{100, 70, slice(fill(100*70, nil, r.Float32)), slice(zeros[float32](100 * 70))}
			}},
	}
}
