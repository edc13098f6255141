package kernels

// The side-by-side benchmark against nvcc (bench/internal/twinharness):
// every kernel of this package, compiled by gpukvet gen (the PTX embedded
// in gpukvet_gen.go, bounds checks on), and its CUDA C twin from twins.cu
// compiled by nvcc, on one GPU in one process.
//
//	nvcc -O3 -arch=sm_90 -cubin -o twins.cubin bench/kernels/twins.cu
//	GPUKVET_TWINS_CUBIN=twins.cubin go test ./bench/kernels -run TestTwins -v
//
// Without a GPU or without the cubin the test skips.

import (
	"math/rand/v2"
	"testing"

	th "github.com/gpukvet/gpukvet/bench/internal/twinharness"
)

// cases returns every pair; big selects the timing sizes, otherwise sizes
// the cpu backend checks in seconds.
func cases(big bool) []th.Case {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(small, large int) int {
		if big {
			return large
		}
		return small
	}
	n := pick(1<<16, 1<<24)
	nx := pick(256, 4096)
	n3 := pick(32, 256)
	mm := pick(128, 2048)
	tr := pick(256, 8192)
	var out []th.Case
	add := func(c th.Case) { out = append(out, c) }
	blocks := func(n, b int) int { return (n + b - 1) / b }

	add(th.Case{Name: "Triad", Fn: Triad, Args: []any{float32(1.5), make([]float32, n), th.RandF32(r, n), th.RandF32(r, n)},
		Twin: []any{float32(1.5), th.Ref(1), th.Ref(2), th.Ref(3), th.LenOf(1)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}, Tol: 1e-6})
	add(th.Case{Name: "StridedCopy", Fn: StridedCopy, Args: []any{4, th.RandF32(r, 4*n/4), make([]float32, n/4)},
		Twin: []any{int64(4), th.Ref(1), th.Ref(2), th.LenOf(2)}, Grid: th.Dim(blocks(n/4, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{2}})
	add(th.Case{Name: "ReduceTree", Fn: ReduceTree, Args: []any{th.RandF32(r, n), make([]float32, blocks(n, 256))},
		Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}, Tol: 1e-4})
	add(th.Case{Name: "ReduceGridStride", Fn: ReduceGridStride, Args: []any{th.RandF32(r, n), make([]float32, 264)},
		Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(264, 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}, Tol: 1e-4})
	add(th.Case{Name: "Stencil2D", Fn: Stencil2D, Args: []any{nx, nx, float32(0.5), float32(0.125), th.RandF32(r, nx*nx), make([]float32, nx*nx)},
		Twin: []any{int64(nx), int64(nx), float32(0.5), float32(0.125), th.Ref(4), th.Ref(5)}, Grid: th.Dim(nx/32, nx/8, 1), Block: th.Dim(32, 8, 1), Outs: []int{5}, Tol: 1e-5})
	add(th.Case{Name: "Stencil3D", Fn: Stencil3D, Args: []any{n3, n3, n3, float32(0.4), float32(0.1), th.RandF32(r, n3*n3*n3), make([]float32, n3*n3*n3)},
		Twin: []any{int64(n3), int64(n3), int64(n3), float32(0.4), float32(0.1), th.Ref(5), th.Ref(6)}, Grid: th.Dim(n3/32, n3/4, n3/2), Block: th.Dim(32, 4, 2), Outs: []int{6}, Tol: 1e-5})
	add(th.Case{Name: "MatMul", Fn: MatMul, Args: []any{mm, th.RandF32(r, mm*mm), th.RandF32(r, mm*mm), make([]float32, mm*mm)},
		Twin: []any{int64(mm), th.Ref(1), th.Ref(2), th.Ref(3)}, Grid: th.Dim(mm/16, mm/16, 1), Block: th.Dim(16, 16, 1), Outs: []int{3}, Tol: 1e-4})
	add(th.Case{Name: "Transpose", Fn: Transpose, Args: []any{tr, th.RandF32(r, tr*tr), make([]float32, tr*tr)},
		Twin: []any{int64(tr), th.Ref(1), th.Ref(2)}, Grid: th.Dim(tr/32, tr/32, 1), Block: th.Dim(32, 8, 1), Outs: []int{2}})
	bytes := make([]uint8, 4*n)
	for i := range bytes {
		bytes[i] = uint8(r.IntN(256) & r.IntN(256)) // skewed: some bins busier
	}
	add(th.Case{Name: "HistShared", Fn: HistShared, Args: []any{bytes, make([]uint32, 256)},
		Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(264, 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}})
	add(th.Case{Name: "HistGlobal", Fn: HistGlobal, Args: []any{bytes[:n], make([]uint32, 256)},
		Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}})
	add(th.Case{Name: "Scan", Fn: Scan, Args: []any{th.RandF32(r, n), make([]float32, n)},
		Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}, Tol: 1e-4})
	add(th.Case{Name: "Horner", Fn: Horner, Args: []any{th.RandF32(r, n), make([]float32, n)},
		Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}, Tol: 1e-5})
	perm := make([]int32, n)
	for i, p := range r.Perm(n) {
		perm[i] = int32(p)
	}
	add(th.Case{Name: "Gather", Fn: Gather, Args: []any{perm, th.RandF32(r, n), make([]float32, n)},
		Twin: []any{th.Ref(0), th.Ref(1), th.Ref(2), th.LenOf(2)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{2}})
	add(th.Case{Name: "Scatter", Fn: Scatter, Args: []any{perm, th.RandF32(r, n), make([]float32, n)},
		Twin: []any{th.Ref(0), th.Ref(1), th.Ref(2), th.LenOf(1)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{2}})
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = r.NormFloat64(), r.NormFloat64()
	}
	add(th.Case{Name: "Daxpy", Fn: Daxpy, Args: []any{0.75, xs, ys},
		Twin: []any{0.75, th.Ref(1), th.Ref(2), th.LenOf(1)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{2}, Tol: 1e-12})
	is := make([]int64, n)
	for i := range is {
		is[i] = r.Int64()
	}
	add(th.Case{Name: "Mix64", Fn: Mix64, Args: []any{is, make([]int64, n)},
		Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(blocks(n, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}})
	add(th.Case{Name: "Smooth2D", Fn: Smooth2D, Args: []any{nx, nx, th.RandF32(r, nx*nx), make([]float32, nx*nx)},
		Twin: []any{int64(nx), int64(nx), th.Ref(2), th.Ref(3)}, Grid: th.Dim(nx/16, nx/16, 1), Block: th.Dim(16, 16, 1), Outs: []int{3}, Tol: 1e-5})
	return out
}

func TestTwins(t *testing.T) {
	th.RunTwins(t, "bench/kernels: gpukvet against nvcc", cases)
}

// TestCasesRunOnCPU runs every benchmark case at its checking size on the
// cpu backend (what TestTwins compares the GPU results with), so that a
// case that traps or a twin list that does not match its kernel is found
// without a GPU; and checks a few results against plain Go.
func TestCasesRunOnCPU(t *testing.T) {
	th.CheckTwinLists(t, cases)
	for _, c := range cases(false) {
		outs := th.CPUResult(t, c)
		switch c.Name {
		case "Triad":
			a, b, cc := outs[0].([]float32), c.Args[2].([]float32), c.Args[3].([]float32)
			for i := range a {
				if a[i] != b[i]+1.5*cc[i] {
					t.Fatalf("Triad[%d] = %v, want %v", i, a[i], b[i]+1.5*cc[i])
				}
			}
		case "Gather":
			idx, in, out := c.Args[0].([]int32), c.Args[1].([]float32), outs[0].([]float32)
			for i := range out {
				if out[i] != in[idx[i]] {
					t.Fatalf("Gather[%d] = %v, want %v", i, out[i], in[idx[i]])
				}
			}
		case "HistGlobal":
			var total uint32
			for _, h := range outs[0].([]uint32) {
				total += h
			}
			if int(total) != len(c.Args[0].([]uint8)) {
				t.Fatalf("HistGlobal counts %d bytes of %d", total, len(c.Args[0].([]uint8)))
			}
		}
	}
}

// TestTwinEntries checks, without a GPU, how TestTwins names the gpukvet
// entry point it launches (twinharness.CheckEntries).
func TestTwinEntries(t *testing.T) {
	if th.CheckEntries(t, cases, "kernels_") == 0 {
		t.Errorf("no case runs a variant with both variants allowed (the kernels have non-coherent ones)")
	}
}

// TestDumpTwins writes the twins' inputs and the cpu backend's outputs for
// twinharness/cuemu/run.sh (GPUKVET_TWINS_DUMP).
func TestDumpTwins(t *testing.T) {
	th.DumpTwins(t, cases)
}
