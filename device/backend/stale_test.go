package backend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/internal/srchash"
)

func TestCheckStale(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "k.go")
	os.WriteFile(src, []byte("package k\n"), 0o644)
	h, err := srchash.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	k := &Kernel{Name: "k.K", Pos: src + ":3", Code: &Code{SourceHash: h}}
	if err := CheckStale(k); err != nil {
		t.Fatalf("fresh code: %v", err)
	}
	os.WriteFile(src, []byte("package k\n\nfunc F() {}\n"), 0o644)
	if err := CheckStale(k); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("after editing the source: %v, want a stale-code error", err)
	}
	// Sources not on this machine: trusted.
	k.Pos = filepath.Join(dir, "gone", "k.go") + ":3"
	if err := CheckStale(k); err != nil {
		t.Fatalf("sources absent: %v", err)
	}
}
