package lint

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// A Run is what one run of the analyzers found, as the formats write it.
type Run struct {
	Version  string               // gpukvet's version, which SARIF's tool driver carries
	Suite    []*analysis.Analyzer // the analyzers that ran: SARIF's rules
	Findings []Finding
	Errors   []string // what kept some packages from being checked
	// SourceRoot is the folder SARIF file names are relative to
	// (%SRCROOT%); empty means the working directory.
	SourceRoot string
}

// A Formatter writes a run's findings, and the errors that kept some
// packages from being checked.
type Formatter func(w io.Writer, run Run) error

var formats = map[string]Formatter{
	"text":  formatText,
	"json":  formatJSON,
	"sarif": formatSARIF,
}

// FormatterNamed returns the formatter of the output format named by the
// -f flag (text, json or sarif), and whether there is one.
func FormatterNamed(name string) (Formatter, bool) {
	f, ok := formats[name]
	return f, ok
}

// FormatNames returns the names of the output formats, sorted.
func FormatNames() []string {
	return slices.Sorted(maps.Keys(formats))
}

// formatText writes file:line:col: analyzer: message, one finding a line,
// with each related position on an indented line below it. It leaves out
// the errors: the command prints them on stderr as they come.
func formatText(w io.Writer, run Run) error {
	for _, f := range run.Findings {
		if _, err := fmt.Fprintf(w, "%s: %s: %s\n", posString(f.Pos), f.Analyzer, f.Message); err != nil {
			return err
		}
		for _, r := range f.Related {
			fmt.Fprintf(w, "\t%s: %s\n", posString(r.Pos), r.Message)
		}
	}
	return nil
}

// posString writes p as file:line:col, the file relative to the working
// directory.
func posString(p token.Position) string {
	s := relPath(p.Filename)
	if p.Line > 0 {
		s += fmt.Sprintf(":%d", p.Line)
		if p.Column > 0 {
			s += fmt.Sprintf(":%d", p.Column)
		}
	}
	return s
}

// The JSON output: one object with the findings and the load errors.
type jsonOutput struct {
	Findings []jsonFinding `json:"findings"`
	Errors   []string      `json:"errors"`
}

type jsonFinding struct {
	Analyzer string        `json:"analyzer"`
	Posn     string        `json:"posn"` // file:line:col, as go vet -json writes it
	File     string        `json:"file"`
	Line     int           `json:"line"`
	Column   int           `json:"column"`
	End      *jsonPos      `json:"end,omitempty"`
	Message  string        `json:"message"`
	URL      string        `json:"url,omitempty"`
	Related  []jsonRelated `json:"related,omitempty"`
	Fixes    []jsonFix     `json:"suggested_fixes,omitempty"`
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	File    string  `json:"file"`
	Start   jsonPos `json:"start"`
	End     jsonPos `json:"end"`
	NewText string  `json:"new_text"`
}

// formatJSON writes the run as one indented JSON object (jsonOutput).
func formatJSON(w io.Writer, run Run) error {
	out := jsonOutput{Findings: []jsonFinding{}, Errors: run.Errors}
	if out.Errors == nil {
		out.Errors = []string{}
	}
	for _, f := range run.Findings {
		jf := jsonFinding{
			Analyzer: f.Analyzer,
			Posn:     posString(f.Pos),
			File:     relPath(f.Pos.Filename),
			Line:     f.Pos.Line,
			Column:   f.Pos.Column,
			Message:  f.Message,
			URL:      f.URL,
		}
		if f.End.IsValid() {
			jf.End = &jsonPos{f.End.Line, f.End.Column}
		}
		for _, r := range f.Related {
			jf.Related = append(jf.Related, jsonRelated{posString(r.Pos), r.Message})
		}
		for _, fx := range f.Fixes {
			jfx := jsonFix{Message: fx.Message}
			for _, e := range fx.Edits {
				jfx.Edits = append(jfx.Edits, jsonEdit{
					File:    relPath(e.Pos.Filename),
					Start:   jsonPos{e.Pos.Line, e.Pos.Column},
					End:     jsonPos{e.End.Line, e.End.Column},
					NewText: e.NewText,
				})
			}
			jf.Fixes = append(jf.Fixes, jfx)
		}
		out.Findings = append(out.Findings, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
