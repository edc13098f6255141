package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/doc/comment"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/sarif"
)

// sarifRuleOf describes analyzer a as a SARIF rule: its one-paragraph
// summary as the short and the full description (GitHub shows the full
// one atop every alert), its whole documentation (the "# Analyzer NAME"
// section of its doc.go, which package internal/define makes Doc) as help,
// in text and Markdown, and a link to it.
// An analyzer without a summary or a link is an error: GitHub's code
// scanning rejects such rules.
func sarifRuleOf(a *analysis.Analyzer) (sarifRule, error) {
	short := Summary(a)
	doc := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(a.Doc), a.Name+":"))
	if short == "" || a.URL == "" {
		return sarifRule{}, fmt.Errorf("analyzer %s has no documentation summary or no URL; its SARIF rule would be incomplete", a.Name)
	}
	var p comment.Parser
	var pr comment.Printer
	markdown := string(pr.Markdown(p.Parse(doc)))
	return sarifRule{
		// No Name: SARIF wants it to differ from ID or be absent.
		ID:                   a.Name,
		ShortDescription:     sarif.Message{Text: short},
		FullDescription:      sarif.Message{Text: short},
		Help:                 sarif.Message{Text: doc + "\n\nDocumentation: " + a.URL, Markdown: markdown + "\n[Documentation of " + a.Name + "](" + a.URL + ")\n"},
		HelpURI:              a.URL,
		DefaultConfiguration: sarif.ReportingConfiguration{Enabled: true, Level: sarif.Error},
	}, nil
}

// fingerprintKey names gpukvet's partial fingerprint; the version changes
// if the way it is computed does.
const fingerprintKey = "gpukvetFindingHash/v1"

// numbers are the digit runs of a message: line numbers and the like,
// which move with unrelated edits.
var numbers = regexp.MustCompile(`[0-9]+`)

// A fingerprinter computes stable fingerprints for the findings of one
// run: a hash of the analyzer, the file, the text of the finding's line
// with its spaces normalized, and the message with its numbers blanked,
// then ":" and the occurrence of that hash in the run (1 for the first),
// as GitHub's primaryLocationLineHash does. It does not change when lines
// are added or removed elsewhere in the file, or the file is indented
// anew.
type fingerprinter map[string]int

func (fp fingerprinter) of(f Finding, file string, line []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", f.Analyzer, file,
		strings.Join(strings.Fields(string(line)), " "), numbers.ReplaceAllString(f.Message, "#"))
	sum := hex.EncodeToString(h.Sum(nil))[:32]
	fp[sum]++
	return fmt.Sprintf("%s:%d", sum, fp[sum])
}
