package srchash

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDir(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.go", "package p\n")
	h1, err := Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Tests and generated files do not count.
	write(t, dir, "a_test.go", "package p\n// x\n")
	write(t, dir, "gpukvet_gen.go", GeneratedHeader+"\n\npackage p\n")
	if h2, _ := Dir(dir); h2 != h1 {
		t.Errorf("a test or generated file changed the hash")
	}
	// A change to a source file does.
	write(t, dir, "a.go", "package p\n\nfunc F() {}\n")
	if h3, _ := Dir(dir); h3 == h1 {
		t.Errorf("editing a.go left the hash unchanged")
	}
	// So does a new file.
	write(t, dir, "a.go", "package p\n")
	write(t, dir, "b.go", "package p\n")
	if h4, _ := Dir(dir); h4 == h1 {
		t.Errorf("adding b.go left the hash unchanged")
	}
	if _, err := Dir(filepath.Join(dir, "missing")); err == nil {
		t.Error("Dir of a missing folder: no error")
	}
}

// TestComments checks that editing a comment in place leaves the hash as it
// was, while a directive, a moved line or a code change does not.
func TestComments(t *testing.T) {
	dir := t.TempDir()
	hash := func(src string) string {
		t.Helper()
		write(t, dir, "k.go", src)
		h, err := Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := hash("package k\n\n// K scales.\n//\n//gpu:kernel\nfunc K(x int) int { return 2 * x } // twice\n")
	for _, tc := range []struct {
		src  string
		same bool
	}{
		{"package k\n\n// K doubles.\n//\n//gpu:kernel\nfunc K(x int) int { return 2 * x } // double\n", true},
		{"package k\n\n/* K doubles. */\n//\n//gpu:kernel\nfunc K(x int) int { return 2 * x }\n", true},
		{"package k\n\n// K scales.\n//\n//gpu:kernel block=64\nfunc K(x int) int { return 2 * x } // twice\n", false},
		{"package k\n\n// K scales.\n// More.\n//\n//gpu:kernel\nfunc K(x int) int { return 2 * x } // twice\n", false},
		{"package k\n\n// K scales.\n//\n//gpu:kernel\nfunc K(x int) int { return 3 * x } // twice\n", false},
		{"package k\n\n// K scales.\n//go:noinline\n//gpu:kernel\nfunc K(x int) int { return 2 * x } // twice\n", false},
	} {
		if got := hash(tc.src) == base; got != tc.same {
			t.Errorf("same hash = %v, want %v, for:\n%s", got, tc.same, tc.src)
		}
	}
}
