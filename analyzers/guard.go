package analyzers

import (
	"fmt"
	"runtime/debug"
	"sync"

	"golang.org/x/tools/go/analysis"
)

var (
	guardedMu sync.Mutex
	guarded   = map[*analysis.Analyzer]bool{}
)

// guard makes a panic in a's Run, and in the Run of every analyzer it
// requires, an error naming the analyzer and the package: one bug in one
// check then fails that check (and those that need its result) on that
// package, under any driver, instead of killing gpukvet or go vet. It
// changes each Run in place, at most once per analyzer.
func guard(a *analysis.Analyzer) {
	guardedMu.Lock()
	defer guardedMu.Unlock()
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if guarded[a] {
			return
		}
		guarded[a] = true
		for _, req := range a.Requires {
			walk(req)
		}
		run, name := a.Run, a.Name
		a.Run = func(pass *analysis.Pass) (result any, err error) {
			defer func() {
				if r := recover(); r != nil {
					result, err = nil, fmt.Errorf("internal error: analyzer %s panicked on package %s: %v\n%s", name, pass.Pkg.Path(), r, debug.Stack())
				}
			}()
			return run(pass)
		}
	}
	walk(a)
}
