package codegen_test

import (
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
)

const argsSource = `package apicalls

import (
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

//gpu:kernel
func Small(t gpu.Thread, x []float32) {
	if i := t.GlobalIdx().X; i < len(x) {
		x[i] = math32.FMA(x[i], x[i], 1)
	}
}

//gpu:kernel
func Wide(t gpu.Thread, a, b, c, d, e, f, g, h []float32, s float32) {
	if i := t.GlobalIdx().X; i < len(a) && i < len(h) {
		h[i] = a[i]*s + b[0] + c[0] + d[0] + e[0] + f[0] + g[0]
	}
}
`

// TestSPIRVArgsBuffer: a kernel whose parameters exceed Vulkan's minimum
// of 128 bytes of push constants is described in the manifest as taking
// them through an argument buffer (8 bytes of push constants: its
// address), a small one as push constants; both modules validate. And
// math32.FMA is the float32 FMA instruction in PTX (its Go body, exact
// through float64, is for the CPU).
func TestSPIRVArgsBuffer(t *testing.T) {
	m, err := buildSource(t, argsSource, codegen.Options{Checks: analyzers.All(), SPIRV: true})
	if err != nil {
		t.Fatal(err)
	}
	compileEverywhere(t, "args", m)
	want := map[string]struct {
		args       bool
		push, size int
	}{
		"Small": {false, 24, 24},         // slice 16, trap 8
		"Wide":  {true, 8, 8*16 + 8 + 8}, // 8 slices, s (4, padded), trap
	}
	for _, k := range m.Manifest.Kernels {
		w, ok := want[k.Name]
		if !ok || k.SPIRV == nil {
			t.Fatalf("kernel %s: unexpected, or no spirv info", k.Name)
		}
		if k.SPIRV.ArgsBuffer != w.args || k.SPIRV.PushConstantSize != w.push || k.SPIRV.ArgsSize != w.size {
			t.Errorf("%s: argsBuffer %v pushConstantSize %d argsSize %d, want %v %d %d", k.Name, k.SPIRV.ArgsBuffer, k.SPIRV.PushConstantSize, k.SPIRV.ArgsSize, w.args, w.push, w.size)
		}
		if last := k.SPIRV.PushConstants[len(k.SPIRV.PushConstants)-1]; last.Role != "trap" || last.Offset+last.Size != w.size {
			t.Errorf("%s: the trap address is at %+v, want the block's last 8 bytes", k.Name, last)
		}
	}
	if !strings.Contains(string(m.PTX), "fma.rn.f32") {
		t.Error("math32.FMA is not fma.rn.f32 in PTX")
	}
}
