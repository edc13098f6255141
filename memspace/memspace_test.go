package memspace_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/memspace"
)

func TestKernelCode(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, memspace.Analyzer,
		"globals", "closures", "hostsvc", "maps", "alloc", "strings", "ifaces", "reflectunsafe",
		"recursion", "calls", "devicepkg", "escape", "chains", "crossdep", "crossuse",
		"params", "directives", "misc", "silent", "plain", "constructs")
}

func TestLaunch(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, memspace.Analyzer, "launch")
}

func TestDoc(t *testing.T) {
	if !strings.HasPrefix(memspace.Analyzer.Doc, "memspace: ") || !strings.Contains(memspace.Analyzer.Doc, "math/bits") {
		t.Errorf("Doc = %.80q..., want doc.go's analyzer section", memspace.Analyzer.Doc)
	}
}

// TestLaunchValue checks launches through function values: variables, map,
// slice and array elements, struct fields, method values.
func TestLaunchValue(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, memspace.Analyzer, "launchvalue")
}
