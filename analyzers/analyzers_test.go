package analyzers

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestAll(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range All() {
		if seen[a.Name] {
			t.Errorf("analyzer %s listed twice", a.Name)
		}
		seen[a.Name] = true
		if a.Doc == "" || a.URL == "" {
			t.Errorf("analyzer %s has no Doc or no URL", a.Name)
		}
	}
	if !seen["ignore"] {
		t.Errorf("All() lacks the ignore analyzer")
	}
	if err := analysis.Validate(All()); err != nil {
		t.Fatal(err)
	}
	all := All()
	all[0] = nil
	if All()[0] == nil {
		t.Errorf("All must return a fresh slice each time")
	}
}

// TestNamesListsEveryCheck: a //gpukvet:ignore directive may name every
// check of the suite, and Names holds nothing the suite lacks.
func TestNamesListsEveryCheck(t *testing.T) {
	var names []string
	for _, a := range checks() {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, Names) {
		t.Errorf("checks() are %v; define.Names lists %v: they must agree", names, Names)
	}
}
