package races

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/analyzers/define"
	"github.com/gpukvet/gpukvet/analyzers/kernels"
	"github.com/gpukvet/gpukvet/analyzers/kernelssa"
	"github.com/gpukvet/gpukvet/uniformity"
)

//go:embed doc.go
var doc string

// Analyzer reports data races between threads of a kernel on shared and
// global memory.
var Analyzer = define.Check(&analysis.Analyzer{
	Name:     "races",
	Doc:      analyzerDoc(doc),
	URL:      "https://github.com/gpukvet/gpukvet/tree/main/races",
	Requires: []*analysis.Analyzer{kernels.Analyzer, kernelssa.Analyzer, uniformity.Analyzer},
	Run:      run,
})

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	if !res.Relevant {
		return nil, nil
	}
	s := pass.ResultOf[kernelssa.Analyzer].(*kernelssa.SSA)
	if s == nil {
		return nil, nil
	}
	uni, _ := pass.ResultOf[uniformity.Analyzer].(*uniformity.Result)
	for _, k := range res.Kernels {
		fn := s.Func(k.Func)
		if fn == nil || len(fn.Blocks) == 0 {
			continue
		}
		for _, r := range Check(pass.Fset, fn, ShapeOf(k), uni) {
			pass.Report(analysis.Diagnostic{Pos: r.Pos, Category: "races", Message: r.Message})
		}
	}
	return nil, nil
}
