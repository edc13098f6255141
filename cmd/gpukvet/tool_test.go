package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoGetTool installs gpukvet in a fresh module as the README says, with
// go get -tool (this checkout standing in for the release through a
// replace), and runs it as go tool gpukvet and from //go:generate.
func TestGoGetTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gpukvet as a tool of a fresh module")
	}
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/fresh\n\ngo 1.26.0\n\nrequire github.com/gpukvet/gpukvet v0.0.0\n\nreplace github.com/gpukvet/gpukvet => " + repoRoot + "\n",
		"saxpy/saxpy.go": `package saxpy

import "github.com/gpukvet/gpukvet/gpu"

//go:generate go tool gpukvet gen

// Saxpy computes y = a*x + y.
//
//gpu:kernel
func Saxpy(t gpu.Thread, a float32, x, y []float32) {
	i := t.GlobalIdx().X
	if i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}
`,
	}
	// The fresh module's go.sum starts as the checkout's: with GOPROXY=off
	// the go command would otherwise ask the checksum database itself for
	// every module it adds, which a machine that reaches only the module
	// proxy cannot do (DESIGN.md); go mod tidy below drops what is unused.
	sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(sum)
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Everything comes from the module cache, which building this
	// checkout filled: the proxy knows no gpukvet at v0.0.0.
	goCmd := func(args ...string) result {
		t.Helper()
		cmd := []string{"env", "GOPROXY=off", "GOFLAGS=", "GOWORK=off", "go"}
		return run(t, dir, cmd[0], append(cmd[1:], args...)...)
	}
	for _, args := range [][]string{
		{"get", "-tool", "github.com/gpukvet/gpukvet/cmd/gpukvet"},
		{"tool", "gpukvet", "./..."},
		{"generate", "./..."},
		{"mod", "tidy"},
		{"build", "./..."},
		{"mod", "tidy", "-diff"},
	} {
		if r := goCmd(args...); r.code != 0 {
			t.Fatalf("go %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(mod), "tool github.com/gpukvet/gpukvet/cmd/gpukvet") {
		t.Errorf("go.mod has no tool line:\n%s", mod)
	}
	if _, err := os.Stat(filepath.Join(dir, "saxpy/gpukvet_gen.go")); err != nil {
		t.Errorf("go generate did not run gpukvet gen: %v", err)
	}
}
