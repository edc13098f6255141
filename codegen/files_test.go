package codegen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
)

// TestWriteFiles: the module and its manifest, named for the package by
// default, the manifest naming the module.
func TestWriteFiles(t *testing.T) {
	m := build(t, codegen.Options{}, corpus+"basic")
	t.Chdir(t.TempDir())
	file, err := m.WriteFiles("ptx", "")
	if err != nil || file != "basic.ptx" {
		t.Fatalf("WriteFiles: %q, %v; want basic.ptx", file, err)
	}
	if data, _ := os.ReadFile(file); !bytes.Equal(data, m.PTX) {
		t.Error("the module file is not the PTX")
	}
	data, err := os.ReadFile(file + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var manifest codegen.Manifest
	if err := json.Unmarshal(data, &manifest); err != nil || manifest.Module != "basic.ptx" {
		t.Errorf("manifest %s (%v): want module basic.ptx", data, err)
	}
	for target, want := range map[string]string{"ptx": ".ptx", "spirv": ".spv", "llvm-amdgcn": ".ll", "hsaco": ".hsaco", "metal": ""} {
		if ext, ok := codegen.FileExt(target); ext != want || ok != (want != "") {
			t.Errorf("FileExt(%s) = %q, %v; want %q", target, ext, ok, want)
		}
	}
}
