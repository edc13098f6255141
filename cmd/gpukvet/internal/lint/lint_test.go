package lint

import (
	"io"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/gpukvet/gpukvet/analyzers"
)

// The tests run the analyzers in process, as the command does, on the
// packages under testdata (and on divergence's fix test package), from
// this folder: file names in the output are relative to it.

// badMessage is the one finding of testdata/bad, at line 3, column 1: a
// //gpukvet:ignore directive without a reason, which every build of the
// suite reports.
const badMessage = "//gpukvet:ignore races needs a reason after the analyzer name, saying why the report is wrong here"

// check loads the packages matching pattern and runs the named analyzers
// (all of them if none is named) over them, and returns what they found.
func check(t *testing.T, pattern string, names ...string) Run {
	t.Helper()
	suite := analyzers.All()
	if len(names) > 0 {
		suite = nil
		for _, name := range names {
			a := analyzers.Lookup(name)
			if a == nil {
				t.Fatalf("the suite (analyzers.All) has no %s analyzer", name)
			}
			suite = append(suite, a)
		}
	}
	pkgs, errs, err := Load([]string{pattern}, true, "")
	if err != nil {
		t.Fatal(err)
	}
	run := Run{Version: "1.2.3", Suite: suite, Errors: errs}
	if len(pkgs) == 0 {
		return run
	}
	graph, err := checker.Analyze(suite, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var analysisErrs []string
	run.Findings, analysisErrs = Collect(graph)
	run.Errors = append(run.Errors, analysisErrs...)
	return run
}

// TestCollect checks the one finding of testdata/bad: once, though the
// package is analyzed twice (as itself and as its test variant), at its
// position, with no errors.
func TestCollect(t *testing.T) {
	t.Parallel()
	run := check(t, "./testdata/bad")
	if len(run.Errors) != 0 || len(run.Findings) != 1 {
		t.Fatalf("%d findings and errors %q, want 1 finding and none", len(run.Findings), run.Errors)
	}
	f := run.Findings[0]
	if f.Analyzer != "ignore" || relPath(f.Pos.Filename) != "testdata/bad/bad.go" || f.Pos.Line != 3 || f.Pos.Column != 1 || f.Message != badMessage {
		t.Errorf("finding = %+v", f)
	}
}

// TestExplain checks -explain's text for every analyzer, and the error
// for a name that is none.
func TestExplain(t *testing.T) {
	t.Parallel()
	for _, a := range analyzers.All() {
		var b strings.Builder
		if err := Explain(&b, a.Name); err != nil || !strings.HasPrefix(b.String(), a.Name+": ") {
			t.Errorf("Explain(%s) = %v:\n%s", a.Name, err, b.String())
		}
		if a.URL != "" && !strings.HasSuffix(b.String(), "\n\n"+a.URL+"\n") {
			t.Errorf("Explain(%s) does not end with its link %s:\n%s", a.Name, a.URL, b.String())
		}
	}
	if err := Explain(io.Discard, "nosuch"); err == nil || !strings.Contains(err.Error(), `no analyzer named "nosuch"; the analyzers are `) {
		t.Errorf("Explain(nosuch) = %v", err)
	}
}
