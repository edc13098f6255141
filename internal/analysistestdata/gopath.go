// Package analysistestdata lays out GOPATH trees for the analysistest tests
// of gpukvet's analyzers.
//
// Test packages of an analyzer import github.com/gpukvet/gpukvet/gpu and
// .../device. analysistest.Run loads packages in GOPATH mode from
// dir/src, so those imports must resolve inside that tree. Rather than
// keep a copy in every analyzer's testdata, this package holds one stub of
// both (testdata/src/github.com/gpukvet/gpukvet/{gpu,device}: the public
// API of DIALECT.md with trivial bodies), and GOPATH merges it with an
// analyzer's own testdata into a temporary tree:
//
//	func TestX(t *testing.T) {
//		dir := analysistestdata.GOPATH(t, analysistest.TestData())
//		analysistest.Run(t, dir, x.Analyzer, "case1", "case2")
//	}
package analysistestdata

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// GOPATH returns a new temporary directory whose src holds the stub gpu and
// device packages and everything under dir/src of each dir (later dirs win
// on a clash). Files are copied, .golden files included, so that
// analysistest.RunWithSuggestedFixes works on the result too.
func GOPATH(t testing.TB, dirs ...string) string {
	t.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("analysistestdata: cannot locate the stub packages")
	}
	root := t.TempDir()
	srcs := append([]string{filepath.Join(filepath.Dir(self), "testdata")}, dirs...)
	for _, d := range srcs {
		if err := copyTree(filepath.Join(d, "src"), filepath.Join(root, "src")); err != nil {
			t.Fatalf("analysistestdata: %v", err)
		}
	}
	return root
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}
