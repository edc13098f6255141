package races_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/races"
)

func TestTmpOOB(t *testing.T) {
	_, restore := races.LogWitnesses(false)
	defer restore()
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, races.Analyzer, "outofbounds")
}
