package analysistestdata

import (
	"fmt"
	"path/filepath"

	"golang.org/x/tools/go/analysis/analysistest"
)

// Related returns the related information of the diagnostics in results,
// keyed by where each diagnostic is ("file.go:LINE", the file's base
// name), as "LINE: message" per related position, in order: what the
// analyzers' TestRelated compare.
func Related(results []*analysistest.Result) map[string][]string {
	out := map[string][]string{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			at := fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
			for _, rel := range d.Related {
				out[at] = append(out[at], fmt.Sprintf("%d: %s", r.Pass.Fset.Position(rel.Pos).Line, rel.Message))
			}
		}
	}
	return out
}
