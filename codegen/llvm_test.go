package codegen_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/llvm"
)

// llcPath finds LLVM 19's llc ($LLC, llc-19 or llc on $PATH).
func llcPath(t *testing.T) string {
	if p := os.Getenv("LLC"); p != "" {
		return p
	}
	for _, name := range []string{"llc-19", "llc"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("llc not found (Debian's llvm-19): the LLVM IR is not compiled")
	return ""
}

// TestLLVM emits LLVM IR for the construct corpus and the examples and
// compiles it with llc for AMD (gfx90a code objects) and NVIDIA (PTX, then
// assembled by ptxas).
func TestLLVM(t *testing.T) {
	llc := llcPath(t)
	ptxas := ptxasPath(t)
	m := corpusBuild(t)
	dir := t.TempDir()
	for _, target := range []string{"amdgcn", "nvptx"} {
		text, err := llvm.Emit(m.IR, llvm.Options{Target: target})
		if err != nil {
			t.Fatal(err)
		}
		ll := filepath.Join(dir, target+".ll")
		if err := os.WriteFile(ll, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var args []string
		out := filepath.Join(dir, target+".out")
		if target == "amdgcn" {
			args = []string{"-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-O2", "-filetype=obj", ll, "-o", out}
		} else {
			args = []string{"-march=nvptx64", "-mcpu=sm_80", "-O2", ll, "-o", out}
		}
		if msg, err := exec.Command(llc, args...).CombinedOutput(); err != nil {
			t.Errorf("llc %s: %v\n%s", target, err, msg)
			continue
		}
		if target == "nvptx" {
			if msg, err := exec.Command(ptxas, "-arch=sm_90", "-o", os.DevNull, out).CombinedOutput(); err != nil {
				t.Errorf("ptxas on llc's PTX: %v\n%s", err, msg)
			}
		}
	}
	if _, err := llvm.Emit(m.IR, llvm.Options{Target: "spirv"}); err == nil {
		t.Error("llvm.Emit accepted an unknown target")
	}
}

// TestHSACO builds an AMD code object (llc, then ld.lld) for the examples.
func TestHSACO(t *testing.T) {
	for _, tool := range [][]string{{"llc-19", "llc"}, {"ld.lld-19", "ld.lld"}} {
		found := false
		for _, name := range tool {
			if _, err := exec.LookPath(name); err == nil {
				found = true
			}
		}
		if !found {
			t.Skipf("%s not found (Debian's llvm-19 and lld-19): no AMD code object", tool[0])
		}
	}
	m := build(t, codegen.Options{Target: "hsaco", Checks: analyzers.All()}, "github.com/gpukvet/gpukvet/examples/...")
	if !bytes.HasPrefix(m.HSACO, []byte("\x7fELF")) {
		t.Fatalf("the code object is not an ELF file (%d bytes)", len(m.HSACO))
	}
	for _, k := range m.Manifest.Kernels {
		if !bytes.Contains(m.HSACO, []byte(k.Entry+".kd")) {
			t.Errorf("no kernel descriptor for %s in the code object", k.Entry)
		}
	}
	if m.Manifest.Arch != "gfx90a" {
		t.Errorf("manifest arch %q, want gfx90a", m.Manifest.Arch)
	}
}
