package analyzers

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// callsTo returns an analyzer called name that reports every call to a
// function named bad; it stands in for a real check.
func callsTo(name string) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: name,
		Doc:  "report calls to bad",
		Run: func(pass *analysis.Pass) (any, error) {
			for _, f := range pass.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "bad" {
							pass.Reportf(call.Pos(), "call to bad")
						}
					}
					return true
				})
			}
			return nil, nil
		},
	}
}

func TestSuppression(t *testing.T) {
	a := Suppressible(callsTo("races"))
	analysistest.Run(t, analysistest.TestData(), a, "suppress")
}

func TestIgnoreReportsMalformedDirectives(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Ignore, "directives")
}

func TestParseDirective(t *testing.T) {
	for _, tc := range []struct {
		text      string
		analyzers []string
		reason    string
		bad       bool
	}{
		{"//gpukvet:ignore races ok here", []string{"races"}, "ok here", false},
		{"//gpukvet:ignore races,memspace  two  spaces", []string{"races", "memspace"}, "two spaces", false},
		{"//gpukvet:ignore races", []string{"races"}, "", true},
		{"//gpukvet:ignore races // only a comment", []string{"races"}, "", true},
		{"//gpukvet:ignore", nil, "", true},
		{"//gpukvet:ignore nosuch reason", []string{"nosuch"}, "reason", true},
		{"//gpukvet:silence races reason", nil, "", true},
	} {
		d := parseDirective(tc.text)
		if (d.problem != "") != tc.bad || d.reason != tc.reason || len(d.analyzers) != len(tc.analyzers) {
			t.Errorf("parseDirective(%q) = %+v; want analyzers %v, reason %q, malformed %v", tc.text, d, tc.analyzers, tc.reason, tc.bad)
			continue
		}
		for i := range d.analyzers {
			if d.analyzers[i] != tc.analyzers[i] {
				t.Errorf("parseDirective(%q).analyzers = %v; want %v", tc.text, d.analyzers, tc.analyzers)
			}
		}
	}
}

func TestAll(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range All() {
		if seen[a.Name] {
			t.Errorf("analyzer %s listed twice", a.Name)
		}
		seen[a.Name] = true
		if a.Doc == "" {
			t.Errorf("analyzer %s has no Doc", a.Name)
		}
	}
	if !seen["ignore"] {
		t.Errorf("All() lacks the ignore analyzer")
	}
	if err := analysis.Validate(All()); err != nil {
		t.Fatal(err)
	}
	all := All()
	all[0] = nil
	if All()[0] == nil {
		t.Errorf("All must return a fresh slice each time")
	}
}

func TestPanicBecomesError(t *testing.T) {
	req := &analysis.Analyzer{
		Name: "prerequisite",
		Doc:  "panic",
		Run:  func(*analysis.Pass) (any, error) { panic("boom") },
	}
	a := &analysis.Analyzer{
		Name:     "races",
		Doc:      "panic",
		Run:      func(*analysis.Pass) (any, error) { panic("bang") },
		Requires: []*analysis.Analyzer{req},
	}
	guard(a)
	guard(a) // a second guard changes nothing
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/p", "p"), Report: func(analysis.Diagnostic) {}}
	for _, a := range []*analysis.Analyzer{a, req} {
		_, err := a.Run(pass)
		if err == nil || !strings.Contains(err.Error(), "internal error: analyzer "+a.Name+" panicked on package example.com/p: b") {
			t.Errorf("Run of panicking analyzer %s returned %v", a.Name, err)
		}
	}
}
