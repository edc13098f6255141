package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
)

const codegenCorpus = "github.com/gpukvet/gpukvet/codegen/testdata/kernels/"

func TestBuildWritesModuleAndManifest(t *testing.T) {
	out := filepath.Join(t.TempDir(), "basic.ptx")
	var stdout, stderr bytes.Buffer
	if code := runBuild([]string{"-arch=sm_90", "-o", out, codegenCorpus + "basic"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	ptx, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ptx), ".target sm_90") || !strings.Contains(string(ptx), ".entry basic_Saxpy(") {
		t.Errorf("module lacks the target or the entry:\n%s", ptx)
	}
	data, err := os.ReadFile(out + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m codegen.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Module != "basic.ptx" || len(m.Kernels) != 1 || m.Kernels[0].Entry != "basic_Saxpy" || len(m.Kernels[0].EntryParams) != 6 {
		t.Errorf("manifest %s", data)
	}
}

func TestBuildExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "usage"},
		{[]string{"-target=metal", codegenCorpus + "basic"}, 2, "not supported"},
		{[]string{"-target=spirv", "-o", filepath.Join(dir, "b.spv"), codegenCorpus + "basic"}, 0, ""},
		{[]string{"-target=llvm-amdgcn", "-o", filepath.Join(dir, "a.ll"), codegenCorpus + "basic"}, 0, ""},
		{[]string{"-o", filepath.Join(dir, "x.ptx"), codegenCorpus + "refused"}, 1, "[divergence]"},
		{[]string{"-o", filepath.Join(dir, "y.ptx"), codegenCorpus + "nosuchpackage"}, 2, "loading packages"},
		{[]string{"-skip-passes=licm,unrol", codegenCorpus + "basic"}, 2, `no optimizer pass is named "unrol" (the passes: fold,`},
		{[]string{"-skip-passes=licm,unroll-runtime", "-o", filepath.Join(dir, "z.ptx"), codegenCorpus + "basic"}, 0, ""},
	} {
		var stdout, stderr bytes.Buffer
		if code := runBuild(tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("gpukvet build %v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, stderr.String(), tc.code, tc.msg)
		}
	}
}
