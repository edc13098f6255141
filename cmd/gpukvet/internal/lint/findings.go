package lint

import (
	"cmp"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// A Finding is one diagnostic, resolved to file positions.
type Finding struct {
	Analyzer string
	URL      string
	Pos, End token.Position
	Message  string
	Related  []Related
	Fixes    []Fix
}

// A Related position is one a finding's message refers to.
type Related struct {
	Pos, End token.Position
	Message  string
}

// A Fix is a suggested fix: edits that make sense only together.
type Fix struct {
	Message string
	Edits   []Edit
}

// An Edit replaces the text from Pos to End with NewText.
type Edit struct {
	Pos, End token.Position
	NewText  string
	FileSize int // the size of the file as analyzed, to detect later changes
}

// Collect gathers the diagnostics of the graph's root actions, once each
// (a file of a package and of its test variant is analyzed twice), in
// file order, and the errors of analyzers that failed.
func Collect(graph *checker.Graph) ([]Finding, []string) {
	type key struct {
		analyzer string
		pos      token.Position
		msg      string
	}
	seen := map[key]bool{}
	var out []Finding
	var errs []string
	seenErr := map[string]bool{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			msg := fmt.Sprintf("gpukvet: %s failed on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
			if !seenErr[msg] {
				seenErr[msg] = true
				errs = append(errs, msg)
			}
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			f := toFinding(fset, act.Analyzer, d)
			k := key{f.Analyzer, f.Pos, f.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Analyzer, b.Analyzer),
			cmp.Compare(a.Message, b.Message))
	})
	return out, errs
}

// toFinding resolves d's positions, and those of its related positions and
// fixes, in fset.
func toFinding(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic) Finding {
	f := Finding{
		Analyzer: a.Name,
		URL:      d.URL,
		Pos:      fset.Position(d.Pos),
		Message:  d.Message,
	}
	if d.End.IsValid() {
		f.End = fset.Position(d.End)
	}
	for _, r := range d.Related {
		rel := Related{Pos: fset.Position(r.Pos), Message: r.Message}
		if r.End.IsValid() {
			rel.End = fset.Position(r.End)
		}
		f.Related = append(f.Related, rel)
	}
	for _, sf := range d.SuggestedFixes {
		fx := Fix{Message: sf.Message}
		for _, e := range sf.TextEdits {
			ed := Edit{Pos: fset.Position(e.Pos), End: fset.Position(e.Pos), NewText: string(e.NewText)}
			if tf := fset.File(e.Pos); tf != nil {
				ed.FileSize = tf.Size()
			}
			if e.End.IsValid() {
				ed.End = fset.Position(e.End)
			}
			fx.Edits = append(fx.Edits, ed)
		}
		f.Fixes = append(f.Fixes, fx)
	}
	return f
}

// relPath shortens an absolute file name, or a "file:line:col" position,
// to a path relative to the working directory when it lies below it.
func relPath(name string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(name) {
		return name
	}
	if rel, err := filepath.Rel(wd, name); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return name
}
