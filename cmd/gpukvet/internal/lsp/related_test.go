package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRelatedInformation checks that a finding's related position (the
// other access of racyKernel's race, line 10) is published as
// relatedInformation, in the file at its line.
func TestRelatedInformation(t *testing.T) {
	dir := writeModule(t, map[string]string{"k/k.go": racyKernel})
	file := filepath.Join(dir, "k/k.go")
	c := newClient(t, dir, false)
	c.open(file, racyKernel)
	ds := c.waitFor(file, 0, "a races finding", withAnalyzer("races"))
	rel := ds[0].RelatedInformation
	if len(rel) != 1 || rel[0].Location.URI != pathToURI(file) || rel[0].Location.Range.Start.Line+1 != 10 || !strings.HasPrefix(rel[0].Message, "the other access:") {
		t.Errorf("relatedInformation = %+v, want the other access at line 10 of k.go", rel)
	}
	c.shutdown()
}
