// Package corpustest is the harness of the analyzers' verdict corpora
// (testdata/corpus/*): every corpus test scores its analyzer with Score and
// hands its report to Report, so that the one flag
//
//	go test ./races ./divergence ./ownership -run TestCorpus -update
//
// rewrites every corpus's REPORT.md, and without it the report is only
// logged (-v prints it). What a corpus counts as a positive, and how its
// report reads, stay with the corpus: kernels with a race, a divergent
// barrier, programs with a leak.
package corpustest

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// update is the one flag that rewrites the corpus reports.
var update = flag.Bool("update", false, "rewrite the verdict corpora's REPORT.md files from this run")

// Score counts a corpus's verdicts against the analyzer's.
type Score struct {
	TP, FP, FN, TN int
}

// Precision is TP/(TP+FP): the share of the analyzer's reports that are
// right; 1 when it reports nothing.
func (s Score) Precision() float64 { return ratio(s.TP, s.TP+s.FP) }

// Recall is TP/(TP+FN): the share of the bugs the analyzer reports; 1 when
// the corpus has none.
func (s Score) Recall() float64 { return ratio(s.TP, s.TP+s.FN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// Floor is the least precision and recall a corpus test accepts: the
// scores the corpus had when the floor was last raised, so that a new false
// alarm or miss fails the test. The score's known mismatches are marked in
// the corpus one by one.
type Floor struct {
	Precision, Recall float64
}

// Check fails t when recall or precision is below the floor.
func (s Score) Check(t testing.TB, floor Floor) {
	t.Helper()
	if r := s.Recall(); r < floor.Recall {
		t.Errorf("recall %.1f%% is below %.1f%% (TP %d, FN %d)", 100*r, 100*floor.Recall, s.TP, s.FN)
	}
	if p := s.Precision(); p < floor.Precision {
		t.Errorf("precision %.1f%% is below %.1f%% (TP %d, FP %d)", 100*p, 100*floor.Precision, s.TP, s.FP)
	}
}

// Report logs report and, under -update, writes it to path. With a
// non-empty section (a heading line, "## Static verdicts"), the file keeps
// its hand-written text and report replaces the body of that section only,
// up to the next heading of its level; the file must already have it.
func Report(t testing.TB, path, section, report string) {
	t.Helper()
	t.Log("\n" + report)
	if !*update {
		return
	}
	text := report
	if section != "" {
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("corpus report: %v", err)
		}
		text, err = replaceSection(string(old), section, report)
		if err != nil {
			t.Fatalf("corpus report %s: %v", path, err)
		}
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatalf("corpus report: %v", err)
	}
}

// replaceSection returns doc with the body of the section headed by the
// line heading replaced by body, set off by blank lines.
func replaceSection(doc, heading, body string) (string, error) {
	level, _, _ := strings.Cut(heading, " ")
	var start int
	switch i := strings.Index(doc, "\n"+heading+"\n"); {
	case strings.HasPrefix(doc, heading+"\n"):
		start = len(heading) + 1
	case i >= 0:
		start = i + len(heading) + 2
	default:
		return "", fmt.Errorf("no section %q", heading)
	}
	rest := ""
	if end := strings.Index(doc[start:], "\n"+level+" "); end >= 0 {
		rest = "\n" + doc[start+end+1:]
	}
	return doc[:start] + "\n" + strings.TrimRight(body, "\n") + "\n" + rest, nil
}
