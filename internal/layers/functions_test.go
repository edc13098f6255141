package layers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxLines is the most lines a function may span, from func to its
// closing brace: a reader should be able to follow one in a sitting.
const maxLines = 150

// exempt holds the folders, relative to the module root, whose functions
// may be longer. codegen/internal/kirexec is the kernel-IR interpreter:
// its value function is one switch over every op of the IR, which reads
// best as a table in one place.
var exempt = []string{"codegen/internal/kirexec"}

// A longFunc is a function over maxLines.
type longFunc struct {
	name  string // package folder and name, "Type.Method" for a method
	pos   token.Position
	lines int
}

// TestFunctionLength fails on every function of the module over maxLines
// lines, in every Go file that is not generated (ast.IsGenerated), test
// files and testdata included, outside the exempt folders.
func TestFunctionLength(t *testing.T) {
	long, err := longFuncs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range long {
		t.Errorf("%s (%s) is %d lines, over %d: split it into steps a reader can follow", f.name, f.pos, f.lines, maxLines)
	}
}

// longFuncs returns the functions over maxLines in the Go files below
// root, the module root, leaving out generated files, the exempt folders,
// and the folders the go command ignores (names starting with . or _).
func longFuncs(root string) ([]longFunc, error) {
	var long []longFunc
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, file)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || slices.Contains(exempt, rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if !ast.IsGenerated(f) {
			long = append(long, longFuncsOf(fset, f, path.Dir(rel))...)
		}
		return nil
	})
	return long, err
}

// longFuncsOf returns the functions over maxLines declared in f, a file
// of the package in folder dir.
func longFuncsOf(fset *token.FileSet, f *ast.File, dir string) []longFunc {
	var long []longFunc
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		pos := fset.Position(fd.Pos())
		lines := fset.Position(fd.End()).Line - pos.Line + 1
		if lines <= maxLines {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = receiverType(fd.Recv.List[0].Type) + "." + name
		}
		long = append(long, longFunc{name: fmt.Sprintf("%s.%s", dir, name), pos: pos, lines: lines})
	}
	return long
}

// receiverType is the name of a receiver's type, without * and type
// parameters.
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}
