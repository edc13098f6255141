package divergence_test

import (
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
