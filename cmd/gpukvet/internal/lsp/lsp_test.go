package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gpukvet/gpukvet/analyzers"
)

// The tests run the server in-process and drive it through JSON-RPC over
// a pipe, as an editor does over stdio.

var repoRoot, _ = filepath.Abs("../../../..")

// writeModule writes a module example.com/m that requires gpukvet
// (replaced by this checkout) and holds files, and returns its folder.
func writeModule(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = fmt.Sprintf("module example.com/m\n\ngo 1.24\n\nrequire github.com/gpukvet/gpukvet v0.0.0\n\nreplace github.com/gpukvet/gpukvet => %s\n", repoRoot)
	files["go.sum"] = string(sum)
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// diagnostic is an LSP diagnostic as the client decodes it (glsp's
// IntegerOrString cannot decode the code).
type diagnostic struct {
	Range              protocol.Range
	Code               any
	Source             string
	Message            string
	CodeDescription    *struct{ Href string }
	RelatedInformation []protocol.DiagnosticRelatedInformation
}

// client is the editor's end of a connection to an in-process server.
type client struct {
	t    testing.TB
	s    *Server
	conn *jsonrpc2.Conn
	done chan int // the server's exit code

	mu          sync.Mutex
	cond        *sync.Cond
	diagnostics map[string][]diagnostic // latest by URI
	published   map[string]int          // publications by URI
	versions    map[string]int          // version of the latest publication by URI
	progress    []string                // kinds of $/progress values
	logs        []string
}

func newClient(t testing.TB, root string, progress bool) *client {
	return newClientDebounce(t, root, progress, 20*time.Millisecond)
}

func newClientDebounce(t testing.TB, root string, progress bool, debounce time.Duration) *client {
	t.Helper()
	if os.Getenv("GOFLAGS") == "" {
		t.Setenv("GOFLAGS", "-mod=mod")
	}
	t.Setenv("GOWORK", "off")
	serverEnd, clientEnd := net.Pipe()
	c := &client{t: t, done: make(chan int, 1), diagnostics: map[string][]diagnostic{}, published: map[string]int{}, versions: map[string]int{}}
	c.cond = sync.NewCond(&c.mu)
	s := &Server{Analyzers: analyzers.All(), Debounce: debounce, Version: "test", Log: testLog{t}}
	c.s = s
	go func() {
		c.done <- s.Serve(context.Background(), jsonrpc2.NewBufferedStream(serverEnd, jsonrpc2.VSCodeObjectCodec{}))
	}()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(clientEnd, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(func() { c.conn.Close() })

	params := map[string]any{
		"processId":    nil,
		"rootUri":      pathToURI(root),
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": progress}},
	}
	var init protocol.InitializeResult
	c.call("initialize", params, &init)
	if init.ServerInfo == nil || init.ServerInfo.Name != "gpukvet" {
		t.Fatalf("initialize returned %+v", init)
	}
	c.notify("initialized", map[string]any{})
	return c
}

// handle receives the server's notifications and requests.
func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.cond.Broadcast()
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p struct {
			URI         string
			Version     int
			Diagnostics []diagnostic
		}
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			c.t.Errorf("bad publishDiagnostics: %v", err)
		}
		c.diagnostics[p.URI] = p.Diagnostics
		c.published[p.URI]++
		c.versions[p.URI] = p.Version
	case "window/workDoneProgress/create":
		return nil, nil
	case "$/progress":
		var p struct{ Value struct{ Kind string } }
		json.Unmarshal(*req.Params, &p)
		c.progress = append(c.progress, p.Value.Kind)
	case "window/logMessage":
		var p protocol.LogMessageParams
		json.Unmarshal(*req.Params, &p)
		c.logs = append(c.logs, p.Message)
	}
	return nil, nil
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) open(path, text string) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": pathToURI(path), "languageId": "go", "version": 1, "text": text}})
}

func (c *client) change(path string, version int, text string) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": pathToURI(path), "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

// waitFor waits until the diagnostics published for path satisfy ok, and
// returns them. Publications counted in after are not looked at: a caller
// passes the count it saw before its edit.
func (c *client) waitFor(path string, after int, what string, ok func([]diagnostic) bool) []diagnostic {
	c.t.Helper()
	uri := pathToURI(path)
	deadline := time.Now().Add(90 * time.Second)
	timer := time.AfterFunc(time.Until(deadline), func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if d, pub := c.diagnostics[uri], c.published[uri]; pub > after && ok(d) {
			return d
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s on %s; last diagnostics %+v; logs %q", what, filepath.Base(path), c.diagnostics[uri], c.logs)
		}
		c.cond.Wait()
	}
}

