package hostgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// parseGenerated parses a generated file with go/parser, which refuses a
// file nested past its limit (maxNestLev) as a whole.
func parseGenerated(t *testing.T, src []byte) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), DefaultFile, src, 0)
	if err != nil {
		t.Fatalf("generated code does not parse: %v", err)
	}
	return f
}

// depth is how deep the tree under n nests, in nodes.
func depth(n ast.Node) int {
	cur, most := 0, 0
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			cur--
			return false
		}
		cur++
		most = max(most, cur)
		return true
	})
	return most
}

// topDecl is the declaration of name in f.
func topDecl(t *testing.T, f *ast.File, name string) ast.Node {
	t.Helper()
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == name {
				return d
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok && vs.Names[0].Name == name {
					return vs
				}
			}
		}
	}
	t.Fatalf("generated file lacks %s", name)
	return nil
}

// TestLargeModuleLiteralParses: the literal of a SPIR-V module of 5 MiB,
// over 100000 quoted chunks, is Go that go/parser accepts (one + chain of
// them exceeded its nesting limit: issue 21's generated ops suite), holds
// the module's bytes, and nests about as deep as one chain of maxChain.
func TestLargeModuleLiteralParses(t *testing.T) {
	module := make([]byte, 5<<20)
	rand.NewChaCha8([32]byte{21}).Read(module)
	src := "package p\n\nvar gpukvetSPIRV = []byte(" + bytesLiteral(module) + ")\n"
	spec := topDecl(t, parseGenerated(t, []byte(src)), "gpukvetSPIRV")
	var got bytes.Buffer
	ast.Inspect(spec, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok {
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			got.WriteString(s)
		}
		return true
	})
	if !bytes.Equal(got.Bytes(), module) {
		t.Fatalf("gpukvetSPIRV holds %d bytes, not the %d of the module", got.Len(), len(module))
	}
	if d := depth(spec); d > maxChain+64 {
		t.Errorf("gpukvetSPIRV nests %d deep, want at most about one chain of %d", d, maxChain)
	}
}

// branchesKernel is a kernel of n branches one after another, every tenth
// around a barrier (so that gen splits the body at them), as a generated
// operator suite writes them.
func branchesKernel(n int) string {
	var b strings.Builder
	b.WriteString("package branches\n\nimport \"github.com/gpukvet/gpukvet/gpu\"\n\n")
	b.WriteString("// Branches has many branches in sequence.\n//\n//gpu:kernel block=64\n")
	b.WriteString("func Branches(t gpu.Thread, xs []int32, n int32) {\n\ti := t.ThreadIdx().X\n")
	for k := range n {
		if k%10 == 9 {
			fmt.Fprintf(&b, "\tif n > %d {\n\t\tt.Barrier()\n\t}\n", k)
			continue
		}
		fmt.Fprintf(&b, "\tif xs[i] > %d {\n\t\txs[i] -= %d\n\t} else {\n\t\txs[i] += n\n\t}\n", k, k)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestManyBranchesNestShallow: a kernel of 2000 branches in sequence gets
// a cpu block function that parses and nests as its body does, not as
// deep as it is long.
func TestManyBranchesNestShallow(t *testing.T) {
	dir, err := os.MkdirTemp("testdata", "branches")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "kernels.go"), []byte(branchesKernel(2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := Load([]string{"./" + dir})
	if err != nil {
		t.Fatal(err)
	}
	src, _, err := generate(ps[0], fake)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("gpukvetB.PhaseBarrier(")) {
		t.Fatal("gen did not split the kernel at its barriers")
	}
	fn := topDecl(t, parseGenerated(t, src), "gpukvetCPUBranches")
	if d := depth(fn); d > 64 {
		t.Errorf("gpukvetCPUBranches nests %d deep, want at most 64", d)
	}
}
