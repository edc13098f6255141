package device

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/directive"
	"github.com/gpukvet/gpukvet/internal/kernelapi"
	"github.com/gpukvet/gpukvet/internal/kerneldims"
)

// A kernel that no generated code registered is described from its source:
// the runtime finds the file that declares it (through runtime.FuncForPC),
// parses the files of its package once, reads the //gpu:kernel directive
// with internal/directive (as the analyzers do), and works out the kernel's
// dimensionality with internal/kerneldims (as the analyzers do), resolving
// names from the syntax. This needs the sources where the program
// runs; a binary run elsewhere registers its kernels with `gpukvet gen`.

// srcPkg is the parsed Go files of one directory.
type srcPkg struct {
	fset  *token.FileSet
	files map[string]*ast.File // by file name as the runtime reports it
	err   error
}

var (
	srcMu   sync.Mutex
	srcDirs = map[string]*srcPkg{}
)

// parseDir parses every Go file of dir once, and caches the result.
func parseDir(dir string) *srcPkg {
	srcMu.Lock()
	defer srcMu.Unlock()
	if p := srcDirs[dir]; p != nil {
		return p
	}
	p := &srcPkg{fset: token.NewFileSet(), files: map[string]*ast.File{}}
	srcDirs[dir] = p
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		p.err = err
		return p
	}
	for _, name := range names {
		f, err := parser.ParseFile(p.fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil && f == nil {
			continue // an unreadable file cannot hold the kernel; others may
		}
		p.files[filepath.ToSlash(name)] = f
	}
	return p
}

// kernelFromSource describes kernel fn, whose qualified name is name, from
// its source file.
func kernelFromSource(fn reflect.Value, name string) (*kernel, error) {
	_, short, ok := splitFuncName(name)
	if !ok {
		return nil, fmt.Errorf("%s is not a //gpu:kernel function: a kernel is a top-level function whose doc comment holds //gpu:kernel", name)
	}
	rf := runtime.FuncForPC(fn.Pointer())
	file, _ := rf.FileLine(rf.Entry())
	if _, err := os.Stat(file); err != nil {
		return nil, fmt.Errorf("kernel %s: cannot read its source to find its //gpu:kernel directive: %v (a program run away from its sources registers its kernels with code that `gpukvet gen` writes)", name, err)
	}
	pkg := parseDir(filepath.Dir(file))
	f := pkg.files[filepath.ToSlash(file)]
	if f == nil {
		return nil, fmt.Errorf("kernel %s: cannot parse its source file %s", name, file)
	}
	var fd *ast.FuncDecl
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Recv == nil && d.Name.Name == short {
			fd = d
		}
	}
	if fd == nil {
		return nil, fmt.Errorf("kernel %s: no declaration of %s in %s", name, short, file)
	}
	declPos := pkg.fset.Position(fd.Pos())
	dir, err := directive.Find(fd.Doc)
	if err != nil {
		pos := declPos
		if de, ok := err.(*directive.Error); ok {
			pos = pkg.fset.Position(de.Comment.Pos())
		}
		return nil, fmt.Errorf("kernel %s: malformed directive at %s:%d: %v", name, pos.Filename, pos.Line, err)
	}
	if dir.Kind != directive.Kernel {
		return nil, fmt.Errorf("%s is not a //gpu:kernel function: its declaration at %s:%d has no //gpu:kernel directive", name, declPos.Filename, declPos.Line)
	}
	k := &kernel{Kernel: backend.Kernel{
		Name:  name,
		Pos:   fmt.Sprintf("%s:%d", declPos.Filename, declPos.Line),
		Func:  fn,
		Block: shape(dir.Block),
		Grid:  shape(dir.Grid),
	}}
	k.params = paramNames(fd)
	if err := checkSignature(k, fn.Type()); err != nil {
		return nil, err
	}
	if err := forbiddenIn(pkg, f, fd, name); err != nil {
		return nil, fmt.Errorf("%w; Launch refuses it", err)
	}
	k.Dims = kernelDims(pkg, f, fd)
	return k, nil
}

// paramNames returns the names of fd's parameters after the first.
func paramNames(fd *ast.FuncDecl) []string {
	var names []string
	for _, field := range fd.Type.Params.List {
		if len(field.Names) == 0 {
			names = append(names, "")
		}
		for _, n := range field.Names {
			names = append(names, n.Name)
		}
	}
	if len(names) > 0 {
		names = names[1:]
	}
	return names
}

func shape(s [3]int) gpu.Dim3 {
	if !directive.Fixed(s) {
		return gpu.Dim3{}
	}
	return gpu.Dim3{X: s[0], Y: s[1], Z: s[2]}
}

