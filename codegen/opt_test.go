package codegen_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// optCorpora are every corpus the codegen tests compile, with whether its
// kernels are race-free (so that their results are deterministic).
var optCorpora = []struct {
	patterns []string
	raceFree bool
}{
	{[]string{corpus + "basic", corpus + "constructs", corpus + "guards", "github.com/gpukvet/gpukvet/testdata/differential/kernels", "github.com/gpukvet/gpukvet/examples/...", "github.com/gpukvet/gpukvet/bench/kernels"}, true},
	{[]string{"github.com/gpukvet/gpukvet/testdata/corpus/divergence", "../testdata/corpus/races/...", "github.com/gpukvet/gpukvet/testdata/benchkernels/..."}, false},
}

// TestOptimizerPreservesSemantics runs every kernel of the corpora in the
// kir interpreter compiled with the whole optimizer (every pass followed by
// kir.Verify) and with none of it (-O0), on random inputs: no access may
// leave its buffer, a kernel traps exactly when its unoptimized twin traps,
// and the race-free kernels compute the same bytes.
func TestOptimizerPreservesSemantics(t *testing.T) {
	for _, set := range optCorpora {
		opt := build(t, codegen.Options{VerifyPasses: true}, set.patterns...)
		raw := build(t, codegen.Options{DisableOptimizer: true}, set.patterns...)
		runs, trapped := runTwins(t, opt, raw, set.raceFree, rand.New(rand.NewPCG(3, 5)), "optimized", "with -O0")
		t.Logf("%d kernels, %d runs, %d trapped", len(opt.IR.Funcs), runs, trapped)
	}
}

// TestStencilFastPaths: on the benchmark stencils, the test before the
// loads of the fast path compares two indices with len(in) (RangeChecks),
// and the tiled transpose's compares none (its guarded row-major checks
// are covered by a test of n and len(in)); the variants that assume the
// kernels' launch facts (kir.AssumeFacts) compare none at all.
func TestStencilFastPaths(t *testing.T) {
	m := build(t, codegen.Options{VerifyPasses: true}, "github.com/gpukvet/gpukvet/bench/kernels")
	want := map[string]int{"kernels_Stencil2D": 2, "kernels_Stencil3D": 2, "kernels_Smooth2D": 2, "kernels_Transpose": 0}
	for _, f := range m.IR.Funcs {
		n, ok := want[f.Name]
		if !ok {
			continue
		}
		if got := lengthCompares(f); got != n {
			t.Errorf("%s: %d index comparisons with len(in) before the first load, want %d\n%s", f.Name, got, n, kir.Format(f))
		}
		g, _, ok := kir.AssumeFacts(f)
		if !ok {
			t.Errorf("%s: no launch facts", f.Name)
			continue
		}
		if got := lengthCompares(g); got != 0 {
			t.Errorf("%s: %d index comparisons with len(in) before the first load, want 0\n%s", g.Name, got, kir.Format(g))
		}
	}
	// The facts hold at the sizes people launch: a 4096² grid (4096×64×64
	// in 3-D) of 16×16 blocks (32×4×2 for Stencil3D) over slices of
	// exactly its points.
	for i, k := range m.Manifest.Kernels {
		launch, ok := map[string]struct {
			ext         [3]int64
			block, grid [3]uint32
		}{
			"Stencil2D": {[3]int64{4096, 4096, 1}, [3]uint32{16, 16, 1}, [3]uint32{256, 256, 1}},
			"Smooth2D":  {[3]int64{4096, 4096, 1}, [3]uint32{16, 16, 1}, [3]uint32{256, 256, 1}},
			"Stencil3D": {[3]int64{4096, 64, 64}, [3]uint32{32, 4, 2}, [3]uint32{128, 16, 32}},
			"Transpose": {[3]int64{4096, 4096, 1}, [3]uint32{32, 8, 1}, [3]uint32{128, 128, 1}},
		}[k.Name]
		if !ok {
			continue
		}
		_, facts, _ := kir.AssumeFacts(m.IR.Funcs[i])
		cells := map[int]uint64{}
		n := uint64(launch.ext[0] * launch.ext[1] * launch.ext[2])
		for _, p := range k.Params {
			switch {
			case p.Kind == "slice":
				cells[p.Entry[1]] = n
			case p.Name == "nx" || p.Name == "n":
				cells[p.Entry[0]] = uint64(launch.ext[0])
			case p.Name == "ny":
				cells[p.Entry[0]] = uint64(launch.ext[1])
			case p.Name == "nz":
				cells[p.Entry[0]] = uint64(launch.ext[2])
			}
		}
		hold, err := facts.Eval(func(i, off, size int) (uint64, bool) {
			v, ok := cells[i]
			return v, ok && off == 0 && size == 8
		}, launch.block, launch.grid)
		if err != nil || !hold {
			t.Errorf("%s: launch facts at %v: %v, %v; want true", k.Name, launch.ext, hold, err)
		}
	}
}

