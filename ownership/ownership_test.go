package ownership_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/ownership"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), ownership.Analyzer, "basic", "owner", "lib", "crosspkg", "loops", "wrapped", "misc", "slices")
}
