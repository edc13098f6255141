package codegen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"path/filepath"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kernelapi"
)

// Prepare and Compile split Build for the benchmark: loading and checking
// once, lowering and emitting per iteration.
func Prepare(patterns []string, opts Options) (func() (*Module, error), error) {
	var pp *prepared
	saved := buildHook
	buildHook = func(p *prepared) { pp = p }
	defer func() { buildHook = saved }()
	if _, err := Build(patterns, opts); err != nil {
		return nil, err
	}
	return func() (*Module, error) { return pp.compile(patterns) }, nil
}

var (
	baseOnce sync.Once
	basePkgs map[string]*packages.Package // package gpu and codegen/devmath
	baseErr  error
)

// PrepareSource compiles src, the one file of a package named name in dir
// (written there by the caller), as Build would, but without loading
// packages: package gpu and codegen/devmath are loaded once per test
// binary and src is type-checked against them, so that a fuzz input costs
// its checks and compilation only. It returns a function that compiles the
// checked package for a target (the ptx module is the one Build made), or
// the error of type checking or of the checks' run.
func PrepareSource(dir, name, src string, opts Options) (func(target string) (*Module, error), error) {
	baseOnce.Do(func() {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, kernelapi.DevMathPath, gpuapi.Path)
		if err == nil && packages.PrintErrors(pkgs) > 0 {
			err = errors.New("loading gpu and devmath failed")
		}
		baseErr = err
		basePkgs = map[string]*packages.Package{}
		for _, p := range pkgs {
			basePkgs[p.PkgPath] = p
		}
	})
	if baseErr != nil {
		return nil, baseErr
	}
	gpu, devmath := basePkgs[gpuapi.Path], basePkgs[kernelapi.DevMathPath]
	file := filepath.Join(dir, name+".go")
	f, err := parser.ParseFile(gpu.Fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	path := "fuzz/" + name
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{
		GoVersion: "go1.26",
		Sizes:     types.SizesFor("gc", "amd64"),
		Importer: importerFunc(func(p string) (*types.Package, error) {
			if p == gpuapi.Path {
				return gpu.Types, nil
			}
			return nil, fmt.Errorf("%s: only package gpu can be imported here", p)
		}),
	}
	tp, err := conf.Check(path, gpu.Fset, []*ast.File{f}, info)
	if err != nil {
		return nil, err
	}
	root := &packages.Package{ID: path, Name: name, PkgPath: path, GoFiles: []string{file}, CompiledGoFiles: []string{file},
		Syntax: []*ast.File{f}, Types: tp, TypesInfo: info, TypesSizes: conf.Sizes, Fset: gpu.Fset,
		Imports: map[string]*packages.Package{gpuapi.Path: gpu}}

	var pp *prepared
	saved := buildHook
	buildHook = func(p *prepared) { pp = p }
	defer func() { buildHook = saved }()
	opts.Target, opts.Arch = "ptx", "sm_80"
	mod, err := buildLoaded([]*packages.Package{devmath, root}, []string{path}, opts)
	if pp == nil {
		return nil, err
	}
	return func(target string) (*Module, error) {
		if target == "ptx" {
			return mod, err
		}
		o := *pp
		o.opts.Target = target
		switch target {
		case "spirv":
			o.opts.Arch = "vulkan1.2"
		case "hsaco":
			o.opts.Arch = "gfx90a"
		}
		return o.compile([]string{path})
	}, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
