package lint

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/loadfit"
	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/stdsyntax"
)

// Load loads the packages matching patterns, with their dependencies, from
// source, with their test files if tests is set and the comma-separated
// build tags. It returns the packages fit to analyze (they and all their
// dependencies loaded and type-checked without error) and, one per line,
// the errors of the others, as the compiler reports them.
func Load(patterns []string, tests bool, tags string) ([]*packages.Package, []string, error) {
	cfg := &packages.Config{
		Mode:      packages.LoadAllSyntax | packages.NeedModule,
		Tests:     tests,
		ParseFile: stdsyntax.ParseFile(stdsyntax.GOROOT()), // no analyzer reads std's bodies
	}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	stdsyntax.ForgiveImports(roots, stdsyntax.GOROOT())
	if len(roots) == 0 {
		return nil, nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}

	// A package is fit if it and its dependencies have no errors.
	pkgs, errs := loadfit.Fit(roots, relativeError)
	return pkgs, errs, nil
}

// relativeError formats a load error as the compiler does, with the file
// name relative to the working directory.
func relativeError(e packages.Error) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	return relPath(e.Pos) + ": " + e.Msg
}
