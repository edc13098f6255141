package device

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/gpukvet/gpukvet/internal/kerneldims"
)

// A kernel with no generated code has not been through the checks that
// `gpukvet gen` runs, and some constructs the memspace check forbids would
// hang or kill the program on the cpu backend instead of failing cleanly:
// unbounded recursion overflows the goroutine's stack, which Go cannot
// recover from, and channel operations, select, go and defer have no
// meaning on a GPU thread. Launch therefore refuses a kernel whose source
// (its body and the package's functions it calls, by name) holds one, with
// an error naming the construct and its position. The memspace check
// (gpukvet, go vet) reports these and the constructs that need types to
// see (maps, package variables, interfaces, ...), which run on the cpu
// backend but compile for no GPU.

// forbiddenIn returns the error for the first forbidden construct that
// kernel reaches, or nil.
func forbiddenIn(pkg *srcPkg, file *ast.File, kernel *ast.FuncDecl, name string) error {
	funcs := map[string]*ast.FuncDecl{}
	for _, f := range pkg.files {
		if f.Name.Name != file.Name.Name {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				funcs[fd.Name.Name] = fd
			}
		}
	}
	f := &forbidWalker{pkg: pkg, funcs: funcs, done: map[*ast.FuncDecl]bool{}, onPath: map[*ast.FuncDecl]bool{}}
	f.walk(kernel)
	if f.err != "" {
		return fmt.Errorf("kernel %s: %s (the memspace check forbids it: run gpukvet on the package)", name, f.err)
	}
	return nil
}

type forbidWalker struct {
	pkg    *srcPkg
	funcs  map[string]*ast.FuncDecl
	done   map[*ast.FuncDecl]bool
	onPath map[*ast.FuncDecl]bool
	path   []string
	err    string
}

func (w *forbidWalker) pos(p token.Pos) string {
	pp := w.pkg.fset.Position(p)
	return fmt.Sprintf("%s:%d", pp.Filename, pp.Line)
}

func (w *forbidWalker) walk(fd *ast.FuncDecl) {
	if w.err != "" || w.done[fd] {
		return
	}
	w.onPath[fd] = true
	w.path = append(w.path, fd.Name.Name)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if w.err != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			w.err = "go statement at " + w.pos(n.Pos()) + ": kernel code cannot start goroutines"
		case *ast.DeferStmt:
			w.err = "defer at " + w.pos(n.Pos()) + ": kernel code cannot defer calls"
		case *ast.SelectStmt:
			w.err = "select at " + w.pos(n.Pos()) + ": kernel code cannot use channels"
		case *ast.SendStmt:
			w.err = "channel send at " + w.pos(n.Pos()) + ": kernel code cannot use channels"
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				w.err = "channel receive at " + w.pos(n.Pos()) + ": kernel code cannot use channels"
			}
		case *ast.FuncLit:
			w.err = "function literal at " + w.pos(n.Pos()) + ": kernel code cannot use closures"
		case *ast.CallExpr:
			fun := kerneldims.Callee(n)
			id, ok := fun.(*ast.Ident)
			if !ok {
				break
			}
			callee := w.funcs[id.Name]
			if callee == nil {
				break
			}
			if w.onPath[callee] {
				w.err = fmt.Sprintf("recursive call of %s at %s (%s → %s): kernel code cannot recurse", id.Name, w.pos(n.Pos()), strings.Join(w.path, " → "), id.Name)
				return false
			}
			w.walk(callee)
		}
		return true
	})
	w.path = w.path[:len(w.path)-1]
	w.onPath[fd] = false
	w.done[fd] = true
}
