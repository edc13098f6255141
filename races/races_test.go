package races_test

import (
	"fmt"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/races"
)

func TestAnalyzer(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, races.Analyzer, "basic", "patterns", "odd", "bitops", "idioms")
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
	want := map[int]string{ // line of the race → the other access
		10: "9: the other access: thread 1 writes tile[1]",
		44: "43: the other access: thread 1 writes tile[1]",
	}
	got := map[int]string{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			if len(d.Related) == 1 {
				got[line] = fmt.Sprintf("%d: %s", r.Pass.Fset.Position(d.Related[0].Pos).Line, d.Related[0].Message)
			}
		}
	}
	for line, w := range want {
		if got[line] != w {
			t.Errorf("race at line %d: related %q, want %q", line, got[line], w)
		}
	}
}
