package spirv_test

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/spirv/testdata/breakjoin"
	"github.com/gpukvet/gpukvet/codegen/spirv/testdata/continuejoin"
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	cpubackend "github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/kerngen"
)

// TestJoinShapesOnVulkan runs the kernels of testdata/breakjoin and
// testdata/continuejoin (the shapes of issue 21's random programs R002
// and R025 of seed 1 and R038 of seed 2 that the structurizer once refused), built optimized and
// unoptimized with SPIR-V, on the vulkan backend (lavapipe in CI) and
// compares every result with Go's, computed by the cpu backend. It skips
// without a Vulkan device.
func TestJoinShapesOnVulkan(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two packages twice and runs them on Vulkan")
	}
	vk, err := device.OpenBackend("vulkan")
	if err != nil {
		t.Skipf("no vulkan device: %v", err)
	}
	defer vk.Close()
	// The testdata packages have no gpukvet_gen.go: the cpu backend runs
	// their Go source by reflection, as the reference.
	defer cpubackend.SetWarnings(cpubackend.SetWarnings(io.Discard))
	cpu, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	u64 := []string{"uint64", "uint64", "uint64"}
	kernels := map[string]kerngen.Kernel{
		"BreakInNestedIf": {Name: "BreakInNestedIf", Fn: breakjoin.BreakInNestedIf, In: u64, Out: u64, Block: 64, Grid: 2},
		"AndContinue":     {Name: "AndContinue", Fn: continuejoin.AndContinue, In: u64, Out: u64, Block: 64, Grid: 2},
		"OrLoopContinue":  {Name: "OrLoopContinue", Fn: continuejoin.OrLoopContinue, In: u64, Out: u64, Block: 64, Grid: 2},
	}
	r := rand.New(rand.NewPCG(21, 2))
	for _, o0 := range []bool{false, true} {
		m, err := codegen.Build([]string{mod + "codegen/spirv/testdata/breakjoin", mod + "codegen/spirv/testdata/continuejoin"},
			codegen.Options{DisableOptimizer: o0, SPIRV: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, ki := range m.Manifest.Kernels {
			k, ok := kernels[ki.Name]
			if !ok {
				t.Fatalf("no table entry for kernel %s", ki.Name)
			}
			if why := m.SPIRVFailed[ki.Name]; why != "" {
				t.Errorf("%s, %s: no SPIR-V: %s", ki.Name, optName(o0), why)
				continue
			}
			spec := device.KernelSpec{Dims: ki.Dims, Block: gpu.Dim3{X: k.Block, Y: 1, Z: 1},
				Code: &backend.Code{PTX: m.PTX, SPIRV: m.SPIRV, SPIRVFeatures: m.Manifest.SPIRVFeatures, Entry: ki.Entry, Positions: m.Manifest.Positions}}
			if err := device.RegisterKernel(k.Fn, spec); err != nil {
				t.Fatal(err)
			}
			rows, err := k.Inputs(0, k.Block*k.Grid, r)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := k.Run(cpu, rows)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := k.Run(vk, rows)
			if err != nil {
				t.Fatalf("vulkan: %v", err)
			}
			for _, d := range k.Diff(rows, want, got) {
				t.Errorf("%s, %s: vulkan: %s", ki.Name, optName(o0), d.Text)
			}
		}
	}
}
