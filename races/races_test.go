package races_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/races"
)

func TestAnalyzer(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, races.Analyzer, "basic", "patterns", "odd", "bitops", "idioms", "flags", "wavefront", "tickets", "shifts", "pingpong", "planes", "highbit", "bitfields")
}

// TestGuardFix checks that a race only degenerate sizes cause offers the
// precondition guard that excludes them, and that applying it gives the
// .golden source.
func TestGuardFix(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, races.Analyzer, "guardfix")
}

// TestRelated checks that a race carries its other access as related
// information: at its line, with the thread and element of the witness.
func TestRelated(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	results := analysistest.Run(t, dir, races.Analyzer, "basic")
	want := map[string][]string{ // the race → the other access
		"basic.go:10": {"9: the other access: thread 1 writes tile[1]"},
		"basic.go:44": {"43: the other access: thread 1 writes tile[1]"},
	}
	got := analysistestdata.Related(results)
	for at, w := range want {
		if !slices.Equal(got[at], w) {
			t.Errorf("race at %s: related %q, want %q", at, got[at], w)
		}
	}
}
