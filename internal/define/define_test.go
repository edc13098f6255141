package define

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
		Doc:  name + ": report calls to bad",
		URL:  "https://example.com/" + name,
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
	a := Check(callsTo("races"))
	analysistest.Run(t, analysistest.TestData(), a, "suppress")
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
	Guarded(req)
	Guarded(a)
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/p", "p"), Report: func(analysis.Diagnostic) {}}
	for _, a := range []*analysis.Analyzer{a, req} {
		_, err := a.Run(pass)
		if err == nil || !strings.Contains(err.Error(), "internal error: analyzer "+a.Name+" panicked on package example.com/p: b") {
			t.Errorf("Run of panicking analyzer %s returned %v", a.Name, err)
		}
	}
}

func TestDoc(t *testing.T) {
	const lineComments = `// Package p does things.
//
// # Analyzer p
//
// p: report things
//
// More about it.
//
//	code
//
// # Other
//
// not this
package p
`
	if got, want := Doc(lineComments, "p"), "p: report things\n\nMore about it.\n\n\tcode"; got != want {
		t.Errorf("Doc(line comments) = %q; want %q", got, want)
	}
	const blockComment = "/*\nPackage p does things.\n\n# Analyzer p\n\np: report things\n\nMore.\n*/\npackage p\n"
	if got, want := Doc(blockComment, "p"), "p: report things\n\nMore."; got != want {
		t.Errorf("Doc(block comment) = %q; want %q", got, want)
	}
	for _, src := range []string{
		"// Package p does things.\npackage p\n",                 // no section
		"// # Analyzer p\n//\n// reports things\npackage p\n",    // no "p: " summary
		"// # Analyzer q\n//\n// q: reports things\npackage p\n", // another analyzer's section
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Doc(%q, p) did not panic", src)
				}
			}()
			Doc(src, "p")
		}()
	}
}

func TestCheckRequiresDocAndURL(t *testing.T) {
	for _, a := range []*analysis.Analyzer{
		{Name: "p", Doc: "report things", URL: "https://example.com", Run: func(*analysis.Pass) (any, error) { return nil, nil }},
		{Name: "p", Doc: "p: report things", Run: func(*analysis.Pass) (any, error) { return nil, nil }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Check(%+v) did not panic", a)
				}
			}()
			Check(a)
		}()
	}
}
