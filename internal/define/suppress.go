package define

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// The directive prefix. A directive is a line comment with no space after
// the slashes, as Go's own directives are:
//
//	//gpukvet:ignore races the two writes store the same value
const ignorePrefix = "//gpukvet:"

// Names are the analyzers of the dialect's contract (DIALECT.md), in
// the order gpukvet lists them. A //gpukvet:ignore directive may name any of
// them, whether or not a build of the suite includes it.
var Names = []string{"memspace", "ownership", "races", "divergence"}

// suppressible makes a honor //gpukvet:ignore directives: a diagnostic of a
// reported on a line that holds, or directly follows a line that holds, a
// well-formed directive naming a is dropped. It sets a.Run once, at a's
// definition, and returns a.
//
// A package without //gpukvet: comments is analyzed as if a had no
// wrapper; in others the directives are parsed only when the analyzer first
// reports something, so a clean package costs next to nothing.
func suppressible(a *analysis.Analyzer) *analysis.Analyzer {
	run := a.Run
	name := a.Name
	a.Run = func(pass *analysis.Pass) (any, error) {
		if !hasDirective(pass.Files) {
			return run(pass) // nothing to silence, and nothing allocated
		}
		report := pass.Report
		var (
			once   sync.Once
			silent map[lineKey]bool
		)
		pass.Report = func(d analysis.Diagnostic) {
			once.Do(func() { silent = silencedLines(pass.Fset, pass.Files, name) })
			if len(silent) > 0 {
				p := pass.Fset.PositionFor(d.Pos, false)
				if silent[lineKey{p.Filename, p.Line}] {
					return
				}
			}
			report(d)
		}
		return run(pass)
	}
	return a
}

type lineKey struct {
	file string
	line int
}

// silencedLines returns the lines on which well-formed directives silence
// the analyzer called name.
func silencedLines(fset *token.FileSet, files []*ast.File, name string) map[lineKey]bool {
	lines := map[lineKey]bool{}
	forEachDirective(files, func(c *ast.Comment, d directive) {
		if d.problem != "" {
			return
		}
		for _, n := range d.analyzers {
			if n == name {
				p := fset.PositionFor(c.Slash, false)
				lines[lineKey{p.Filename, p.Line}] = true
				lines[lineKey{p.Filename, p.Line + 1}] = true
			}
		}
	})
	return lines
}

// directive is one parsed //gpukvet: comment.
type directive struct {
	analyzers []string
	reason    string
	// problem says what is wrong with a malformed directive; a malformed
	// directive silences nothing.
	problem string
}

// Malformed calls f for every malformed //gpukvet: directive of files,
// with what is wrong with it. A malformed directive silences nothing.
func Malformed(files []*ast.File, f func(c *ast.Comment, problem string)) {
	forEachDirective(files, func(c *ast.Comment, d directive) {
		if d.problem != "" {
			f(c, d.problem)
		}
	})
}

// hasDirective reports whether files hold a //gpukvet: comment.
func hasDirective(files []*ast.File) bool {
	for _, file := range files {
		for _, g := range file.Comments {
			for _, c := range g.List {
				if strings.HasPrefix(c.Text, ignorePrefix) {
					return true
				}
			}
		}
	}
	return false
}

// forEachDirective calls f for every //gpukvet: comment of files.
func forEachDirective(files []*ast.File, f func(*ast.Comment, directive)) {
	for _, file := range files {
		for _, g := range file.Comments {
			for _, c := range g.List {
				if strings.HasPrefix(c.Text, ignorePrefix) {
					f(c, parseDirective(c.Text))
				}
			}
		}
	}
}

// parseDirective parses the text of a //gpukvet: comment. Text after a
// nested "//" is a comment on the directive, not part of its reason.
func parseDirective(text string) directive {
	body := strings.TrimPrefix(text, ignorePrefix)
	if i := strings.Index(body, "//"); i >= 0 {
		body = body[:i]
	}
	verb, rest, _ := strings.Cut(body, " ")
	if verb != "ignore" {
		return directive{problem: "unknown directive " + ignorePrefix + verb + "; the only gpukvet directive is //gpukvet:ignore <analyzer> <reason>"}
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return directive{problem: "//gpukvet:ignore needs an analyzer name and a reason, as in //gpukvet:ignore races <why the report is wrong here>"}
	}
	d := directive{analyzers: strings.Split(fields[0], ","), reason: strings.Join(fields[1:], " ")}
	for _, n := range d.analyzers {
		if !slices.Contains(Names, n) {
			d.problem = "//gpukvet:ignore names unknown analyzer " + quote(n) + "; the analyzers are " + strings.Join(Names, ", ")
			return d
		}
	}
	if d.reason == "" {
		d.problem = "//gpukvet:ignore " + fields[0] + " needs a reason after the analyzer name, saying why the report is wrong here"
	}
	return d
}

func quote(s string) string { return `"` + s + `"` }
