package hostgen

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/internal/directive"
	"github.com/gpukvet/gpukvet/internal/srchash"
)

// Package is a loaded package that holds kernels, as Load returns it.
type Package struct {
	pkg     *packages.Package
	dir     string
	kernels []*kernel // in name order
	// overlay replaces the files gen wrote earlier with bare package
	// clauses, for every load of the package (see Load).
	overlay map[string][]byte
}

// Path returns the package's import path.
func (p *Package) Path() string { return p.pkg.PkgPath }

// Dir returns the package's folder, where its generated file goes.
func (p *Package) Dir() string { return p.dir }

// kernel is one //gpu:kernel function.
type kernel struct {
	name   string
	fn     *types.Func
	params []*types.Var // after the gpu.Thread
}

// Load loads the packages that patterns name and returns those holding
// //gpu:kernel functions. A pattern that names a single package without
// kernels is an error; one with "..." skips such packages.
func Load(patterns []string) ([]*Package, error) {
	overlay, err := generatedOverlay(patterns)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule,
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(q *packages.Package) {
		for _, e := range q.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s does not load:\n\t%s", strings.Join(patterns, " "), strings.Join(errs, "\n\t"))
	}
	var gps []*Package
	wildcard := len(pkgs) > 1 || strings.Contains(strings.Join(patterns, " "), "...")
	for _, p := range pkgs {
		if len(p.GoFiles) == 0 && wildcard {
			continue // only tests, say
		}
		gp, err := kernelsOf(p)
		if err != nil {
			return nil, err
		}
		if len(gp.kernels) == 0 {
			if !wildcard {
				return nil, fmt.Errorf("package %s has no //gpu:kernel functions", p.PkgPath)
			}
			continue
		}
		gp.overlay = overlay
		gps = append(gps, gp)
	}
	return gps, nil
}

// generatedOverlay returns the files of the packages patterns name that
// gen wrote earlier, as bare package clauses: loaded so, an out-of-date one
// (say, calling a kernel whose parameters changed) cannot keep the package
// from loading.
func generatedOverlay(patterns []string) (map[string][]byte, error) {
	first, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles}, patterns...)
	if err != nil {
		return nil, err
	}
	overlay := map[string][]byte{}
	for _, p := range first {
		for _, f := range p.GoFiles {
			if data, err := os.ReadFile(f); err == nil && srchash.IsGenerated(data) {
				overlay[f] = []byte(srchash.GeneratedHeader + "\n\npackage " + p.Name + "\n")
			}
		}
	}
	return overlay, nil
}

// kernelsOf finds the kernels of a loaded package.
func kernelsOf(p *packages.Package) (*Package, error) {
	if len(p.GoFiles) == 0 {
		return nil, fmt.Errorf("package %s has no Go files", p.PkgPath)
	}
	gp := &Package{pkg: p, dir: filepath.Dir(p.GoFiles[0])}
	for _, f := range p.Syntax {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			k, err := kernelOf(p, fd)
			if err != nil {
				return nil, err
			}
			if k != nil {
				gp.kernels = append(gp.kernels, k)
			}
		}
	}
	sort.Slice(gp.kernels, func(i, j int) bool { return gp.kernels[i].name < gp.kernels[j].name })
	return gp, nil
}

// kernelOf returns the kernel that fd declares, or nil if fd is not one.
func kernelOf(p *packages.Package, fd *ast.FuncDecl) (*kernel, error) {
	d, err := directive.Find(fd.Doc)
	if err != nil {
		return nil, fmt.Errorf("%v: %v", p.Fset.Position(fd.Pos()), err)
	}
	if d.Kind != directive.Kernel {
		return nil, nil
	}
	fn, _ := p.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return nil, nil
	}
	sig := fn.Signature()
	if sig.TypeParams().Len() > 0 {
		return nil, fmt.Errorf("%v: kernel %s is generic; gen compiles only non-generic kernels", p.Fset.Position(fd.Pos()), fn.Name())
	}
	var params []*types.Var
	for i := 1; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	return &kernel{name: fn.Name(), fn: fn, params: params}, nil
}
