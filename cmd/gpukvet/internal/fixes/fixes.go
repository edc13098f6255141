// Package fixes applies the suggested fixes of analysis diagnostics to
// files, as go vet -fix does: the first fix of each diagnostic, each fix
// whole or not at all, fixes merged as a three-way merge does (identical
// edits coalesce; a fix that overlaps one already taken is skipped, and the
// caller is told to run again), no fix to a generated file, each changed
// file formatted and then replaced atomically, and nothing written when a
// file changed on disk since it was analyzed.
package fixes

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// An Edit replaces the bytes [Start, End) of File with New.
type Edit struct {
	File       string
	Start, End int
	New        string
}

// A Fix is one suggested fix: edits that make sense only together.
type Fix struct {
	Message string
	Edits   []Edit
}

// Options say where the files come from and where the result goes.
type Options struct {
	// Sizes holds, for each file, its size when it was analyzed; a file
	// whose size differs now was changed since, and nothing is written.
	// A file missing from Sizes is not checked.
	Sizes map[string]int
	// Diff, if set, receives a unified diff of the changes instead of
	// the files being written.
	Diff io.Writer
}

// Result says what Apply did.
type Result struct {
	Applied   int      // fixes applied (or shown, with Options.Diff)
	Conflicts int      // fixes skipped because they overlap one applied
	Generated int      // fixes skipped because they edit a generated file
	Files     []string // files changed (or that would change), sorted
}

// ErrConflicts is wrapped by the error Apply returns when some fixes were
// skipped because they overlap others; running again applies more.
var ErrConflicts = errors.New("some fixes overlap others and were not applied; run again to apply them")

// Apply applies the fixes, in order (an earlier fix wins a conflict). It
// returns an error wrapping ErrConflicts when it skipped a fix for a
// conflict (the others are applied), and another error when a file cannot
// be read, changed since it was analyzed, a fix is malformed, or a file
// cannot be written; then no file is changed.
func Apply(fixes []Fix, opts Options) (*Result, error) {
	res := &Result{}
	baseline := map[string][]byte{}
	generated := map[string]bool{}
	read := func(file string) ([]byte, error) {
		if b, ok := baseline[file]; ok {
			return b, nil
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if want, ok := opts.Sizes[file]; ok && want != len(b) {
			return nil, fmt.Errorf("%s changed since it was analyzed (%d bytes then, %d now); nothing was fixed", file, want, len(b))
		}
		baseline[file] = b
		generated[file] = isGenerated(b)
		return b, nil
	}

	accumulated := map[string][]udiff.Edit{}
	seen := map[string]bool{}
fixes:
	for _, fx := range fixes {
		// A file of a package and of its test variant yields each fix twice.
		if k := key(fx); seen[k] {
			continue
		} else {
			seen[k] = true
		}
		byFile := map[string][]udiff.Edit{}
		for _, e := range fx.Edits {
			src, err := read(e.File)
			if err != nil {
				return nil, err
			}
			if e.Start < 0 || e.Start > e.End || e.End > len(src) {
				return nil, fmt.Errorf("fix %q: edit [%d,%d) lies outside %s (%d bytes)", fx.Message, e.Start, e.End, e.File, len(src))
			}
			byFile[e.File] = append(byFile[e.File], udiff.Edit{Start: e.Start, End: e.End, New: e.New})
		}
		for file, edits := range byFile {
			if generated[file] {
				res.Generated++
				continue fixes
			}
			udiff.SortEdits(edits)
			for i := 1; i < len(edits); i++ {
				if edits[i].Start < edits[i-1].End {
					return nil, fmt.Errorf("fix %q has overlapping edits in %s", fx.Message, file)
				}
			}
		}
		merged := map[string][]udiff.Edit{}
		for file, edits := range byFile {
			if prev := accumulated[file]; len(prev) > 0 {
				m, ok := udiff.Merge(prev, edits)
				if !ok {
					res.Conflicts++
					continue fixes
				}
				edits = m
			}
			merged[file] = edits
		}
		for file, edits := range merged {
			accumulated[file] = edits
		}
		res.Applied++
	}

	type change struct {
		file     string
		old, new []byte
	}
	var changes []change
	for file, edits := range accumulated {
		if len(edits) == 0 {
			continue
		}
		old := baseline[file]
		fixed, err := udiff.ApplyBytes(old, edits)
		if err != nil {
			return nil, fmt.Errorf("applying fixes to %s: %v", file, err)
		}
		if formatted, err := format.Source(fixed); err == nil {
			fixed = formatted
		}
		if !bytes.Equal(old, fixed) {
			changes = append(changes, change{file, old, fixed})
		}
	}
	slices.SortFunc(changes, func(a, b change) int { return strings.Compare(a.file, b.file) })
	for _, c := range changes {
		res.Files = append(res.Files, c.file)
	}

	if opts.Diff != nil {
		for _, c := range changes {
			if _, err := io.WriteString(opts.Diff, udiff.Unified(c.file+" (old)", c.file+" (new)", string(c.old), string(c.new))); err != nil {
				return nil, err
			}
		}
	} else {
		var files []replacement
		for _, c := range changes {
			files = append(files, replacement{c.file, c.old, c.new})
		}
		if err := replaceAll(files); err != nil {
			return nil, err
		}
	}
	if res.Conflicts > 0 {
		return res, fmt.Errorf("applied %d of %d fixes: %w", res.Applied, res.Applied+res.Conflicts, ErrConflicts)
	}
	return res, nil
}

// key identifies a fix by its edits.
func key(fx Fix) string {
	var b strings.Builder
	for _, e := range fx.Edits {
		fmt.Fprintf(&b, "%s:%d:%d:%q;", e.File, e.Start, e.End, e.New)
	}
	return b.String()
}

// isGenerated reports whether src is a generated Go file
// ("// Code generated ... DO NOT EDIT." before the package clause).
func isGenerated(src []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && ast.IsGenerated(f)
}

type replacement struct {
	file     string
	old, new []byte
}

// replaceAll replaces each file's content with its new content, each file
// atomically (a temporary file in the same directory renamed over it, with
// the old file's permissions). Every temporary file is written before any
// rename, and each file is checked to still hold its old content, so that a
// failure before the renames changes nothing.
func replaceAll(files []replacement) (err error) {
	var temps []string
	defer func() {
		if err != nil {
			for _, t := range temps {
				os.Remove(t)
			}
		}
	}()
	for _, f := range files {
		info, err := os.Stat(f.file)
		if err != nil {
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(f.file), "."+filepath.Base(f.file)+".gpukvet-fix-*")
		if err != nil {
			return err
		}
		temps = append(temps, tmp.Name())
		_, werr := tmp.Write(f.new)
		if cerr := tmp.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(tmp.Name(), info.Mode().Perm())
		}
		if werr != nil {
			return fmt.Errorf("writing fixed %s: %v", f.file, werr)
		}
	}
	for _, f := range files {
		now, err := os.ReadFile(f.file)
		if err != nil {
			return err
		}
		if !bytes.Equal(now, f.old) {
			return fmt.Errorf("%s changed while fixes were being applied; nothing was fixed", f.file)
		}
	}
	for i, f := range files {
		if err := os.Rename(temps[i], f.file); err != nil {
			return fmt.Errorf("replacing %s: %v (files before it in name order were fixed)", f.file, err)
		}
	}
	temps = nil
	return nil
}
