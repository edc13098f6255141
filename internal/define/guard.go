package define

import (
	"fmt"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// Guarded makes a panic in a's Run an error naming the analyzer and the
// package: one bug in one analyzer then fails that analyzer (and those that
// need its result) on that package, under any driver, instead of killing
// gpukvet, go vet or the editor's language server. Analyzers that only
// compute results or facts for others use it alone; checks get it through
// Check. It returns a, whose Run it sets once, at a's definition.
func Guarded(a *analysis.Analyzer) *analysis.Analyzer {
	run, name := a.Run, a.Name
	if run == nil {
		panic(fmt.Sprintf("gpukvet analyzer %s: Run is nil", name))
	}
	a.Run = func(pass *analysis.Pass) (result any, err error) {
		defer func() {
			if r := recover(); r != nil {
				result, err = nil, fmt.Errorf("internal error: analyzer %s panicked on package %s: %v\n%s", name, pass.Pkg.Path(), r, debug.Stack())
			}
		}()
		return run(pass)
	}
	return a
}
