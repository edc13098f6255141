package lint

import (
	"errors"
	"fmt"
	"io"

	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/fixes"
)

// ApplyFixes applies the first suggested fix of every finding, as go vet
// -fix does (see package fixes), or, with diff set, writes them to diff as
// a unified diff instead, and then writes a line to log saying how many it
// applied. It returns what package fixes did and its error: one wrapping
// fixes.ErrConflicts when some fixes overlapped others and must wait for
// another run (the others were applied), any other when nothing was
// changed (then there is no result and no line on log).
func ApplyFixes(findings []Finding, diff, log io.Writer) (*fixes.Result, error) {
	var list []fixes.Fix
	sizes := map[string]int{}
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			continue
		}
		fx := f.Fixes[0]
		item := fixes.Fix{Message: fx.Message}
		for _, e := range fx.Edits {
			item.Edits = append(item.Edits, fixes.Edit{File: e.Pos.Filename, Start: e.Pos.Offset, End: e.End.Offset, New: e.NewText})
			sizes[e.Pos.Filename] = e.FileSize
		}
		list = append(list, item)
	}
	res, err := fixes.Apply(list, fixes.Options{Sizes: sizes, Diff: diff})
	if err != nil && !errors.Is(err, fixes.ErrConflicts) {
		return nil, err
	}
	verb := "applied"
	if diff != nil {
		verb = "would apply"
	}
	if len(list) > 0 {
		fmt.Fprintf(log, "gpukvet: %s %d of %d fixes to %d files", verb, res.Applied, len(list), len(res.Files))
		if res.Generated > 0 {
			fmt.Fprintf(log, "; %d skipped: they edit generated files", res.Generated)
		}
		fmt.Fprintln(log)
	}
	return res, err
}
