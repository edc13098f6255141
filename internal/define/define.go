// Package define is what every gpukvet analyzer gets where it is defined:
// the //gpukvet:ignore directive that silences it on one line, a guard that
// turns a panic into an error, and its documentation taken from its
// doc.go.
//
// Each analyzer package applies it to its own Analyzer,
//
//	var Analyzer = define.Check(&analysis.Analyzer{...})
//
// so that every driver gets the same behaviour from the exported value:
// go vet, the standalone command, the language server, golangci-lint,
// Bazel's nogo, multichecker, analysistest. Nothing changes an analyzer
// after its definition.
//
// The package imports no analyzer: the analyzer packages import it, and the
// suite (package analyzers) imports them.
package define

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Check makes a, a check that reports findings, what every gpukvet check
// is: its diagnostics are silenced by well-formed //gpukvet:ignore
// directives naming it (see suppressible), and a panic in its Run is an
// error of a on that package (see Guarded). It panics, at initialization,
// if a's Doc is not the "# Analyzer NAME" section of its doc.go (see Doc),
// so that a documentation gap fails every build and test at once rather
// than shipping an empty SARIF rule or -explain page.
func Check(a *analysis.Analyzer) *analysis.Analyzer {
	if !strings.HasPrefix(a.Doc, a.Name+": ") {
		panic(fmt.Sprintf("gpukvet analyzer %s: Doc must be the \"# Analyzer %s\" section of its doc.go, starting %q; it starts %q",
			a.Name, a.Name, a.Name+": <summary>", firstLine(a.Doc)))
	}
	if a.URL == "" {
		panic(fmt.Sprintf("gpukvet analyzer %s: URL is empty; it links the analyzer's documentation from diagnostics, SARIF and the editor", a.Name))
	}
	return Guarded(suppressible(a))
}

// Doc returns the "# Analyzer NAME" section of a doc.go package comment
// (src, as embedded with //go:embed doc.go), without comment markers: the
// analyzer's documentation, whose first line is "NAME: summary". It panics
// when the section is missing, as x/tools' analyzers do.
func Doc(src, name string) string {
	var lines []string
	inComment := false
	for _, l := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(l, "/*"):
			inComment = true
			continue
		case inComment && strings.HasPrefix(l, "*/"):
			inComment = false
			continue
		case inComment:
			lines = append(lines, l)
		case strings.HasPrefix(l, "//"):
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
		case strings.HasPrefix(l, "package "):
			inComment = false
		}
	}
	text := strings.Join(lines, "\n")
	heading := "# Analyzer " + name + "\n"
	_, section, ok := strings.Cut(text, heading)
	if !ok {
		panic(fmt.Sprintf("gpukvet analyzer %s: doc.go has no %q section", name, strings.TrimSpace(heading)))
	}
	// The section ends at the next heading, if any.
	if i := strings.Index(section, "\n# "); i >= 0 {
		section = section[:i]
	}
	section = strings.TrimSpace(section)
	if !strings.HasPrefix(section, name+": ") {
		panic(fmt.Sprintf("gpukvet analyzer %s: the %q section of doc.go must start %q", name, strings.TrimSpace(heading), name+": <summary>"))
	}
	return section
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
