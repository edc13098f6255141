package uniformity

import (
	"sort"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

// TimeKernels analyses the pass's package as run does, calling each with
// the time the analysis of each kernel took (the device functions it calls
// that were not analysed yet included). For the per-kernel benchmark.
func TimeKernels(pass *analysis.Pass, each func(fn *ssa.Function, d time.Duration)) {
	kres := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	s := pass.ResultOf[kernelssa.Analyzer].(*kernelssa.SSA)
	if !kres.Relevant || s == nil {
		return
	}
	a := &analyser{pass: pass, kres: kres, res: &Result{Funcs: map[*ssa.Function]*Func{}}, busy: map[*ssa.Function]bool{}}
	var roots []*ssa.Function
	for _, k := range kres.Kernels {
		if fn := s.Func(k.Func); fn != nil {
			roots = append(roots, fn)
		}
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].Pos() < roots[j].Pos() })
	for _, fn := range roots {
		start := time.Now()
		a.analyse(fn)
		each(fn, time.Since(start))
	}
}
