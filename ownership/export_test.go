package ownership

import (
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// TimeFuncs runs the check on the pass's package as run does, calling each
// with the time the analysis of each source function took (the summaries of
// its callees that were not analysed yet included). For the per-function
// benchmark.
func TimeFuncs(pass *analysis.Pass, each func(fn *ssa.Function, d time.Duration)) (any, error) {
	c := checkerFor(pass)
	if c == nil {
		return (*Result)(nil), nil
	}
	for _, fn := range c.ssa.SrcFuncs {
		start := time.Now()
		fa := c.analyze(fn)
		each(fn, time.Since(start))
		c.report(fa)
	}
	return c.exportFacts(), nil
}
