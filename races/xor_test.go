package races_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/races"
)

// TestXorPartner checks the x ^ j model: bitonic compare-and-swap steps are
// race-free, and the same kernels without the partner guard are not.
func TestXorPartner(t *testing.T) {
	analysistest.Run(t, analysistestdata.GOPATH(t, analysistest.TestData()), races.Analyzer, "xorpartner")
}

// TestWitnessParams checks that a race that needs a degenerate size names
// the parameter values of its witness.
func TestWitnessParams(t *testing.T) {
	analysistest.Run(t, analysistestdata.GOPATH(t, analysistest.TestData()), races.Analyzer, "witness")
}
