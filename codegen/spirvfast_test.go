package codegen_test

import (
	"bytes"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
)

const fastSource = `package fast

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=32,8
func Stencil(t gpu.Thread, nx, ny int, in, out []float32) {
	g := t.GlobalIdx()
	x, y := g.X, g.Y
	if x >= 1 && x < nx-1 && y >= 1 && y < ny-1 {
		c := y*nx + x
		out[c] = in[c] + in[c-1] + in[c+1] + in[c-nx] + in[c+nx]
	}
}

//gpu:kernel
func Plain(t gpu.Thread, x []float32) {
	if i := t.GlobalIdx().X; i < len(x) {
		x[i] = 2 * x[i]
	}
}
`

// TestSPIRVFastVariant: a kernel with launch facts has, in the SPIR-V
// module as in PTX, its variant assuming them as one more entry point
// named as the PTX one, named by the manifest's spirv.entryFast; a kernel
// without facts has none; the module (every kernel and variant) passes
// spirv-val.
func TestSPIRVFastVariant(t *testing.T) {
	m, err := buildSource(t, fastSource, codegen.Options{Checks: analyzers.All(), SPIRV: true})
	if err != nil {
		t.Fatal(err)
	}
	compileEverywhere(t, "fast", m)
	seen := 0
	for _, k := range m.Manifest.Kernels {
		if k.SPIRV == nil {
			t.Fatalf("kernel %s has no spirv info", k.Name)
		}
		if k.Facts == nil || k.EntryFast == "" {
			if k.SPIRV.EntryFast != "" {
				t.Errorf("%s: spirv.entryFast %q without facts", k.Name, k.SPIRV.EntryFast)
			}
			continue
		}
		seen++
		if k.SPIRV.EntryFast != k.EntryFast || k.EntryFast != k.Entry+"_fast" {
			t.Errorf("%s: spirv.entryFast %q, entryFast %q; want both %q", k.Name, k.SPIRV.EntryFast, k.EntryFast, k.Entry+"_fast")
		}
		if !bytes.Contains(m.SPIRV, append([]byte(k.EntryFast), 0)) {
			t.Errorf("%s: the SPIR-V module has no entry point %q", k.Name, k.EntryFast)
		}
	}
	if seen != 1 {
		t.Errorf("%d kernels with launch facts, want 1 (Stencil)", seen)
	}
}
