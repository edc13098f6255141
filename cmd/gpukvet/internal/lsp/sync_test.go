package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// checks counts the checks the server has logged.
func (c *client) checks() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, l := range c.logs {
		if strings.HasPrefix(l, "checked ") {
			n++
		}
	}
	return n
}

// quiet waits longer than a debounced check takes to start and reports
// whether the server started none since it had logged n.
func (c *client) quiet(n int) bool {
	time.Sleep(time.Second)
	return c.checks() == n
}

func (c *client) save(path string) {
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": pathToURI(path)}})
}

// TestNoReloadOnCheckedContent: saving a file whose content was checked
// (opened, or edited and checked unsaved), or sending its content again,
// starts no check, and the quick fixes stay on offer at the new version; a
// save whose content on disk the server has not seen checks it.
func TestNoReloadOnCheckedContent(t *testing.T) {
	dir := writeModule(t, map[string]string{"k/k.go": earlyReturn})
	file := filepath.Join(dir, "k/k.go")
	c := newClient(t, dir, false)
	c.open(file, earlyReturn)
	ds := c.waitFor(file, 0, "a divergence finding", withAnalyzer("divergence"))
	n := c.checks()

	c.save(file)
	c.change(file, 2, earlyReturn)
	if !c.quiet(n) {
		t.Errorf("saving or resending the checked content started a check: %q", c.logs)
	}
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": pathToURI(file)},
		"range":        ds[0].Range,
		"context":      map[string]any{"diagnostics": ds},
	}, &actions)
	if len(actions) == 0 {
		t.Errorf("no quick fix after the content was sent again at version 2")
	}

	// An unsaved edit is checked once; saving it checks nothing more.
	edited := strings.Replace(earlyReturn, "if i >= n {\n\t\treturn\n\t}\n", "", 1)
	pub := c.publications(file)
	c.change(file, 3, edited)
	c.waitFor(file, pub, "the finding gone after the edit", none)
	n = c.checks()
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	c.save(file)
	if !c.quiet(n) {
		t.Errorf("saving the content checked unsaved started a check: %q", c.logs)
	}

	// A save whose content on disk differs (a tool rewrote the file):
	// checked, with a reload.
	if err := os.WriteFile(file, []byte(earlyReturn), 0o644); err != nil {
		t.Fatal(err)
	}
	c.save(file)
	deadline := time.Now().Add(90 * time.Second)
	for c.checks() == n && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if c.checks() == n {
		t.Errorf("a save of new content on disk started no check")
	}
}

// TestIncrementalSync: the server asks for incremental changes and applies
// ranged edits whose characters are UTF-16 code units.
func TestIncrementalSync(t *testing.T) {
	const src = "package k\n\n// é𝄞 x\nvar V = 1\n"
	dir := writeModule(t, map[string]string{"k/k.go": src})
	file := filepath.Join(dir, "k/k.go")
	c := newClient(t, dir, false)
	c.open(file, src)
	rng := func(line, from, to int) map[string]any {
		return map[string]any{"start": map[string]any{"line": line, "character": from}, "end": map[string]any{"line": line, "character": to}}
	}
	// "// é𝄞 " is 7 UTF-16 units (𝄞 is two): x is at 7; then V's 1.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": pathToURI(file), "version": 2},
		"contentChanges": []any{
			map[string]any{"range": rng(2, 7, 8), "text": "y"},
			map[string]any{"range": rng(3, 8, 9), "text": "2"},
			map[string]any{"range": rng(4, 0, 0), "text": "var W = V\n"},
		},
	})
	want := "package k\n\n// é𝄞 y\nvar V = 2\nvar W = V\n"
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.s.mu.Lock()
		got := string(c.s.docs[file].text)
		c.s.mu.Unlock()
		if got == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("document after ranged changes:\n%q\nwant:\n%q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSyncKind: initialize announces incremental sync.
func TestSyncKind(t *testing.T) {
	s := &Server{}
	r, err := s.initialize(nil, &protocol.InitializeParams{})
	if err != nil {
		t.Fatal(err)
	}
	sync := r.(protocol.InitializeResult).Capabilities.TextDocumentSync.(protocol.TextDocumentSyncOptions)
	if sync.Change == nil || *sync.Change != protocol.TextDocumentSyncKindIncremental {
		t.Errorf("TextDocumentSync.Change is not incremental (%d): %+v", protocol.TextDocumentSyncKindIncremental, sync)
	}
}
