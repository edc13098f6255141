package codegen_test

import (
	"encoding/binary"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
	k "github.com/gpukvet/gpukvet/testdata/differential/kernels"
)

// TestLoopVariables runs the differential kernels on Go 1.22's
// per-iteration variables in the kernel-IR interpreter, with and without
// the optimizer, against Go (the cpu backend): addresses used within
// their iteration, after a break (LoopVarAddr), and kept past their
// iteration, which the compiler gives a slot per iteration (LoopVarKept).
func TestLoopVariables(t *testing.T) {
	ns := []int32{0, 1, 2, 3, 4, 5, 17, 399, 400, 499, -7, -1 << 31}
	kernels := []struct {
		name string
		fn   any
	}{{"LoopVarAddr", k.LoopVarAddr}, {"LoopVarKept", k.LoopVarKept}}
	cpu, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	in := make([]byte, 4*len(ns))
	for i, n := range ns {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(n))
	}
	for _, opts := range []codegen.Options{{}, {DisableOptimizer: true}} {
		m := build(t, opts, "github.com/gpukvet/gpukvet/testdata/differential/kernels")
		for _, kn := range kernels {
			want := runOnCPU(t, cpu, kn.fn, ns)
			i := kernelIndex(t, m, kn.name)
			f := m.IR.Funcs[i]
			out := make([]byte, len(in))
			args := make([]kirexec.Arg, len(f.Params))
			for _, p := range m.Manifest.Kernels[i].Params {
				buf := map[string][]byte{"n": in, "out": out}[p.Name]
				args[p.Entry[0]] = kirexec.Arg{Buf: &kirexec.Buffer{Name: p.Name, Data: buf}}
				args[p.Entry[1]] = kirexec.Arg{Bits: uint64(len(ns))}
			}
			if trap, err := kirexec.Run(f, m.IR.Shared, [3]int{1, 1, 1}, [3]int{len(ns), 1, 1}, args); err != nil || trap != nil {
				t.Fatalf("%s: %v %v", kn.name, trap, err)
			}
			for j, n := range ns {
				if got := int32(binary.LittleEndian.Uint32(out[4*j:])); got != want[j] {
					t.Errorf("%s, optimizer off %v: n=%d: %d, want %d", kn.name, opts.DisableOptimizer, n, got, want[j])
				}
			}
		}
	}
}

// runOnCPU launches kernel(n, out) over ns on the cpu backend, which runs
// the kernel's Go code, and returns out.
func runOnCPU(t *testing.T, d *device.Device, kernel any, ns []int32) []int32 {
	t.Helper()
	nb, err := device.Upload(d, ns)
	if err != nil {
		t.Fatal(err)
	}
	defer nb.Free()
	ob, err := device.Alloc[int32](d, len(ns))
	if err != nil {
		t.Fatal(err)
	}
	defer ob.Free()
	if err := d.Launch(kernel, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: len(ns), Y: 1, Z: 1}, nb, ob); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	out, err := ob.Download()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func kernelIndex(t *testing.T, m *codegen.Module, name string) int {
	t.Helper()
	for i, k := range m.Manifest.Kernels {
		if k.Name == name {
			return i
		}
	}
	t.Fatalf("no kernel %s", name)
	return 0
}
