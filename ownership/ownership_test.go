package ownership_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/ownership"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistestdata.GOPATH(t, analysistest.TestData()), ownership.Analyzer, "basic", "owner", "lib", "crosspkg", "loops", "wrapped", "misc", "slices", "hostonly", "heldout", "lastuse")
}

func TestDoc(t *testing.T) {
	if !strings.HasPrefix(ownership.Analyzer.Doc, "ownership: ") {
		t.Errorf("Doc does not start with its title: %.60q", ownership.Analyzer.Doc)
	}
}
