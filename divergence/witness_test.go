package divergence_test

import (
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/divergence"
	"github.com/gpukvet/gpukvet/internal/analysistestdata"
)

// witness matches words that name particular threads or parameter values
// ("thread 3", "threads 0..15", "when n = 130"): a witness, which would
// have to be replayed before it is printed (as the races check does).
var witness = regexp.MustCompile(`\bthreads? \(?\d|\bwhen \w+(\(\)\.\w)? = -?\d`)

// TestNoWitness checks that no divergence diagnostic on the corpus or the
// analysistest packages states a witness: the messages name conditions
// and why they differ between threads, which hold of every launch.
func TestNoWitness(t *testing.T) {
	n := 0
	for kernel, msgs := range flagged(t, loadCorpus(t)) {
		for _, m := range msgs {
			n++
			if witness.MatchString(m) {
				t.Errorf("%s: %q states a witness, which must be replayed before it is printed", kernel, m)
			}
		}
	}
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	for _, r := range analysistest.Run(t, dir, divergence.Analyzer, "a", "dep", "edge", "fix", "precond", "precondfix", "sharedflag") {
		for _, d := range r.Diagnostics {
			n++
			if witness.MatchString(d.Message) {
				t.Errorf("%s: %q states a witness, which must be replayed before it is printed", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
	t.Logf("%d divergence diagnostics, none stating a witness", n)
}
