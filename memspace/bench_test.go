package memspace_test

import (
	"go/types"
	"os"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/memspace"
)

// BenchmarkKernelCode measures kernels+memspace on package silent (five
// kernels in the forms people write, with device functions, generics,
// shared memory and atomics), loaded once. Measured on the 2-core
// development machine: about 95 µs and 450 allocations per run.
func BenchmarkKernelCode(b *testing.B) {
	dir := analysistestdata.GOPATH(b, analysistest.TestData())
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "silent")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		b.Fatalf("load: %v %v", err, pkgs)
	}
	p := pkgs[0]
	facts := map[types.Object]analysis.Fact{}
	pass := func(a *analysis.Analyzer, results map[*analysis.Analyzer]any) *analysis.Pass {
		return &analysis.Pass{
			Analyzer: a, Fset: p.Fset, Files: p.Syntax, Pkg: p.Types, TypesInfo: p.TypesInfo,
			ResultOf: results,
			Report:   func(d analysis.Diagnostic) { b.Fatalf("unexpected diagnostic: %s", d.Message) },
			ImportObjectFact: func(obj types.Object, f analysis.Fact) bool {
				got, ok := facts[obj]
				if !ok || reflect.TypeOf(got) != reflect.TypeOf(f) {
					return false
				}
				reflect.ValueOf(f).Elem().Set(reflect.ValueOf(got).Elem())
				return true
			},
			ExportObjectFact: func(obj types.Object, f analysis.Fact) { facts[obj] = f },
		}
	}
	kpass := pass(kernels.Analyzer, nil)
	mpass := pass(memspace.Analyzer, map[*analysis.Analyzer]any{})
	b.ReportAllocs()
	for b.Loop() {
		kres, err := kernels.Analyzer.Run(kpass)
		if err != nil {
			b.Fatal(err)
		}
		mpass.ResultOf[kernels.Analyzer] = kres
		if _, err := memspace.Analyzer.Run(mpass); err != nil {
			b.Fatal(err)
		}
	}
}
