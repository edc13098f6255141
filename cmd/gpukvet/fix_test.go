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

	r = gpukvet(t, dir, "-fix", "./...")
	wantCode(t, r, exitClean)
	if !strings.Contains(r.stderr, "applied") {
		t.Errorf("-fix says nothing about what it did: %q", r.stderr)
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
}
