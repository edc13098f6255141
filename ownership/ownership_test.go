package ownership_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/ownership"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistestdata.GOPATH(t, analysistest.TestData()), ownership.Analyzer, "basic", "owner", "lib", "crosspkg", "loops", "wrapped", "misc", "slices", "hostonly", "heldout", "lastuse", "issue20")
}

func TestDoc(t *testing.T) {
	if !strings.HasPrefix(ownership.Analyzer.Doc, "ownership: ") {
		t.Errorf("Doc does not start with its title: %.60q", ownership.Analyzer.Doc)
	}
}

// TestRelated checks that a finding carries the other positions it speaks
// of as related information: the allocation of a leaked buffer, the Free
// before a use or a second Free.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, analysistestdata.GOPATH(t, analysistest.TestData()), ownership.Analyzer, "basic")
	want := map[string][]string{ // the finding → its related positions
		"basic.go:24":  {"19: allocated here: buffer from device.Alloc at line 19"},
		"basic.go:162": {"161: freed here: Free at line 161", "157: allocated here: buffer from device.Alloc at line 157"},
		"basic.go:184": {"183: freed here: Free at line 183", "179: allocated here: buffer from device.Alloc at line 179"},
	}
	got := analysistestdata.Related(results)
	for at, w := range want {
		if !slices.Equal(got[at], w) {
			t.Errorf("finding at %s: related %q, want %q", at, got[at], w)
		}
	}
}
