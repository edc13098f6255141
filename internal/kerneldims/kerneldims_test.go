package kerneldims

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// byName resolves calls by function name and takes every .Y or .Z as a
// Dim3's: the simplest resolver, to test the walk itself.
type byName map[string]*ast.FuncDecl

func (r byName) Decl(fd *ast.FuncDecl) *ast.FuncDecl { return fd }
func (byName) IsDim3(*ast.FuncDecl, ast.Expr) bool   { return true }
func (r byName) Refs(_ *ast.FuncDecl, n ast.Node) ([]*ast.FuncDecl, int) {
	if call, ok := n.(*ast.CallExpr); ok {
		if id, ok := call.Fun.(*ast.Ident); ok {
			if fd := r[id.Name]; fd != nil {
				return []*ast.FuncDecl{fd}, 0
			}
			if id.Name == "other" {
				return nil, 2 // a function of another package that reads Y
			}
		}
	}
	return nil, 0
}

func TestWalk(t *testing.T) {
	src := `package p
func flat() { _ = i.X }
func viaCycle() { ping() }
func ping() { pong() }
func pong() { ping(); _ = i.Z }
func viaOther() { other() }
func unreached() { _ = i.Z }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := byName{}
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		r[fd.Name.Name] = fd
	}
	g := Walk[*ast.FuncDecl](r, []*ast.FuncDecl{r["flat"], r["viaCycle"], r["viaOther"]}, nil)
	for name, want := range map[string]int{"flat": 0, "viaCycle": 3, "ping": 3, "pong": 3, "viaOther": 2} {
		if got := g.Dims[r[name]]; got != want {
			t.Errorf("Dims[%s] = %d, want %d", name, got, want)
		}
	}
	if len(g.Reached) != 5 {
		t.Errorf("reached %d functions, want 5 (not unreached)", len(g.Reached))
	}
	if _, ok := g.Dims[r["unreached"]]; ok {
		t.Error("unreached was walked")
	}
}
