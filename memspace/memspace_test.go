package memspace_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/internal/kernelapi"
	"github.com/gpukvet/gpukvet/memspace"
)

func TestKernelCode(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, memspace.Analyzer,
		"globals", "closures", "hostsvc", "maps", "alloc", "strings", "ifaces", "reflectunsafe",
		"recursion", "calls", "devicepkg", "escape", "chains", "crossdep", "crossuse",
		"params", "directives", "limits", "misc", "silent", "plain", "constructs", "itervars")
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

// TestBudget checks the inlining budget of internal/budget: inlined size
// and call depth, within a package and through another package's facts.
func TestBudget(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, memspace.Analyzer, "budget", "budgetdep", "budgetuse")
}

// TestDocListsKernelAPI keeps the documented list of standard-library
// functions equal to internal/kernelapi's table, which memspace enforces.
func TestDocListsKernelAPI(t *testing.T) {
	doc := memspace.Analyzer.Doc
	start := strings.Index(doc, "\tmath: ")
	end := strings.Index(doc, "(every size)")
	if start < 0 || end < start {
		t.Fatal("the analyzer's doc has no list of math and math/bits functions")
	}
	list := doc[start:end]
	words := map[string]bool{}
	for _, w := range strings.Fields(list) {
		words[w] = true
	}
	listed := 0
	for _, name := range kernelapi.Funcs("math") {
		listed++
		if !words[name] {
			t.Errorf("the doc does not list math.%s, which kernel code may call", name)
		}
	}
	for _, name := range kernelapi.Funcs("math/bits") {
		if !words[strings.TrimRight(name, "0123456789")+"*"] {
			t.Errorf("the doc does not list bits.%s, which kernel code may call", name)
		}
	}
	for w := range words {
		if w != "math:" && w != "math/bits:" && !strings.HasSuffix(w, "*") && !kernelapi.Allowed("math", w) {
			t.Errorf("the doc lists math.%s, which kernel code may not call", w)
		}
		if base, ok := strings.CutSuffix(w, "*"); ok && !kernelapi.Allowed("math/bits", base) && !kernelapi.Allowed("math/bits", base+"64") {
			t.Errorf("the doc lists bits.%s, which kernel code may not call", w)
		}
	}
	if listed < 40 {
		t.Errorf("only %d functions of math in kernelapi", listed)
	}
}

// TestRelated checks that a violation reached through calls carries the
// chain's calls as related information, from the kernel down.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, analysistestdata.GOPATH(t, analysistest.TestData()), memspace.Analyzer, "constructs")
	got := analysistestdata.Related(results)["constructs.go:78"] // nanotime has no body
	want := []string{"90: CallsLinkname calls stamp", "80: stamp calls nanotime"}
	if !slices.Equal(got, want) {
		t.Errorf("related = %q, want %q", got, want)
	}
}
