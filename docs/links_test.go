// Package docs holds gpukvet's user documentation (Markdown pages that the
// README links); its test keeps the pages' relative links pointing at
// files that exist.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// link matches a Markdown inline link's target.
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// code matches fenced code blocks and inline code, whose brackets are Go,
// not links.
var code = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")

// prose returns text without its code.
func prose(text string) string { return code.ReplaceAllString(text, "") }

// TestLinks fails on a relative link in README.md, DIALECT.md or a page of
// docs/ whose file does not exist, so that moving a file or a section
// cannot leave a reader at a dead end.
func TestLinks(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../README.md", "../DIALECT.md")
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(prose(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, _, _ := strings.Cut(target, "#")
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), file)); err != nil {
				t.Errorf("%s: link to %s: %v", page, target, err)
			}
		}
	}
}