func (c *client) publications(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.published[pathToURI(path)]
}

func (c *client) shutdown() int {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case code := <-c.done:
		return code
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit after shutdown and exit")
	}
	return -1
}

func withAnalyzer(name string) func([]diagnostic) bool {
	return func(ds []diagnostic) bool {
		for _, d := range ds {
			if d.Code == name {
				return true
			}
		}
		return false
	}
}

func none(ds []diagnostic) bool { return len(ds) == 0 }

const racyKernel = `package k

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=256
func Shift(t gpu.Thread, x, y []float32) {
	tile := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	g := t.GlobalIdx().X
	tile[i] = x[g]
	y[g] = tile[(i+1)%256]
}
`

var fixedKernel = strings.Replace(racyKernel, "\ty[g] = tile", "\tt.Barrier()\n\ty[g] = tile", 1)

// TestUnsavedEdits: the server checks the buffer, not the file on disk.
func TestUnsavedEdits(t *testing.T) {
	dir := writeModule(t, map[string]string{"k/k.go": fixedKernel})
	file := filepath.Join(dir, "k/k.go")
	c := newClient(t, dir, true)
	c.open(file, fixedKernel)
	c.waitFor(file, 0, "no findings on the clean file", none)

	n := c.publications(file)
	c.change(file, 2, racyKernel)
	ds := c.waitFor(file, n, "a races finding on the unsaved racy edit", withAnalyzer("races"))
	d := ds[0]
	if d.Range.Start.Line+1 < 10 || d.Range.Start.Line+1 > 11 {
		t.Errorf("race reported at line %d, want 10 or 11: %+v", d.Range.Start.Line+1, d)
	}
	if d.Source != "gpukvet" || d.CodeDescription == nil || !strings.HasPrefix(d.CodeDescription.Href, analyzers.Lookup("races").URL) {
		t.Errorf("diagnostic lacks source or a link to the check's documentation: %+v %+v", d, d.CodeDescription)
	}

	n = c.publications(file)
	c.change(file, 3, fixedKernel)
	c.waitFor(file, n, "the finding gone after the unsaved fix", none)
	if got, _ := os.ReadFile(file); string(got) != fixedKernel {
		t.Errorf("the server wrote the file")
	}
	c.mu.Lock()
	progress := strings.Join(c.progress, " ")
	c.mu.Unlock()
	if !strings.Contains(progress, "begin") || !strings.Contains(progress, "end") {
		t.Errorf("$/progress kinds %q, want begin and end", progress)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit code after shutdown and exit = %d, want 0", code)
	}
}

const earlyReturn = `package k

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Scale(t gpu.Thread, n int, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	if i >= n {
		return
	}
	s[tid] = in[i]
	t.Barrier()
	out[i] = s[(tid+1)%256]
}
`

// TestQuickFix: a suggested fix is offered as a quick fix whose edit,
// applied to the buffer, makes the finding go.
func TestQuickFix(t *testing.T) {
	dir := writeModule(t, map[string]string{"k/k.go": earlyReturn})
	file := filepath.Join(dir, "k/k.go")
	c := newClient(t, dir, false)
	c.open(file, earlyReturn)
	ds := c.waitFor(file, 0, "a divergence finding", withAnalyzer("divergence"))

	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": pathToURI(file)},
		"range":        ds[0].Range,
		"context":      map[string]any{"diagnostics": ds},
	}, &actions)
	if len(actions) == 0 || actions[0].Edit == nil || actions[0].Kind == nil || *actions[0].Kind != protocol.CodeActionKindQuickFix {
		t.Fatalf("code actions = %+v; want a quick fix with an edit", actions)
	}
	edits := actions[0].Edit.Changes[pathToURI(file)]
	text := []byte(earlyReturn)
	// Apply from the end, so that earlier ranges stay valid.
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		start, end := offset(text, e.Range.Start), offset(text, e.Range.End)
		text = append(text[:start:start], append([]byte(e.NewText), text[end:]...)...)
	}
	if !strings.Contains(string(text), "if i < n {") {
		t.Fatalf("fixed text:\n%s", text)
	}
	n := c.publications(file)
	c.change(file, 2, string(text))
	c.waitFor(file, n, "the finding gone after the quick fix", none)
}

