package memspace_test

import (
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
		"params", "directives", "silent", "plain")
}

func TestLaunch(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, memspace.Analyzer, "launch")
}
