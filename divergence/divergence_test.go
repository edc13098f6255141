package divergence_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/divergence"
	"github.com/gpukvet/gpukvet/internal/analysistestdata"
)

func TestDivergence(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, divergence.Analyzer, "a", "edge", "sharedflag", "precond")
}

func TestSuggestedFix(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, divergence.Analyzer, "fix", "precondfix")
}

// TestRelated checks that a divergent barrier carries the divergent
// condition and where threads start to differ as related information.
func TestRelated(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	results := analysistest.Run(t, dir, divergence.Analyzer, "a")
	want := map[string][]string{ // the barrier → its related positions
		"a.go:15":  {"14: the divergent condition `tid < n`", "13: where threads start to differ: ThreadIdx"},
		"a.go:41":  {"39: the divergent condition `k < t.ThreadIdx().X`"},
		"a.go:131": {"131: the divergent argument"},
	}
	got := analysistestdata.Related(results)
	for at, w := range want {
		if !slices.Equal(got[at], w) {
			t.Errorf("barrier at %s: related %q, want %q", at, got[at], w)
		}
	}
}
