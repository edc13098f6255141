package ownership

import (
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

// TimeFuncs runs the check on the pass's package as run does, calling each
// with the time the analysis of each source function took (the summaries of
// its callees that were not analysed yet included). For the per-function
// benchmark.
func TimeFuncs(pass *analysis.Pass, each func(fn *ssa.Function, d time.Duration)) (any, error) {
	kres := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	if !kres.ImportsDevice && !importsBufferAPI(pass) {
		return (*Result)(nil), nil
	}
	s, _ := pass.ResultOf[kernelssa.Analyzer].(*kernelssa.SSA)
	if s == nil {
		s = kernelssa.Build(pass)
	}
	c := newChecker(pass, s)
	c.findOwners()
	for _, fn := range s.SrcFuncs {
		start := time.Now()
		fa := c.analyze(fn)
		each(fn, time.Since(start))
		c.report(fa)
	}
	return c.exportFacts(), nil
}
