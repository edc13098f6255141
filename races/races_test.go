package races_test

import (
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