// lengthCompares counts, for the global load with the fewest, the
// comparisons of per-thread indices with len(in) in the blocks dominating
// it.
func lengthCompares(f *kir.Func) int {
	dom := kir.Dominators(f)
	got := -1
	for _, l := range f.Blocks {
		if !slices.ContainsFunc(l.Values, func(v *kir.Value) bool { return v.Op == kir.OpLoad && v.Args[0].Type.Space == kir.Global }) {
			continue
		}
		c := 0
		for _, b := range f.Blocks {
			if !dom.Dominates(b, l) {
				continue
			}
			for _, v := range b.Values {
				// u64(idx) < u64(len(in)) with idx depending on the thread.
				if v.Op == kir.OpLt && v.Args[1].Op == kir.OpBitcast && v.Args[1].Args[0].Op == kir.OpParam &&
					f.Params[v.Args[1].Args[0].Index].Name == "in_len" && perThread(v.Args[0], map[*kir.Value]bool{}) {
					c++
				}
			}
		}
		if got < 0 || c < got {
			got = c
		}
	}
	return got
}

// perThread reports whether v depends on a thread or block index.
func perThread(v *kir.Value, seen map[*kir.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	if v.Op == kir.OpSpecial {
		return v.Index < kir.BlockDimX
	}
	for _, a := range v.Args {
		if perThread(a, seen) {
			return true
		}
	}
	return false
}

// TestNonCoherentEntries: a kernel reading slices it does not write has an
// `_nc` entry point whose loads from them are ld.global.nc, named in the
// manifest with the read-only parameters; -O0 has none.
func TestNonCoherentEntries(t *testing.T) {
	m := build(t, codegen.Options{VerifyPasses: true}, "github.com/gpukvet/gpukvet/bench/kernels")
	for _, k := range m.Manifest.Kernels {
		if k.Name != "Triad" && k.Name != "Daxpy" {
			continue
		}
		// Triad(s, a, b, c) reads b and c; Daxpy(a, x, y) reads x (y is written).
		want := map[string][]int{"Triad": {2, 3}, "Daxpy": {1}}[k.Name]
		if k.EntryNC != k.Entry+"_nc" || !slices.Equal(k.ReadOnly, want) {
			t.Errorf("%s: entryNC %q readOnly %v, want %q %v", k.Name, k.EntryNC, k.ReadOnly, k.Entry+"_nc", want)
		}
		text := entry(t, m, k.EntryNC)
		if got := strings.Count(text, "ld.global.nc."); got != len(want) {
			t.Errorf("%s: %d ld.global.nc in %s, want %d\n%s", k.Name, got, k.EntryNC, len(want), text)
		}
		if strings.Contains(entry(t, m, k.Entry), "ld.global.nc") {
			t.Errorf("%s: the coherent entry has ld.global.nc", k.Name)
		}
	}
	o0 := build(t, codegen.Options{DisableOptimizer: true}, "github.com/gpukvet/gpukvet/bench/kernels")
	if strings.Contains(string(o0.PTX), "_nc(") || strings.Contains(string(o0.PTX), "ld.global.nc") {
		t.Error("-O0 emits non-coherent entry points")
	}
	for _, k := range o0.Manifest.Kernels {
		if k.EntryNC != "" || k.ReadOnly != nil {
			t.Errorf("-O0: %s has entryNC %q readOnly %v", k.Name, k.EntryNC, k.ReadOnly)
		}
	}
}

// TestFastVariants runs the variant of each kernel compiled assuming its
// launch facts (kir.AssumeFacts) on random inputs for which the facts
// hold, as the runtime decides them (gpuabi.Facts.Eval over the launch's
// parameters and shape): it must trap exactly when the unoptimized kernel
// traps and, for the race-free corpora, compute the same bytes. Some
// kernels must have variants and some runs must take them.
func TestFastVariants(t *testing.T) {
	variants, held := 0, 0
	for _, set := range optCorpora {
		opt := build(t, codegen.Options{VerifyPasses: true}, set.patterns...)
		raw := build(t, codegen.Options{DisableOptimizer: true}, set.patterns...)
		r := rand.New(rand.NewPCG(7, 11))
		for i, f := range opt.IR.Funcs {
			g, facts, ok := kir.AssumeFacts(f)
			if !ok {
				continue
			}
			if err := kir.Verify(g); err != nil {
				t.Fatalf("%s: %v\n%s", g.Name, err, kir.Format(g))
			}
			variants++
			k := opt.Manifest.Kernels[i]
			for trial := range 24 {
				grid, block := shapes(k)
				args := inputs(r, k, f, trial%6)
				if !factsHold(t, facts, args, grid, block) {
					continue
				}
				held++
				argsB := cloneArgs(args)
				trapA, errA := kirexec.Run(g, opt.IR.Shared, grid, block, args)
				trapB, errB := kirexec.Run(raw.IR.Funcs[i], raw.IR.Shared, grid, block, argsB)
				if errA != nil || errB != nil {
					t.Fatalf("%s: %v / %v", g.Name, errA, errB)
				}
				if !set.raceFree {
					continue
				}
				// (Which trapping thread reports first varies: threads run
				// concurrently in the interpreter.)
				if (trapA == nil) != (trapB == nil) {
					t.Errorf("%s: trap %+v with its facts assumed, %+v with -O0", g.Name, trapA, trapB)
					continue
				}
				if trapA == nil && !floatAtomics(f) && racyOnRandomInputs[k.Entry] == "" {
					for j := range args {
						if args[j].Buf != nil && !bytes.Equal(args[j].Buf.Data, argsB[j].Buf.Data) {
							t.Errorf("%s: parameter %s differs from -O0's", g.Name, k.EntryParams[j].Name)
						}
					}
				}
			}
		}
	}
	t.Logf("%d variants, %d runs with their facts holding", variants, held)
	if variants == 0 || held == 0 {
		t.Errorf("%d variants, %d runs with facts holding: the test proves nothing", variants, held)
	}
}

// factsHold evaluates facts for a kirexec launch as a runtime does.
func factsHold(t *testing.T, facts *gpuabi.Facts, args []kirexec.Arg, grid, block [3]int) bool {
	param := func(i, off, size int) (uint64, bool) {
		if i < 0 || i >= len(args) {
			return 0, false
		}
		a := args[i]
		if a.Bytes != nil {
			if off+size > len(a.Bytes) {
				return 0, false
			}
			var b [8]byte
			copy(b[:], a.Bytes[off:off+size])
			return binary.LittleEndian.Uint64(b[:]), true
		}
		if off+size > 8 {
			return 0, false
		}
		v := a.Bits >> (8 * off)
		if size < 8 {
			v &= 1<<(8*size) - 1
		}
		return v, true
	}
	u := func(d [3]int) [3]uint32 { return [3]uint32{uint32(d[0]), uint32(d[1]), uint32(d[2])} }
	ok, err := facts.Eval(param, u(block), u(grid))
	if err != nil {
		t.Fatalf("Eval: %v", err)
	}
	return ok
}

// TestUnrolledLoopsStayUnrolled checks that a loop the optimizer unrolled
// at run time (a PolyBench row loop, bound a plain parameter) tells the
// target's compiler not to unroll it again, in PTX and in SPIR-V: ptxas
// otherwise unrolled it a further 4 times (36 loads in flight per thread
// where nvcc has 10), and the kernel ran slower.
func TestUnrolledLoopsStayUnrolled(t *testing.T) {
	const src = `package apicalls

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=256
func RowSum(t gpu.Thread, nx, ny int, a, x, y []float32) {
	i := t.GlobalIdx().X
	if i < nx {
		for j := 0; j < ny; j++ {
			y[i] += a[i*ny+j] * x[j]
		}
	}
}

//gpu:kernel block=256
func Halving(t gpu.Thread, n int, x []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		s := float32(0)
		for k := n; k > 0; k >>= 1 {
			s += x[k%len(x)]
		}
		x[i] = s
	}
}
`
	m, err := buildSource(t, src, codegen.Options{SPIRV: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(m.PTX), "\t.pragma \"nounroll\";\n"); n == 0 {
		t.Errorf("no loop header of the PTX module says nounroll:\n%s", m.PTX)
	}
	// OpLoopMerge (246): merge block, continue target, loop control.
	words := make([]uint32, len(m.SPIRV)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(m.SPIRV[4*i:])
	}
	merges, dont := 0, 0
	for i := 5; i < len(words); {
		n, op := int(words[i]>>16), words[i]&0xffff
		if n == 0 {
			t.Fatalf("SPIR-V word %d: an instruction of no words", i)
		}
		if op == 246 {
			merges++
			if words[i+3]&0x2 != 0 { // DontUnroll
				dont++
			}
		}
		i += n
	}
	if dont == 0 || dont == merges {
		t.Errorf("%d of the SPIR-V module's %d loops say DontUnroll; want the unrolled ones only (RowSum's, not Halving's)", dont, merges)
	}
}
