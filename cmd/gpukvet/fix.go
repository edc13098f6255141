package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/fixes"
)

// applyFixes applies, or with diff shows as a unified diff on stdout, the
// first suggested fix of every finding, as go vet -fix and -diff do (see
// package fixes), and returns the exit code: 0 when every fix applied (or
// there were none), 1 when -diff shows changes or some fixes overlapped
// others and must wait for another run, 2 on an error, when nothing was
// changed. Findings are not printed: a fixed finding is gone, and a run
// without -fix shows the rest.
func applyFixes(findings []finding, diff bool, stdout, stderr io.Writer) int {
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
	opts := fixes.Options{Sizes: sizes}
	if diff {
		opts.Diff = stdout
	}
	res, err := fixes.Apply(list, opts)
	if err != nil && !errors.Is(err, fixes.ErrConflicts) {
		fmt.Fprintf(stderr, "gpukvet: %v\n", err)
		return exitError
	}
	verb := "applied"
	if diff {
		verb = "would apply"
	}
	if len(list) > 0 {
		fmt.Fprintf(stderr, "gpukvet: %s %d of %d fixes to %d files", verb, res.Applied, len(list), len(res.Files))
		if res.Generated > 0 {
			fmt.Fprintf(stderr, "; %d skipped: they edit generated files", res.Generated)
		}
		fmt.Fprintln(stderr)
	}
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "gpukvet: %v\n", err)
		return exitFindings
	case diff && len(res.Files) > 0:
		return exitFindings
	}
	return exitClean
}
