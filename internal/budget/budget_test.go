package budget

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"func f() {}", 1},                              // the block
		{"func f(x int) int { return x*3 + 1 }", 7},     // block, return, +, *, x, 3, 1
		{"func f(x int) int { return g(x) + g(x) }", 9}, // block, return, +, 2 × (call, g, x)
	} {
		file, err := parser.ParseFile(token.NewFileSet(), "f.go", "package p\n"+tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := Size(file.Decls[0].(*ast.FuncDecl).Body); got != tc.want {
			t.Errorf("Size(%s) = %d, want %d", tc.src, got, tc.want)
		}
	}
	if Size(nil) != 0 {
		t.Error("Size(nil) != 0")
	}
}

func TestCounted(t *testing.T) {
	for path, want := range map[string]bool{
		"github.com/gpukvet/gpukvet/gpu":             false,
		"github.com/gpukvet/gpukvet/codegen/devmath": false,
		"math":             false,
		"math/bits":        false,
		"example.com/kern": true,
		"kernels":          true,
	} {
		if Counted(path) != want {
			t.Errorf("Counted(%q) = %v, want %v", path, !want, want)
		}
	}
}

func TestMessagesNameTheLimit(t *testing.T) {
	if m := SizeError("kernel K", MaxSize+1); !strings.Contains(m, "budget.MaxSize") || !strings.Contains(m, strconv.Itoa(MaxSize)) {
		t.Errorf("SizeError: %s", m)
	}
	if m := DepthError("kernel K", MaxDepth+1); !strings.Contains(m, "budget.MaxDepth") || !strings.Contains(m, strconv.Itoa(MaxDepth+1)+" deep") {
		t.Errorf("DepthError: %s", m)
	}
}
