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
	results := analysistest.Run(t, analysistestdata.GOPATH(t, analysistest.TestData()), ownership.Analyzer, "basic", "issue20")
	want := map[string][]string{ // the finding → its related positions
		"basic.go:24":  {"19: allocated here: buffer from device.Alloc at line 19"},
		"basic.go:162": {"161: freed here: Free at line 161", "157: allocated here: buffer from device.Alloc at line 157"},
		"basic.go:184": {"183: freed here: Free at line 183", "179: allocated here: buffer from device.Alloc at line 179"},
		// issue 20: a Free in a loop after `defer b.Free()`, appends after
		// `defer freeSlice(bufs)`, an owned field overwritten (directly and
		// by a method), a map entry deleted.
		"deferloop.go:18": {"17: the deferred Free", "13: allocated here: buffer from device.Alloc at line 13"},
		"deferargs.go:26": {"24: allocated here: the buffers held in bufs from line 24"},
		"fields.go:77":    {"72: stored here: the buffer s.buf holds", "68: allocated here: buffer from device.Alloc at line 68"},
		"fields.go:125":   {"122: stored here: the buffer s.buf holds"},
		"maps.go:25":      {"15: allocated here: the buffers held in cache from line 15"},
	}
	got := analysistestdata.Related(results)
	for at, w := range want {
		if !slices.Equal(got[at], w) {
			t.Errorf("finding at %s: related %q, want %q", at, got[at], w)
		}
	}
}
