package analyzers

import (
	_ "embed"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

//go:embed ignore.md
var ignoreDoc string

// Ignore reports malformed //gpukvet:ignore directives: one without a
// reason, one naming an analyzer that does not exist, and unknown
// //gpukvet: directives. A malformed directive silences nothing.
var Ignore = &analysis.Analyzer{
	Name: "ignore",
	Doc:  ignoreDoc,
	URL:  "https://github.com/gpukvet/gpukvet#suppression",
}

// Run is set here, not in the literal: it reads All, which lists Ignore.
func init() { Ignore.Run = runIgnore }

func runIgnore(pass *analysis.Pass) (any, error) {
	forEachDirective(pass.Files, func(c *ast.Comment, d directive) {
		if d.problem != "" {
			pass.Report(analysis.Diagnostic{Pos: c.Slash, End: c.End(), Message: d.problem})
		}
	})
	return nil, nil
}
