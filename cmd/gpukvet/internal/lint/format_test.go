package lint

import (
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// format writes run in the named format.
func format(t *testing.T, name string, run Run) string {
	t.Helper()
	f, ok := FormatterNamed(name)
	if !ok {
		t.Fatalf("no format %q", name)
	}
	var b strings.Builder
	if err := f(&b, run); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestText(t *testing.T) {
	t.Parallel()
	run := check(t, "./testdata/bad")
	if got, want := format(t, "text", run), "testdata/bad/bad.go:3:1: ignore: "+badMessage+"\n"; got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	// Each related position on an indented line below its finding.
	f := run.Findings[0]
	f.Related = []Related{{Pos: token.Position{Filename: f.Pos.Filename, Line: 5, Column: 6}, Message: "F"}}
	got := format(t, "text", Run{Findings: []Finding{f}})
	if want := "testdata/bad/bad.go:3:1: ignore: " + badMessage + "\n\ttestdata/bad/bad.go:5:6: F\n"; got != want {
		t.Errorf("text with a related position:\n%s\nwant:\n%s", got, want)
	}
}

// TestClean checks the output of a run without findings: nothing as text,
// and an empty results array in SARIF (a clean run, as opposed to no
// information).
func TestClean(t *testing.T) {
	t.Parallel()
	run := check(t, "./testdata/good")
	if len(run.Findings) != 0 || len(run.Errors) != 0 {
		t.Fatalf("findings %v, errors %q on a clean package", run.Findings, run.Errors)
	}
	if out := format(t, "text", run); out != "" {
		t.Errorf("clean package, text output:\n%s", out)
	}
	if out := format(t, "json", run); !strings.Contains(out, `"findings": []`) || !strings.Contains(out, `"errors": []`) {
		t.Errorf("clean JSON output must hold empty arrays:\n%s", out)
	}
	if out := format(t, "sarif", run); !strings.Contains(out, `"results": []`) {
		t.Errorf("clean SARIF run must hold an empty results array:\n%s", out)
	}
}

func TestJSON(t *testing.T) {
	t.Parallel()
	out := format(t, "json", check(t, "./testdata/bad"))
	var got jsonOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if len(got.Findings) != 1 || len(got.Errors) != 0 {
		t.Fatalf("got %d findings and %d errors, want 1 and 0:\n%s", len(got.Findings), len(got.Errors), out)
	}
	f := got.Findings[0]
	if f.Analyzer != "ignore" || f.File != "testdata/bad/bad.go" || f.Line != 3 || f.Column != 1 || f.Posn != "testdata/bad/bad.go:3:1" || f.Message != badMessage {
		t.Errorf("finding = %+v", f)
	}
}

// TestSARIF checks the fields that SARIF 2.1.0's schema requires, and
// those that code-scanning services read.
func TestSARIF(t *testing.T) {
	t.Parallel()
	run := check(t, "./testdata/bad")
	out := format(t, "sarif", run)
	var log struct {
		Version string `json:"version"`
		Schema  string `json:"$schema"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name    string `json:"name"`
					Version string `json:"version"`
					Rules   []struct {
						ID               string `json:"id"`
						ShortDescription struct{ Text string }
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation sarifLocationOut `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-schema-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("version %q, $schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	sr := log.Runs[0]
	if d := sr.Tool.Driver; d.Name != "gpukvet" || d.Version != run.Version || len(d.Rules) != len(run.Suite) {
		t.Errorf("driver %q %q with %d rules, want gpukvet %s with %d", d.Name, d.Version, len(d.Rules), run.Version, len(run.Suite))
	}
	for _, rule := range sr.Tool.Driver.Rules {
		if rule.ID == "" || rule.ShortDescription.Text == "" {
			t.Errorf("rule without id or description: %+v", rule)
		}
	}
	if len(sr.Invocations) != 1 || !sr.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations = %+v, want one successful", sr.Invocations)
	}
	if len(sr.Results) != 1 {
		t.Fatalf("%d results, want 1", len(sr.Results))
	}
	res := sr.Results[0]
	if res.RuleID != "ignore" || sr.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID || res.Level != "error" || res.Message.Text != badMessage || len(res.Locations) != 1 {
		t.Fatalf("result = %+v", res)
	}
	loc := res.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "testdata/bad/bad.go" || loc.ArtifactLocation.URIBaseID != srcRoot || loc.Region.StartLine != 3 || loc.Region.StartColumn != 1 {
		t.Errorf("location = %+v", loc)
	}
}

// sarifLocationOut is the part of a SARIF physical location the tests read.
type sarifLocationOut struct {
	ArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	} `json:"artifactLocation"`
	Region struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	} `json:"region"`
}

// TestSARIFColumns checks that Go's byte columns become UTF-16 code units:
// é is two bytes and one unit, 𝄞 four bytes and two units.
func TestSARIFColumns(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "p.go")
	src := "package p\n\nvar s = \"é𝄞x\"\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	x := strings.Index(src, "x\"") - strings.Index(src, "var") + 1 // x's byte column
	f := Finding{
		Analyzer: "ignore",
		Pos:      token.Position{Filename: file, Line: 3, Column: x},
		End:      token.Position{Filename: file, Line: 3, Column: x + 1},
		Message:  "m",
	}
	loc := locator{root: filepath.Dir(file), cols: columnConverter{}}.location(f.Pos, f.End)
	if r := loc.Region; r.StartLine != 3 || r.StartColumn != 13 || r.EndLine != 3 || r.EndColumn != 14 {
		t.Errorf("byte columns %d-%d: region %+v, want 3:13-3:14", x, x+1, r)
	}
}
