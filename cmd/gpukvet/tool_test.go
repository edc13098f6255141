package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
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
	// The fresh module's go.sum starts as the checkout's, so the go
	// command never asks the checksum database for a module it adds (a
	// machine may reach only the module proxy, DESIGN.md); go mod tidy
	// below drops what is unused.
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
	// Every module the checkout's go.sum names is fetched first, through
	// GOPROXY as configured and checked against that go.sum: go get below
	// reads go.mod files of the whole module graph, which building the
	// checkout does not download (with a cold module cache it failed on
	// jsonrpc2's requirement of gorilla/websocket). Then the rest runs with
	// GOPROXY=off, so that go get's query for the newest gpukvet reaches no
	// proxy, which knows none: gpukvet is the checkout, by the replace.
	download := append([]string{"GOFLAGS=", "GOWORK=off", "go", "mod", "download"}, modulesOf(string(sum))...)
	if r := run(t, dir, "env", download...); r.code != 0 {
		t.Fatalf("go mod download: exit %d\n%s", r.code, r.stderr)
	}
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

// modulesOf returns the module@version of each module a go.sum names.
func modulesOf(sum string) []string {
	var mods []string
	for _, line := range strings.Split(sum, "\n") {
		if f := strings.Fields(line); len(f) == 3 && !strings.HasSuffix(f[1], "/go.mod") {
			mods = append(mods, f[0]+"@"+f[1])
		}
	}
	return mods
}

// TestCISnippet runs the GitHub Actions step of docs/using.md, as Actions
// runs it (bash -eo pipefail), in a module that has gpukvet as a tool: the
// step must fail on a package that does not type-check (with `go run`, exit
// 2 became 1, which the step accepts) and pass on findings only.
func TestCISnippet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gpukvet as a tool of a fresh module")
	}
	t.Parallel()
	script := ciStep(t)
	for _, tc := range []struct {
		files map[string]string
		fail  bool
	}{
		{map[string]string{"broken/broken.go": typeError, "bad/bad.go": malformed}, true},
		{map[string]string{"bad/bad.go": malformed}, false},
	} {
		dir := writeModule(t, tc.files)
		gomod := filepath.Join(dir, "go.mod")
		mod, _ := os.ReadFile(gomod)
		if err := os.WriteFile(gomod, append(mod, "\ntool github.com/gpukvet/gpukvet/cmd/gpukvet\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		// As go get -tool leaves it: every module the tool needs required.
		if r := run(t, dir, "go", "mod", "tidy"); r.code != 0 {
			t.Fatalf("go mod tidy: exit %d\n%s", r.code, r.stderr)
		}
		r := run(t, dir, "env", "RUNNER_TEMP="+t.TempDir(), "GOFLAGS=", "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		if failed := r.code != 0; failed != tc.fail {
			t.Errorf("on %v: exit %d, want failure %v; the step:\n%s\n%s", slices.Sorted(maps.Keys(tc.files)), r.code, tc.fail, script, r.stderr)
		}
		if sarif, _ := os.ReadFile(filepath.Join(dir, "gpukvet.sarif")); !strings.Contains(string(sarif), `"ruleId": "ignore"`) {
			t.Errorf("gpukvet.sarif lacks the finding:\n%s", sarif)
		}
	}
}

// ciStep returns the script of the GitHub Actions step of docs/using.md
// that writes gpukvet.sarif (a `run: |` block).
func ciStep(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs/using.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n- run: |\n")
	if !ok {
		t.Fatal("docs/using.md has no `- run: |` step")
	}
	var script strings.Builder
	for _, l := range strings.Split(rest, "\n") {
		line, ok := strings.CutPrefix(l, "    ")
		if !ok {
			break
		}
		script.WriteString(line + "\n")
	}
	if !strings.Contains(script.String(), "gpukvet.sarif") {
		t.Fatalf("the step does not write gpukvet.sarif:\n%s", script.String())
	}
	return script.String()
}
