package codegen_test

import (
	"encoding/binary"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
)

// loopVarAddr is the Go meaning of the differential kernel LoopVarAddr for
// one n: addresses of per-iteration loop variables used within their
// iteration, and the variable of the iteration a loop leaves by break.
func loopVarAddr(n int32) int32 {
	s := int32(0)
	for k := int32(0); k < n; k++ {
		p := &k
		*p += k % 3
		var a [2]int32
		q := &a[k%2]
		*q = k
		s = s*3 + a[0] - a[1]
	}
	var found *int32
	for k := int32(0); k < 20; k++ {
		if k*k > n {
			found = &k
			break
		}
	}
	if found != nil {
		s += 1000 * *found
	}
	return s
}

// TestLoopVariables runs LoopVarAddr in the kernel-IR interpreter, with
// and without the optimizer, against Go.
func TestLoopVariables(t *testing.T) {
	ns := []int32{0, 1, 2, 3, 4, 5, 17, 399, 400, 499}
	in := make([]byte, 4*len(ns))
	for i, n := range ns {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(n))
	}
	for _, opts := range []codegen.Options{{}, {DisableOptimizer: true}} {
		m := build(t, opts, "github.com/gpukvet/gpukvet/testdata/differential/kernels")
		i := kernelIndex(t, m, "LoopVarAddr")
		f := m.IR.Funcs[i]
		out := make([]byte, len(in))
		args := make([]kirexec.Arg, len(f.Params))
		for _, p := range m.Manifest.Kernels[i].Params {
			buf := map[string][]byte{"n": in, "out": out}[p.Name]
			args[p.Entry[0]] = kirexec.Arg{Buf: &kirexec.Buffer{Name: p.Name, Data: buf}}
			args[p.Entry[1]] = kirexec.Arg{Bits: uint64(len(ns))}
		}
		if trap, err := kirexec.Run(f, m.IR.Shared, [3]int{1, 1, 1}, [3]int{len(ns), 1, 1}, args); err != nil || trap != nil {
			t.Fatalf("LoopVarAddr: %v %v", trap, err)
		}
		for j, n := range ns {
			if got, want := int32(binary.LittleEndian.Uint32(out[4*j:])), loopVarAddr(n); got != want {
				t.Errorf("optimizer off %v: n=%d: %d, want %d", opts.DisableOptimizer, n, got, want)
			}
		}
	}
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
