package races

import (
	_ "embed"
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
	"github.com/gpukvet/gpukvet/memspace"
	"github.com/gpukvet/gpukvet/uniformity"
)

//go:embed doc.go
var doc string

// Analyzer reports data races between threads of a kernel on shared and
// global memory.
var Analyzer = define.Check(&analysis.Analyzer{
	Name:     "races",
	Doc:      define.Doc(doc, "races"),
	URL:      "https://github.com/gpukvet/gpukvet/tree/main/races",
	Requires: []*analysis.Analyzer{kernels.Analyzer, kernelssa.Analyzer, uniformity.Analyzer, memspace.Analyzer},
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
	ms, _ := pass.ResultOf[memspace.Analyzer].(*memspace.Result)
	for _, k := range res.Kernels {
		fn := s.Func(k.Func)
		if fn == nil || len(fn.Blocks) == 0 {
			continue
		}
		// A kernel memspace rejects (host memory, closures, …) is already
		// refused; a possible race on it, from values outside the dialect,
		// only adds noise. A race with a concrete collision is still said.
		broken := ms != nil && ms.Broken[k.Func]
		for _, r := range Check(pass.Fset, fn, ShapeOf(k), uni) {
			if broken && r.Possible {
				continue
			}
			d := analysis.Diagnostic{Pos: r.Pos, Category: "races", Message: r.Message}
			if r.Guard != "" && k.Decl.Body != nil {
				d.SuggestedFixes = []analysis.SuggestedFix{GuardFix(k.Decl.Body.Lbrace, r.Guard, r.Require)}
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

// GuardFix inserts the precondition guard `if cond { panic(require) }` as
// the first statement of the kernel body whose opening brace is at lbrace.
func GuardFix(lbrace token.Pos, cond, require string) analysis.SuggestedFix {
	text := fmt.Sprintf("\n\tif %s {\n\t\tpanic(%q)\n\t}", cond, require)
	return analysis.SuggestedFix{
		Message:   "state the precondition: " + require,
		TextEdits: []analysis.TextEdit{{Pos: lbrace + 1, End: lbrace + 1, NewText: []byte(text)}},
	}
}
