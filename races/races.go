package races

import (
	_ "embed"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
	"github.com/gpukvet/gpukvet/internal/twothread"
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
		for _, r := range Check(pass.Fset, fn, twothread.ShapeOf(k), uni) {
			if broken && r.Possible {
				continue
			}
			d := analysis.Diagnostic{Pos: r.Pos, Category: "races", Message: r.Message, Related: r.Related}
			if r.Guard != "" && k.Decl.Body != nil {
				guard := twothread.Guard{Cond: r.Guard, Require: r.Require}
				d.SuggestedFixes = []analysis.SuggestedFix{guard.Fix(k.Decl.Body.Lbrace)}
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

// A Race is a pair of accesses that two threads may make to one element
// with nothing ordering them.
type Race struct {
	Pos     token.Pos // the first access, where the race is reported
	Message string
	// Possible is set when the analysis could not prove the accesses
	// apart but found no concrete collision (the indices depend on values
	// it does not track): a "possible data race".
	Possible bool
	// Guard, when set, is a condition on the kernel's integer parameters
	// ("n < 1") under which alone the race happens: a guard
	// `if Guard { panic(…) }` at the kernel's top excludes it.
	Guard string
	// Require says what the guard requires ("n must be a multiple of
	// t.BlockDim().X"), for its panic message.
	Require string
	// Related is the race's other access, when it is at another position.
	Related []analysis.RelatedInformation
}

// Check returns the races of kernel fn, whose SSA was built with debug
// information, in source order of their first access. uni, the result of
// the uniformity analysis for fn's package, may be nil; when present, a
// value counts as divergent only if both it and the two-thread model's
// own conservative rules say so.
func Check(fset *token.FileSet, fn *ssa.Function, shape twothread.Shape, uni *uniformity.Result) []Race {
	return checkLogged(fset, fn, shape, uni, analyzerLog)
}

// checkLogged is Check, counting what replay does in log when it is not
// nil.
func checkLogged(fset *token.FileSet, fn *ssa.Function, shape twothread.Shape, uni *uniformity.Result, log *witnessLog) []Race {
	k := twothread.New(fn, shape, uni)
	if len(k.Accesses()) == 0 {
		return nil
	}
	dims := shape.Dims
	if dims == 0 {
		dims = 3
	}
	s := &search{fset: fset, fn: fn, k: k, keys: map[*twothread.Access]string{}, log: log, dims: dims}
	return s.findRaces()
}

// analyzerLog, set by tests only, counts what replay does for every
// kernel Check and the Analyzer check.
var analyzerLog *witnessLog
