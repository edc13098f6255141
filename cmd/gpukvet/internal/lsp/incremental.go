package lsp

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"golang.org/x/tools/go/packages"
)

// A universe is what the last go/packages load produced, kept so that an
// edit which changes no package's imports or files is re-checked without
// running go list again: the edited packages, and every package that
// imports them, are parsed and type-checked anew against the unchanged
// rest. go list is most of a load's cost.
type universe struct {
	fset    *token.FileSet
	byDir   map[string][]*packages.Package // root packages (every variant) by folder
	all     []*packages.Package            // every package reachable from the roots
	content map[string][]byte              // a root package's file → the content its syntax holds
}

// newUniverse records a load of roots, whose open files had the contents
// of overlay.
func newUniverse(roots []*packages.Package, overlay map[string][]byte) *universe {
	u := &universe{byDir: map[string][]*packages.Package{}, content: map[string][]byte{}}
	for _, p := range roots {
		if u.fset == nil {
			u.fset = p.Fset
		}
		if len(p.CompiledGoFiles) == 0 {
			continue
		}
		dir := filepath.Dir(p.CompiledGoFiles[0])
		u.byDir[dir] = append(u.byDir[dir], p)
		for _, f := range p.CompiledGoFiles {
			if c, ok := overlay[f]; ok {
				u.content[f] = c
			} else if c, err := os.ReadFile(f); err == nil {
				u.content[f] = c
			}
		}
	}
	packages.Visit(roots, nil, func(p *packages.Package) { u.all = append(u.all, p) })
	return u
}

// recheck returns the root packages of the target folders with the open
// files' contents in snap, re-checked in u without go list, and true; or
// false when that is not sound: a folder not loaded before, a file whose
// imports or package clause changed, a package that did not type-check or
// whose syntax does not match its files.
func (u *universe) recheck(snap *snapshot, targets []string) ([]*packages.Package, bool) {
	var roots []*packages.Package
	for _, dir := range targets {
		ps := u.byDir[dir]
		if len(ps) == 0 {
			return nil, false
		}
		roots = append(roots, ps...)
	}
	inPackages := map[string]bool{}
	for _, p := range u.all {
		for _, f := range p.CompiledGoFiles {
			inPackages[f] = true
		}
	}
	changed := map[string][]byte{}
	for path, d := range snap.docs {
		old, known := u.content[path]
		if bytes.Equal(old, d.text) {
			continue
		}
		// A file go list did not place (a new file, a cgo file whose
		// compiled form differs) or whose header changed needs go list.
		if !known || !inPackages[path] || !sameHeader(old, d.text) {
			return nil, false
		}
		changed[path] = d.text
	}

	// Affected: packages with a changed file, and their importers.
	affected := map[*packages.Package]bool{}
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		if v, done := affected[p]; done {
			return v
		}
		affected[p] = false
		hit := false
		for _, f := range p.CompiledGoFiles {
			if _, ok := changed[f]; ok {
				hit = true
			}
		}
		for _, imp := range p.Imports {
			if visit(imp) {
				hit = true
			}
		}
		affected[p] = hit
		return hit
	}
	for _, p := range u.all {
		visit(p)
	}

	// Re-check the affected packages, dependencies first.
	renewed := map[*packages.Package]*packages.Package{}
	for _, p := range u.all { // u.all is in dependency order
		if !affected[p] {
			continue
		}
		np, ok := u.typeCheck(p, changed, renewed)
		if !ok {
			return nil, false
		}
		renewed[p] = np
	}
	for i, p := range roots {
		if np := renewed[p]; np != nil {
			roots[i] = np
		}
	}
	for i, p := range u.all {
		if np := renewed[p]; np != nil {
			u.all[i] = np
		}
	}
	for dir, ps := range u.byDir {
		for i, p := range ps {
			if np := renewed[p]; np != nil {
				u.byDir[dir][i] = np
			}
		}
	}
	for path, text := range changed {
		u.content[path] = text
	}
	return roots, true
}

// typeCheck returns a copy of p with its changed files parsed anew and the
// package type-checked against its imports (their re-checked versions,
// where renewed has them), as go/packages would.
func (u *universe) typeCheck(p *packages.Package, changed map[string][]byte, renewed map[*packages.Package]*packages.Package) (*packages.Package, bool) {
	if len(p.Syntax) != len(p.CompiledGoFiles) || p.Types == nil || slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind == packages.ListError }) {
		return nil, false
	}
	np := *p
	np.Imports = map[string]*packages.Package{}
	for path, imp := range p.Imports {
		if r := renewed[imp]; r != nil {
			imp = r
		}
		np.Imports[path] = imp
	}
	np.Errors = nil
	np.TypeErrors = nil
	np.Syntax = slices.Clone(p.Syntax)
	for i, f := range p.CompiledGoFiles {
		text, ok := changed[f]
		if !ok {
			continue
		}
		file, err := parser.ParseFile(u.fset, f, text, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			np.Errors = append(np.Errors, packages.Error{Pos: u.fset.Position(file.Package).String(), Msg: err.Error(), Kind: packages.ParseError})
		}
		if file == nil {
			return nil, false
		}
		np.Syntax[i] = file
	}
	np.TypesInfo = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	conf := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if imp := np.Imports[path]; imp != nil && imp.Types != nil {
				return imp.Types, nil
			}
			return nil, fmt.Errorf("no metadata for %s", path)
		}),
		Sizes: p.TypesSizes,
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok {
				np.Errors = append(np.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.TypeError})
				return
			}
			np.TypeErrors = append(np.TypeErrors, te)
			np.Errors = append(np.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	np.Types, _ = conf.Check(p.PkgPath, u.fset, np.Syntax, np.TypesInfo)
	np.IllTyped = len(np.Errors) > 0
	for _, imp := range np.Imports {
		np.IllTyped = np.IllTyped || imp.IllTyped
	}
	return &np, true
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// sameHeader reports whether two versions of a Go file have the same
// package name and imports, so that the package's metadata (what go list
// said) still holds. A file that does not parse is not the same.
func sameHeader(a, b []byte) bool {
	fa, err := parser.ParseFile(token.NewFileSet(), "", a, parser.ImportsOnly)
	if err != nil {
		return false
	}
	fb, err := parser.ParseFile(token.NewFileSet(), "", b, parser.ImportsOnly)
	if err != nil {
		return false
	}
	if fa.Name.Name != fb.Name.Name || len(fa.Imports) != len(fb.Imports) || !slices.Equal(buildLines(a), buildLines(b)) {
		return false
	}
	paths := func(f *ast.File) []string {
		var out []string
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			out = append(out, p)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(paths(fa), paths(fb))
}

// buildLines returns the //go:build and // +build lines of a Go file's
// header: they decide whether go list includes the file.
func buildLines(src []byte) []string {
	var out []string
	for _, l := range bytes.Split(src, []byte("\n")) {
		t := bytes.TrimSpace(l)
		if bytes.HasPrefix(t, []byte("package ")) {
			break
		}
		if bytes.HasPrefix(t, []byte("//go:build")) || bytes.HasPrefix(t, []byte("// +build")) {
			out = append(out, string(t))
		}
	}
	return out
}