// TestTypeError: a file that does not type-check gets no findings (gopls
// reports the compiler's error), the server stays up, and findings come
// back when the error is fixed.
func TestTypeError(t *testing.T) {
	dir := writeModule(t, map[string]string{"k/k.go": racyKernel})
	file := filepath.Join(dir, "k/k.go")
	c := newClient(t, dir, false)
	broken := strings.Replace(racyKernel, "x[g]\n", "x[g] + \"one\"\n", 1)
	c.open(file, broken)
	c.waitFor(file, 0, "an empty list for the ill-typed file", none)
	c.mu.Lock()
	logs := strings.Join(c.logs, "\n")
	c.mu.Unlock()
	if !strings.Contains(logs, "k.go:10") {
		t.Errorf("the type error is not logged: %q", logs)
	}
	n := c.publications(file)
	c.change(file, 2, racyKernel)
	c.waitFor(file, n, "a races finding once the file type-checks", withAnalyzer("races"))
}

// TestNoKernels: a package without kernels is checked and clean.
func TestNoKernels(t *testing.T) {
	const host = "package h\n\nimport \"fmt\"\n\nfunc F() { fmt.Println(1) }\n"
	dir := writeModule(t, map[string]string{"h/h.go": host})
	file := filepath.Join(dir, "h/h.go")
	c := newClient(t, dir, false)
	c.open(file, host)
	c.waitFor(file, 0, "an empty list", none)
}

// TestDependents: an unsaved edit to a device function in one package is
// seen, through the facts exported for it, in a kernel of another package
// that calls it; the kernel's package is re-checked though it is not open.
func TestDependents(t *testing.T) {
	const dev = `package dev

var scale = 2

// Twice doubles x.
//
//gpu:device
func Twice(x float32) float32 { return x * 2 }
`
	const kernel = `package k

import (
	"example.com/m/dev"
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Double(t gpu.Thread, x []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		x[i] = dev.Twice(x[i])
	}
}
`
	dir := writeModule(t, map[string]string{"dev/dev.go": dev, "k/k.go": kernel})
	devFile, kFile := filepath.Join(dir, "dev/dev.go"), filepath.Join(dir, "k/k.go")
	c := newClient(t, dir, false)
	c.open(devFile, dev)
	c.waitFor(devFile, 0, "no findings in dev", none)

	// Twice now reads a package variable: the kernel's call breaks memspace.
	c.change(devFile, 2, strings.Replace(dev, "x * 2", "x * float32(scale)", 1))
	ds := c.waitFor(kFile, c.publications(kFile), "a memspace finding at the call in the unopened dependent", withAnalyzer("memspace"))
	if line := ds[0].Range.Start.Line + 1; line != 12 {
		t.Errorf("memspace finding at line %d of k.go, want 12 (the call): %+v", line, ds[0])
	}
	c.change(devFile, 3, dev)
	c.waitFor(kFile, c.publications(kFile), "the dependent clean again", none)
	// Once more, now that both packages are loaded: the edit is re-checked
	// in place (no go list), and facts must still cross.
	c.change(devFile, 4, strings.Replace(dev, "x * 2", "x * float32(scale)", 1))
	c.waitFor(kFile, c.publications(kFile), "the memspace finding again", withAnalyzer("memspace"))
}

func TestExitWithoutShutdown(t *testing.T) {
	dir := writeModule(t, map[string]string{})
	c := newClient(t, dir, false)
	c.notify("exit", nil)
	select {
	case code := <-c.done:
		if code != 1 {
			t.Errorf("exit without shutdown: code %d, want 1", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not exit")
	}
}

// testLog shows the server's log lines with the test's output (go test -v).
type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// TestRapidEdits: edits faster than checks cancel the checks they
// supersede, $/cancelRequest is accepted, and what stays published is the
// last version's result.
func TestRapidEdits(t *testing.T) {
	dir := writeModule(t, map[string]string{"k/k.go": fixedKernel})
	file := filepath.Join(dir, "k/k.go")
	c := newClient(t, dir, true)
	c.open(file, fixedKernel)
	c.waitFor(file, 0, "the first check", none)
	n := c.publications(file)
	for v := 2; v <= 9; v++ {
		text := fixedKernel
		if v%2 == 0 {
			text = racyKernel
		}
		c.change(file, v, text)
		c.notify("$/cancelRequest", map[string]any{"id": v})
		time.Sleep(60 * time.Millisecond) // past the debounce: a check starts
	}
	c.change(file, 10, racyKernel)
	c.waitFor(file, n, "the last version's race", func(ds []diagnostic) bool {
		return withAnalyzer("races")(ds) && c.versions[pathToURI(file)] == 10
	})
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": pathToURI(file)},
		"range":        map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 20, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	if len(actions) != 0 {
		t.Errorf("races has no fixes, yet code actions were offered: %+v", actions)
	}
	if checks := c.publications(file) - n; checks > 9 {
		t.Errorf("%d publications for 9 rapid edits: superseded checks were not cancelled", checks)
	}
}
