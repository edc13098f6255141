package divergence_test

import (
	"fmt"
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
	want := map[int][]string{ // line of the barrier → its related positions
		15:  {"14: the divergent condition `tid < n`", "13: where threads start to differ: ThreadIdx"},
		41:  {"39: the divergent condition `k < t.ThreadIdx().X`"},
		131: {"131: the divergent argument"},
	}
	got := map[int][]string{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			for _, rel := range d.Related {
				got[line] = append(got[line], fmt.Sprintf("%d: %s", r.Pass.Fset.Position(rel.Pos).Line, rel.Message))
			}
		}
	}
	for line, w := range want {
		if !slices.Equal(got[line], w) {
			t.Errorf("barrier at line %d: related %q, want %q", line, got[line], w)
		}
	}
}
