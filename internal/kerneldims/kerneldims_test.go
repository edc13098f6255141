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
func (r byName) IsKernel(fd *ast.FuncDecl) bool {
	return fd.Name.Name == "kernel" || fd.Name.Name[0] == 'k'
}
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

// TestLaunchParams checks that a kernel's gpu.Dim3 argument is launch data
// (reading its Y or Z adds no dimension) unless the kernel writes, rebinds
// or takes the address of it, and that a device function's parameter
// still counts (its caller may pass a thread index), as does a kernel's
// for a kernel that calls it.
func TestLaunchParams(t *testing.T) {
	src := `package p
func kRead(t T, d D) { _ = d.Y; _ = (d).Z }
func kWrite(t T, d D) { d.Y = t.ThreadIdx().Y; _ = d.Y }
func kAddr(t T, d D) { p := &d; _ = p; _ = d.Z }
func kShadow(t T, d D) { if true { d := t.ThreadIdx(); _ = d.Y } }
func kClosure(t T, d D) { f := func(d D) int { return d.Y }; _ = f }
func kLocal(t T, d D) { e := d; _ = e.Y }
func helper(d D) int { return d.Y }
func kCallsKernel(t T) { kRead(t, t.ThreadIdx()) }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := byName{}
	var roots []*ast.FuncDecl
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		r[fd.Name.Name] = fd
		roots = append(roots, fd)
	}
	g := Walk[*ast.FuncDecl](r, roots, nil)
	for name, want := range map[string]int{"kRead": 0, "kWrite": 2, "kAddr": 3, "kShadow": 2, "kClosure": 2, "kLocal": 2, "helper": 2, "kCallsKernel": 3} {
		if got := g.Dims[r[name]]; got != want {
			t.Errorf("Dims[%s] = %d, want %d", name, got, want)
		}
	}
}
