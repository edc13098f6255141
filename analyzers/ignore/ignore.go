package ignore

import (
	_ "embed"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/internal/define"
)

//go:embed doc.go
var doc string

// Analyzer reports malformed //gpukvet:ignore directives: one without a
// reason, one naming an analyzer that does not exist, and unknown
// //gpukvet: directives. It is not itself suppressible: a directive cannot
// silence the report that it is malformed.
var Analyzer = define.Guarded(&analysis.Analyzer{
	Name: "ignore",
	Doc:  define.Doc(doc, "ignore"),
	URL:  "https://github.com/gpukvet/gpukvet#suppression",
	Run:  run,
})

func run(pass *analysis.Pass) (any, error) {
	define.Malformed(pass.Files, func(c *ast.Comment, problem string) {
		pass.Report(analysis.Diagnostic{Pos: c.Slash, End: c.End(), Message: problem})
	})
	return nil, nil
}
