// Package stdsyntax lets go/packages load the standard library without its
// function bodies. gpukvet's analyzers look into a package's function
// bodies only when it uses the gpu or device packages (or carries a
// //gpu: directive), which no standard package does; the standard library
// is still type-checked from source (for its declarations, and so that
// every analyzer runs on it, as facts require), only much faster.
package stdsyntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// GOROOT returns the root of the Go installation that go/packages runs.
var GOROOT = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// ParseFile returns a go/packages ParseFile function that
// parses files under goroot with each function body replaced by
// { panic(0) } (which type-checks whatever the results) and other files
// whole. The imports that only the bodies used become unused: see
// ForgiveImports.
func ParseFile(goroot string) func(*token.FileSet, string, []byte) (*ast.File, error) {
	std := stdPrefix(goroot)
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		const mode = parser.AllErrors | parser.ParseComments | parser.SkipObjectResolution
		f, err := parser.ParseFile(fset, filename, src, mode)
		if std == "" || !strings.HasPrefix(filename, std) || f == nil {
			return f, err
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
				at := fn.Body.Lbrace
				fn.Body = &ast.BlockStmt{Lbrace: at, Rbrace: fn.Body.Rbrace, List: []ast.Stmt{
					&ast.ExprStmt{X: &ast.CallExpr{
						Fun:    &ast.Ident{NamePos: at, Name: "panic"},
						Lparen: at, Rparen: at,
						Args: []ast.Expr{&ast.BasicLit{ValuePos: at, Kind: token.INT, Value: "0"}},
					}},
				}}
			}
		}
		return f, err
	}
}

func stdPrefix(goroot string) string {
	if goroot == "" {
		return ""
	}
	return filepath.Join(goroot, "src") + string(filepath.Separator)
}

// ForgiveImports drops the "imported and not used" errors that
// ParseFile causes in standard-library packages, and
// recomputes which packages are ill-typed.
func ForgiveImports(roots []*packages.Package, goroot string) {
	std := stdPrefix(goroot)
	if std == "" {
		return
	}
	// "fmt" imported and not used; "errors" imported as errpkg and not used
	unused := func(msg string) bool {
		return strings.Contains(msg, " imported ") && strings.HasSuffix(msg, " and not used")
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.GoFiles) > 0 && strings.HasPrefix(p.GoFiles[0], std) {
			p.Errors = slices.DeleteFunc(p.Errors, func(e packages.Error) bool { return unused(e.Msg) })
			p.TypeErrors = slices.DeleteFunc(p.TypeErrors, func(e types.Error) bool { return unused(e.Msg) })
		}
		p.IllTyped = len(p.Errors) > 0
		for _, imp := range p.Imports {
			p.IllTyped = p.IllTyped || imp.IllTyped
		}
	})
}
