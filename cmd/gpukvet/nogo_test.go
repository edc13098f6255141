package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
)

// TestNogoAnalyzers checks the nogo setup of docs/using.md without Bazel,
// which cannot be obtained here: the nogo rule's deps are gpukvet's whole
// suite, nogo.json names only its analyzers, and a program generated from
// the deps as rules_go generates nogo's (an aliased import per dep, each
// package's Analyzer in one list, analysis.Validate on it), run here as a
// multichecker, builds and reports a finding.
func TestNogoAnalyzers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a nogo-like program")
	}
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs/using.md"))
	if err != nil {
		t.Fatal(err)
	}
	build := fencedBlock(t, string(doc), "# BUILD.bazel")
	var imports, names []string
	for _, m := range regexp.MustCompile(`"@com_github_gpukvet_gpukvet//([a-z/]+)"`).FindAllStringSubmatch(build, -1) {
		imports = append(imports, "github.com/gpukvet/gpukvet/"+m[1])
	}
	for _, a := range analyzers.All() {
		names = append(names, a.Name)
	}

	var config map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fencedBlock(t, string(doc), "{\n  \"memspace\"")), &config); err != nil {
		t.Fatalf("nogo.json: %v", err)
	}
	for name := range config {
		if !slices.Contains(names, name) {
			t.Errorf("nogo.json configures %q, which is not a gpukvet analyzer %v", name, names)
		}
	}

	var src strings.Builder
	src.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"sort\"\n\t\"strings\"\n\n\t\"golang.org/x/tools/go/analysis\"\n\t\"golang.org/x/tools/go/analysis/multichecker\"\n")
	for i, p := range imports {
		fmt.Fprintf(&src, "\tanalyzer%d %q\n", i, p)
	}
	src.WriteString(")\n\nvar analyzers = []*analysis.Analyzer{\n")
	for i := range imports {
		fmt.Fprintf(&src, "\tanalyzer%d.Analyzer,\n", i)
	}
	src.WriteString(`}

func main() {
	if err := analysis.Validate(analyzers); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
	if len(os.Args) == 2 && os.Args[1] == "names" {
		var names []string
		for _, a := range analyzers {
			names = append(names, a.Name)
		}
		sort.Strings(names)
		fmt.Println(strings.Join(names, " "))
		return
	}
	multichecker.Main(analyzers...)
}
`)
	dir := writeModule(t, map[string]string{"nogo/main.go": src.String(), "bad/bad.go": malformed})
	if r := run(t, dir, "go", "build", "-o", "nogo.bin", "./nogo"); r.code != 0 {
		t.Fatalf("building the nogo program: exit %d\n%s\n%s", r.code, r.stderr, src.String())
	}
	r := run(t, dir, "./nogo.bin", "names")
	slices.Sort(names)
	if got := strings.TrimSpace(r.stdout); r.code != 0 || got != strings.Join(names, " ") {
		t.Errorf("nogo's analyzers: %q (exit %d, %s); want gpukvet's suite %q", got, r.code, r.stderr, names)
	}
	r = run(t, dir, "./nogo.bin", "./bad")
	if r.code == 0 || !strings.Contains(r.stderr, "bad/bad.go:3:1: //gpukvet:ignore races needs a reason") {
		t.Errorf("the nogo program on ./bad: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// fencedBlock returns the body of the fenced code block of doc that starts
// with first.
func fencedBlock(t *testing.T, doc, first string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n"+first)
	if !ok {
		t.Fatalf("docs/using.md has no code block starting %q", first)
	}
	body, _, ok := strings.Cut(rest, "\n```")
	if !ok {
		t.Fatalf("the code block starting %q does not end", first)
	}
	return first + body
}
