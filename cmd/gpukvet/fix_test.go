package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixAndDiff runs -diff and -fix on the divergence analyzer's fix test
// package and compares the fixed file with that test's golden file.
func TestFixAndDiff(t *testing.T) {
	requireAnalyzer(t, "divergence")
	src, err := os.ReadFile(filepath.Join(repoRoot, "divergence/testdata/src/fix/fix.go"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join(repoRoot, "divergence/testdata/src/fix/fix.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	dir := writeModule(t, map[string]string{"fix/fix.go": string(src)})
	file := filepath.Join(dir, "fix/fix.go")

	r := gpukvet(t, dir, "-diff", "./...")
	wantCode(t, r, exitFindings)
	if !strings.Contains(r.stdout, "+\tif i < n {") || !strings.Contains(r.stdout, "(old)") {
		t.Errorf("-diff output lacks the fix:\n%s", r.stdout)
	}
	if now, _ := os.ReadFile(file); string(now) != string(src) {
		t.Fatalf("-diff changed the file")
	}

	// -fix applies the fixes, then prints the findings that have none and
	// exits 1 for them, as a run without -fix would afterwards: a hook or
	// CI step running -fix never passes code with findings left.
	fixRun := gpukvet(t, dir, "-fix", "./...")
	wantCode(t, fixRun, exitFindings)
	if !strings.Contains(fixRun.stderr, "applied") {
		t.Errorf("-fix says nothing about what it did: %q", fixRun.stderr)
	}
	if now, _ := os.ReadFile(file); string(now) != string(golden) {
		t.Errorf("-fix wrote:\n%s\nwant (divergence's golden file):\n%s", now, golden)
	}

	// What remains has no fix: -diff shows nothing and says so by exit 0.
	r = gpukvet(t, dir, "-diff", "./...")
	wantCode(t, r, exitClean)
	if r.stdout != "" {
		t.Errorf("-diff after -fix printed:\n%s", r.stdout)
	}
	r = gpukvet(t, dir, "./...")
	wantCode(t, r, exitFindings)
	if strings.Contains(r.stdout, "fix.go:14:") {
		t.Errorf("the fixed barrier is still reported:\n%s", r.stdout)
	}
	if fixRun.stdout != r.stdout {
		t.Errorf("-fix printed as left unfixed:\n%s\nbut a run after it finds:\n%s", fixRun.stdout, r.stdout)
	}
	// With nothing left, -fix exits 0 and prints nothing.
	r = gpukvet(t, writeModule(t, map[string]string{"good/good.go": clean}), "-fix", "./...")
	wantCode(t, r, exitClean)
	if r.stdout != "" {
		t.Errorf("-fix on a clean module printed:\n%s", r.stdout)
	}
}
