package races_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/races"
)

// TestOutOfBounds checks that two threads meeting only at an index that
// traps (negative, or past the slice's end) are no race, while their
// twins meeting in range are.
func TestOutOfBounds(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, races.Analyzer, "outofbounds")
}