// kernelDims returns 1, 2 or 3: the kernel's dimensionality, computed by
// internal/kerneldims.Walk (kernel discovery's own rule) over the syntax of
// the kernel's package. Without types, the resolver cannot tell every
// gpu.Dim3 apart from another struct with a Y field, so it errs towards
// more dimensions: that only lets Launch accept more shapes, never refuse a
// shape the analyzers (which use types) allow.
func kernelDims(pkg *srcPkg, file *ast.File, kernel *ast.FuncDecl) int {
	r := &syntaxResolver{kernel: kernel, fileOf: map[*ast.FuncDecl]*ast.File{kernel: file}, funcs: map[string][]*ast.FuncDecl{}, methods: map[string][]*ast.FuncDecl{}, scopes: map[*ast.FuncDecl]*syntaxScope{}}
	pkgName := file.Name.Name
	for _, f := range pkg.files {
		if f.Name.Name != pkgName {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				r.fileOf[fd] = f
				if fd.Recv == nil {
					r.funcs[fd.Name.Name] = append(r.funcs[fd.Name.Name], fd)
				} else {
					r.methods[fd.Name.Name] = append(r.methods[fd.Name.Name], fd)
				}
			}
		}
	}
	g := kerneldims.Walk[*ast.FuncDecl](r, []*ast.FuncDecl{kernel}, nil)
	return max(1, g.Dims[kernel])
}

// syntaxResolver resolves names for kerneldims.Walk from syntax alone: a
// call by name reaches every function (or method) of the package of that
// name, and a call that hands a Thread to a package other than gpu, math and
// math/bits may read any dimension.
type syntaxResolver struct {
	kernel         *ast.FuncDecl
	fileOf         map[*ast.FuncDecl]*ast.File
	funcs, methods map[string][]*ast.FuncDecl
	scopes         map[*ast.FuncDecl]*syntaxScope
}

// syntaxScope is what the resolver knows of the names in one function.
type syntaxScope struct {
	imports map[string]string   // local name → path
	params  map[string]ast.Expr // parameter name → type
	threads map[string]bool     // names of gpu.Thread parameters
}

func (r *syntaxResolver) Decl(fd *ast.FuncDecl) *ast.FuncDecl { return fd }

func (r *syntaxResolver) IsKernel(fd *ast.FuncDecl) bool { return fd == r.kernel }

func (r *syntaxResolver) scope(fd *ast.FuncDecl) *syntaxScope {
	if sc := r.scopes[fd]; sc != nil {
		return sc
	}
	sc := &syntaxScope{imports: map[string]string{}, params: map[string]ast.Expr{}, threads: map[string]bool{}}
	for _, imp := range r.fileOf[fd].Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		local := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		sc.imports[local] = path
	}
	for _, list := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
		if list == nil {
			continue
		}
		for _, field := range list.List {
			for _, n := range field.Names {
				sc.params[n.Name] = field.Type
				if isNamedType(field.Type, "Thread") {
					sc.threads[n.Name] = true
				}
			}
		}
	}
	r.scopes[fd] = sc
	return sc
}

func (r *syntaxResolver) IsDim3(fd *ast.FuncDecl, x ast.Expr) bool {
	sc := r.scope(fd)
	return !notDim3(x, sc.params, sc.imports)
}

// Refs follows a call to a function or method of the package, and assumes
// three dimensions for a call that hands a Thread to another package.
func (r *syntaxResolver) Refs(fd *ast.FuncDecl, n ast.Node) ([]*ast.FuncDecl, int) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return nil, 0
	}
	fun := kerneldims.Callee(call)
	switch f := fun.(type) {
	case *ast.Ident:
		return r.funcs[f.Name], 0
	case *ast.SelectorExpr:
		sc := r.scope(fd)
		if x, ok := f.X.(*ast.Ident); ok {
			if path, ok := sc.imports[x.Name]; ok {
				if !kernelapi.Uncounted(path) && mentions(call.Args, sc.threads) {
					return nil, 3
				}
				return nil, 0
			}
		}
		return r.methods[f.Sel.Name], 0
	}
	return nil, 0
}

// notDim3 reports whether x, the operand of a .Y or .Z selector, is surely
// not a gpu.Dim3: a package name, a parameter of another declared type, or an
// element of a slice parameter of another element type.
func notDim3(x ast.Expr, params map[string]ast.Expr, imports map[string]string) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		if _, ok := imports[x.Name]; ok {
			if _, shadowed := params[x.Name]; !shadowed {
				return true
			}
		}
		if t, ok := params[x.Name]; ok {
			return !isNamedType(t, "Dim3")
		}
	case *ast.IndexExpr:
		if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
			if t, ok := params[id.Name].(*ast.ArrayType); ok {
				return !isNamedType(t.Elt, "Dim3")
			}
		}
	}
	return false
}

// isNamedType reports whether the type expression t is name or pkg.name, or a
// pointer to one.
func isNamedType(t ast.Expr, name string) bool {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name == name
	case *ast.SelectorExpr:
		return t.Sel.Name == name
	}
	return false
}

// mentions reports whether any of the expressions uses one of the names.
func mentions(exprs []ast.Expr, names map[string]bool) bool {
	found := false
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && names[id.Name] {
				found = true
			}
			return !found
		})
	}
	return found
}
