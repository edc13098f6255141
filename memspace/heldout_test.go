package memspace_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/memspace"
)

// TestHeldout runs the held-out set of testdata/corpus/HELDOUT-host.md:
// kernel code and launches written without reading the analyzer.
func TestHeldout(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, memspace.Analyzer, "heldout")
}
