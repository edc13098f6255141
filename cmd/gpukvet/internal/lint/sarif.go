package lint

import (
	"bytes"
	"encoding/json"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"honnef.co/go/tools/sarif"
)

// SARIF 2.1.0 output, for code-scanning services. The types of
// honnef.co/go/tools/sarif serve for the parts they cover; the log and the
// run are declared here to say what they lack: an empty results array
// (a clean run, as opposed to no information), the base of relative
// file names, the column unit, and the errors that kept packages from being
// checked.

const srcRoot = "%SRCROOT%"

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                         `json:"tool"`
	Invocations        []sarifInvocation                 `json:"invocations"`
	OriginalURIBaseIDs map[string]sarif.ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                            `json:"columnKind"`
	Results            []sarifResult                     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

// sarifRule is a reportingDescriptor with the fullDescription and help
// that code-scanning services show for each rule.
type sarifRule struct {
	ID                   string                       `json:"id"`
	ShortDescription     sarif.Message                `json:"shortDescription"`
	FullDescription      sarif.Message                `json:"fullDescription"`
	Help                 sarif.Message                `json:"help"`
	HelpURI              string                       `json:"helpUri"`
	DefaultConfiguration sarif.ReportingConfiguration `json:"defaultConfiguration"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string        `json:"level"`
	Message sarif.Message `json:"message"`
}

type sarifResult struct {
	RuleID    string           `json:"ruleId"`
	RuleIndex int              `json:"ruleIndex"`
	Level     string           `json:"level"`
	Message   sarif.Message    `json:"message"`
	Locations []sarif.Location `json:"locations"`
	// PartialFingerprints identify a finding across runs, so that a
	// code-scanning service tracks it as the code around it moves.
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	RelatedLocations    []sarif.Location  `json:"relatedLocations,omitempty"`
	Fixes               []sarif.Fix       `json:"fixes,omitempty"`
}

// formatSARIF writes the run as a SARIF log of one run.
func formatSARIF(w io.Writer, run Run) error {
	driver := sarifDriver{
		Name:           "gpukvet",
		Version:        run.Version,
		InformationURI: "https://github.com/gpukvet/gpukvet",
	}
	ruleIndex := map[string]int{}
	for i, a := range run.Suite {
		ruleIndex[a.Name] = i
		rule, err := sarifRuleOf(a)
		if err != nil {
			return err
		}
		driver.Rules = append(driver.Rules, rule)
	}
	out := sarifRun{
		Tool:        sarifTool{Driver: driver},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(run.Errors) == 0}},
		ColumnKind:  "utf16CodeUnits",
		Results:     []sarifResult{},
	}
	for _, e := range run.Errors {
		out.Invocations[0].ToolExecutionNotifications = append(out.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: sarif.Error, Message: sarif.Message{Text: e}})
	}
	at := locator{root: run.SourceRoot, cols: columnConverter{}}
	if at.root == "" {
		at.root, _ = os.Getwd()
	}
	if at.root != "" {
		out.OriginalURIBaseIDs = map[string]sarif.ArtifactLocation{
			srcRoot: {URI: fileURI(at.root) + "/"},
		}
	}
	fingerprints := fingerprinter{}
	for _, f := range run.Findings {
		loc := at.location(f.Pos, f.End)
		r := sarifResult{
			RuleID:              f.Analyzer,
			RuleIndex:           ruleIndex[f.Analyzer],
			Level:               sarif.Error,
			Message:             sarif.Message{Text: f.Message},
			Locations:           []sarif.Location{{PhysicalLocation: loc}},
			PartialFingerprints: map[string]string{fingerprintKey: fingerprints.of(f, loc.ArtifactLocation.URI, at.cols.line(f.Pos))},
		}
		for i, rel := range f.Related {
			r.RelatedLocations = append(r.RelatedLocations, sarif.Location{
				ID:               i + 1,
				Message:          &sarif.Message{Text: rel.Message},
				PhysicalLocation: at.location(rel.Pos, rel.End),
			})
		}
		for _, fx := range f.Fixes {
			r.Fixes = append(r.Fixes, at.fix(fx))
		}
		out.Results = append(out.Results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Version: sarif.Version, Schema: sarif.Schema, Runs: []sarifRun{out}})
}

// A locator turns positions into SARIF locations: file names relative to
// the source root, columns in UTF-16 code units.
type locator struct {
	root string // %SRCROOT%: the repository root, or the working directory
	cols columnConverter
}

// artifact names a file relative to %SRCROOT% when it lies below it, which
// code-scanning services need to match it to the repository, and by an
// absolute file URI otherwise.
func (l locator) artifact(name string) sarif.ArtifactLocation {
	abs, err := filepath.Abs(name)
	if err != nil {
		return sarif.ArtifactLocation{URI: (&url.URL{Path: filepath.ToSlash(name)}).EscapedPath()}
	}
	if rel, err := filepath.Rel(l.root, abs); err == nil && l.root != "" && filepath.IsLocal(rel) {
		return sarif.ArtifactLocation{URI: (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), URIBaseID: srcRoot}
	}
	return sarif.ArtifactLocation{URI: fileURI(abs)}
}

// SourceRoot returns the folder SARIF file names are relative to when no
// -srcroot is given: the root of the version-control repository holding
// dir (the nearest folder upwards with a .git, a folder or a worktree's
// file), which code scanning matches the names against, or dir itself
// outside a repository.
func SourceRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func fileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// columnConverter turns Go's byte columns into SARIF's default UTF-16 code
// unit columns, reading each file once.
type columnConverter map[string][][]byte

// location is the SARIF location of the range from pos to end.
func (l locator) location(pos, end token.Position) sarif.PhysicalLocation {
	loc := sarif.PhysicalLocation{
		ArtifactLocation: l.artifact(pos.Filename),
		Region:           sarif.Region{StartLine: max(pos.Line, 1), StartColumn: l.cols.column(pos)},
	}
	if end.IsValid() && end.Line > 0 {
		loc.Region.EndLine = end.Line
		loc.Region.EndColumn = l.cols.column(end)
	}
	return loc
}

// fix is fx as a SARIF fix: one artifact change per file it edits, in the
// order of the files' first edits.
func (l locator) fix(fx Fix) sarif.Fix {
	sf := sarif.Fix{Description: sarif.Message{Text: fx.Message}}
	byFile := map[string]int{}
	for _, e := range fx.Edits {
		i, ok := byFile[e.Pos.Filename]
		if !ok {
			i = len(sf.ArtifactChanges)
			byFile[e.Pos.Filename] = i
			sf.ArtifactChanges = append(sf.ArtifactChanges, sarif.ArtifactChange{ArtifactLocation: l.artifact(e.Pos.Filename)})
		}
		sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, sarif.Replacement{
			DeletedRegion:   l.location(e.Pos, e.End).Region,
			InsertedContent: sarif.ArtifactContent{Text: e.NewText},
		})
	}
	return sf
}

// line returns the text of p's line, or nil.
func (c columnConverter) line(p token.Position) []byte {
	lines := c.lines(p.Filename)
	if p.Line < 1 || p.Line > len(lines) {
		return nil
	}
	return lines[p.Line-1]
}

func (c columnConverter) lines(file string) [][]byte {
	lines, ok := c[file]
	if !ok {
		data, _ := os.ReadFile(file)
		lines = bytes.Split(data, []byte("\n"))
		c[file] = lines
	}
	return lines
}

func (c columnConverter) column(p token.Position) int {
	if p.Column <= 0 {
		return 1
	}
	lines := c.lines(p.Filename)
	if p.Line < 1 || p.Line > len(lines) || p.Column-1 > len(lines[p.Line-1]) {
		return p.Column
	}
	units := 0
	for b := lines[p.Line-1][:p.Column-1]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n := utf16.RuneLen(r)
		if n < 0 { // an invalid byte counts as one unit
			n = 1
		}
		units += n
	}
	return units + 1
}
