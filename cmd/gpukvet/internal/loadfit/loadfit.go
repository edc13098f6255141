// Package loadfit decides which loaded packages gpukvet can analyze: those
// that, with every dependency, loaded and type-checked without error. The
// standalone command and the language server share it so that both report
// the same load errors and check the same packages.
package loadfit

import (
	"strings"

	"golang.org/x/tools/go/packages"
)

// Fit returns the packages of roots that can be analyzed, leaving out the
// main packages go test synthesizes, and the errors of the others, each
// once however many packages import its package, formatted by format.
func Fit(roots []*packages.Package, format func(packages.Error) string) ([]*packages.Package, []string) {
	fit := map[*packages.Package]bool{}
	var errs []string
	seen := map[string]bool{}
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		if ok, done := fit[p]; done {
			return ok
		}
		fit[p] = false // an import cycle is an error the go command reports
		ok := true
		for _, e := range p.Errors {
			if msg := format(e); !seen[msg] {
				seen[msg] = true
				errs = append(errs, msg)
			}
			ok = false
		}
		for _, imp := range p.Imports {
			if !visit(imp) {
				ok = false
			}
		}
		fit[p] = ok
		return ok
	}
	var pkgs []*packages.Package
	for _, p := range roots {
		if visit(p) && !isTestMain(p) {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, errs
}

// isTestMain reports whether p is the main package that go test
// synthesizes for a test binary (it holds no code of the user's).
func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.ID, ".test")
}
