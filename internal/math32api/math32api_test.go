package math32api

import (
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/internal/directive"
)

// TestEveryFunctionIsDeviceCode reads the exported scope of package
// gpu/math32: every name there must be a function declared //gpu:device,
// which the checks accept as device code and the lowering compiles from
// its body unless it has a Kind. Conversely every Kind must name a
// function of float32 arguments and result.
func TestEveryFunctionIsDeviceCode(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		t.Fatalf("loading %s: %v", Path, pkgs)
	}
	p := pkgs[0]
	device := map[types.Object]bool{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if dir, err := directive.Find(fd.Doc); err == nil && dir.Kind == directive.Device {
					device[p.TypesInfo.Defs[fd.Name]] = true
				}
			}
		}
	}
	seen := map[Kind]bool{}
	scope := p.Types.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		fn, ok := obj.(*types.Func)
		if !ok {
			t.Errorf("math32.%s (%T) is not a function: teach internal/math32api, the checks and the lowering what it is", name, obj)
			continue
		}
		if !device[fn] {
			t.Errorf("math32.%s is not a //gpu:device function: mark it so, or give it a Kind in internal/math32api and a lowering", name)
		}
		seen[Func(fn)] = true
	}
	f32 := types.Typ[types.Float32]
	for k := None + 1; k < numKinds; k++ {
		if !seen[k] {
			t.Errorf("Kind %s names no exported function of package math32", k)
			continue
		}
		sig := scope.Lookup(k.String()).(*types.Func).Signature()
		for i := 0; i < sig.Params().Len(); i++ {
			if !types.Identical(sig.Params().At(i).Type(), f32) {
				t.Errorf("%s: parameter %d is not a float32: %s", k, i, sig)
			}
		}
		if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), f32) {
			t.Errorf("%s does not return one float32: %s", k, sig)
		}
	}
}

func TestKindNames(t *testing.T) {
	if FMA.String() != "FMA" || None.String() != "None" || Kind(numKinds).String() != "None" {
		t.Error("names are not math32's")
	}
}
