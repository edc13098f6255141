package races

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/twothread"
	"github.com/gpukvet/gpukvet/uniformity"
)

// CheckCounted is Check that also returns the pair questions it asked and
// the distinct problems the solver decided for them (BenchmarkStores).
func CheckCounted(fset *token.FileSet, fn *ssa.Function, shape twothread.Shape, uni *uniformity.Result) (races []Race, pairs, problems int) {
	k := twothread.New(fn, shape, uni)
	if len(k.Accesses()) == 0 {
		return nil, 0, 0
	}
	s := &search{fset: fset, fn: fn, k: k, keys: map[*twothread.Access]string{}}
	races = s.findRaces()
	return races, min(maxPairs, maxPairs-s.budget), k.Problems()
}

// SetMaxPairs lowers the pair budget for a test and returns a function
// that restores it.
func SetMaxPairs(n int) (restore func()) {
	old := maxPairs
	maxPairs = n
	return func() { maxPairs = old }
}

// WitnessLog is what replay did for the witnesses of the checks run while
// a log is set (LogWitnesses).
type WitnessLog = witnessLog

// LogWitnesses makes every check count what replay does in a new log,
// with the feedback loop on or off, and returns the log and a function
// that restores the defaults.
func LogWitnesses(feedback bool) (*WitnessLog, func()) {
	oldLog, oldFeedback := analyzerLog, replayFeedback
	analyzerLog, replayFeedback = &witnessLog{}, feedback
	return analyzerLog, func() { analyzerLog, replayFeedback = oldLog, oldFeedback }
}
