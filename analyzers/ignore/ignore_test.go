package ignore

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

func TestIgnoreReportsMalformedDirectives(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "directives")
}
