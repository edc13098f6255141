package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeValidator writes a script that stands for a validator: it prints out
// and exits with code.
func fakeValidator(t *testing.T, out string, code int) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "tool")
	script := "#!/bin/sh\nprintf '%s\\n' '" + out + "'\nexit " + strconv.Itoa(code) + "\n"
	if err := os.WriteFile(file, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestBuildValidate: -validate runs the validators it finds, says which it
// cannot find without failing, and fails when one refuses the module,
// naming the entry and Go line of the PTX line ptxas cites.
func TestBuildValidate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "basic.ptx")
	args := []string{"-validate", "-o", out, codegenCorpus + "basic"}

	goCmd, lookErr := exec.LookPath("go")
	if lookErr != nil {
		t.Skip("no go command")
	}
	t.Setenv("PATH", filepath.Dir(goCmd)) // go, but neither ptxas nor spirv-val
	t.Setenv("PTXAS", "")
	var stdout, stderr bytes.Buffer
	if code := runBuild(args, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "-validate: ptxas not found (set PTXAS or put it on PATH") {
		t.Errorf("without ptxas: exit %d, stderr %q; want 0 and ptxas not found", code, stderr.String())
	}

	t.Setenv("PTXAS", fakeValidator(t, "", 0))
	stderr.Reset()
	if code := runBuild(args, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Errorf("with a ptxas that accepts: exit %d, stderr %q", code, stderr.String())
	}

	ptx, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(string(ptx)[:strings.Index(string(ptx), "mul.wide")], "\n")
	t.Setenv("PTXAS", fakeValidator(t, "ptxas module.ptx, line "+strconv.Itoa(line)+"; error   : refused", 1))
	stderr.Reset()
	if code := runBuild(args, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "ptxas refuses the PTX of") ||
		!strings.Contains(stderr.String(), "(PTX line "+strconv.Itoa(line)+" is in entry basic_Saxpy, from Go line codegen/testdata/kernels/basic/") {
		t.Errorf("with a ptxas that refuses line %d: exit %d, stderr %q", line, code, stderr.String())
	}
}

// TestGenValidate checks an example's modules with the real ptxas (from
// $PTXAS or scripts/install-ptxas.sh's cache) and spirv-val, where
// installed: both accept them.
func TestGenValidate(t *testing.T) {
	if os.Getenv("PTXAS") == "" {
		if cached, _ := filepath.Abs("../../.cache/ptxas/usr/bin/ptxas"); fileExists(cached) {
			t.Setenv("PTXAS", cached)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := runGen([]string{"-check", "-validate", "../../examples/saxpy"}, &stdout, &stderr); code != 0 {
		t.Errorf("gen -check -validate: exit %d, stderr %q", code, stderr.String())
	}
	t.Logf("stderr: %q", stderr.String())
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
