package stdsyntax

import (
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestStdWithoutBodies loads a package that imports much of the standard
// library with ParseFile: every standard package type-checks (once the
// imports only bodies used are forgiven) and has no body left.
func TestStdWithoutBodies(t *testing.T) {
	goroot := GOROOT()
	if goroot == "" {
		t.Fatal("go env GOROOT failed")
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, ParseFile: ParseFile(goroot)}
	roots, err := packages.Load(cfg, "net/http")
	if err != nil {
		t.Fatal(err)
	}
	ForgiveImports(roots, goroot)
	n := 0
	packages.Visit(roots, nil, func(p *packages.Package) {
		n++
		if p.IllTyped {
			t.Errorf("%s: ill-typed: %v", p.PkgPath, p.Errors)
		}
		for i, f := range p.Syntax {
			if !strings.HasPrefix(p.CompiledGoFiles[i], stdPrefix(goroot)) {
				continue // cgo's output, in the build cache
			}
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && len(fn.Body.List) != 1 {
					t.Errorf("%s: %s kept its body", p.PkgPath, fn.Name.Name)
					return
				}
			}
		}
	})
	if n < 50 {
		t.Errorf("net/http and its dependencies are %d packages; want many more", n)
	}
}
