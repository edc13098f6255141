package lint

import (
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
)

type sarifRuleOut struct {
	ID               string
	ShortDescription struct{ Text string }
	FullDescription  struct{ Text string }
	Help             struct{ Text, Markdown string }
	HelpURI          string
}

type sarifOut struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []sarifRuleOut
			}
		}
		Results []struct {
			RuleID              string
			Message             struct{ Text string }
			PartialFingerprints map[string]string
		}
	}
}

// sarifOf writes run as SARIF and reads it back.
func sarifOf(t *testing.T, run Run) sarifOut {
	t.Helper()
	out := format(t, "sarif", run)
	var log sarifOut
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("not one SARIF run (%v):\n%s", err, out)
	}
	return log
}

// TestSARIFRules checks every rule against the analyzer it describes: the
// fields GitHub's code scanning requires (shortDescription,
// fullDescription, help with a link, helpUri), from each analyzer's doc.
func TestSARIFRules(t *testing.T) {
	t.Parallel()
	all := analyzers.All()
	rules := sarifOf(t, Run{Suite: all}).Runs[0].Tool.Driver.Rules
	if len(rules) != len(all) {
		t.Fatalf("%d rules for %d analyzers", len(rules), len(all))
	}
	for i, a := range all {
		rule := rules[i]
		if rule.ID != a.Name {
			t.Errorf("rule %d is %q, want %q", i, rule.ID, a.Name)
			continue
		}
		if rule.ShortDescription.Text != Summary(a) || rule.ShortDescription.Text == "" {
			t.Errorf("rule %s: shortDescription %q, want the doc's summary %q", a.Name, rule.ShortDescription.Text, Summary(a))
		}
		// GitHub shows fullDescription atop every alert: the summary, not
		// the whole documentation, which help carries.
		if full := rule.FullDescription.Text; full != Summary(a) {
			t.Errorf("rule %s: fullDescription %q, want the one-paragraph summary %q", a.Name, full, Summary(a))
		}
		if doc := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(a.Doc), a.Name+":")); !strings.HasPrefix(rule.Help.Text, doc) {
			t.Errorf("rule %s: help is not the analyzer's whole documentation: %q", a.Name, rule.Help.Text)
		}
		if rule.HelpURI != a.URL || !strings.Contains(rule.Help.Text, a.URL) || !strings.Contains(rule.Help.Markdown, "]("+a.URL+")") {
			t.Errorf("rule %s: help and helpUri must link %s: %+v", a.Name, a.URL, rule.Help)
		}
	}
}

// TestSARIFFingerprints checks that a finding keeps its fingerprint when
// lines are added above it, and that two like findings get two. The
// findings are those of testdata/bad's directive written twice, at the
// lines where they move.
func TestSARIFFingerprints(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/bad/bad.go")
	if err != nil {
		t.Fatal(err)
	}
	twice := string(src) + "\n//gpukvet:ignore races\n"
	file := filepath.Join(t.TempDir(), "bad.go")
	prints := func(content string) []string {
		t.Helper()
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		var run Run
		for i, line := range strings.Split(content, "\n") {
			if line == "//gpukvet:ignore races" {
				pos := token.Position{Filename: file, Line: i + 1, Column: 1}
				run.Findings = append(run.Findings, Finding{Analyzer: "ignore", Pos: pos, Message: badMessage})
			}
		}
		var out []string
		for _, r := range sarifOf(t, run).Runs[0].Results {
			fp := r.PartialFingerprints[fingerprintKey]
			if fp == "" {
				t.Fatalf("result without %s: %+v", fingerprintKey, r)
			}
			out = append(out, fp)
		}
		return out
	}
	before := prints(twice)
	if len(before) != 2 || before[0] == before[1] || !strings.HasSuffix(before[0], ":1") || !strings.HasSuffix(before[1], ":2") {
		t.Fatalf("fingerprints of two like findings: %v", before)
	}
	moved := strings.Replace(twice, "package bad\n", "package bad\n\n// Added lines move every finding.\n\n", 1)
	if after := prints(moved); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("fingerprints changed when the findings moved: %v, then %v", before, after)
	}
}
