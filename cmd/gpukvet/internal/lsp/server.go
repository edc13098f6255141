// Package lsp is gpukvet's language server: it runs the gpukvet analyzers
// on the packages of the files open in an editor, unsaved edits included,
// and publishes their findings as diagnostics, with every suggested fix
// as a quick fix. It is meant to run beside gopls, which runs only its own
// analyzers.
//
// The protocol's types and dispatch come from github.com/tliron/glsp
// (LSP 3.16), the JSON-RPC 2.0 connection from
// github.com/sourcegraph/jsonrpc2.
//
// Requests are answered at once from what the last check found: checks run
// in the background, debounced after each edit, one at a time, a newer one
// cancelling the older (go/packages loads are cancelled; an analysis in
// flight finishes and its results are dropped). A check reports its
// progress with $/progress when the client supports it. An edit that keeps
// every file's imports is re-checked in place, without go list (see
// universe); other changes reload the packages. Documents are synced
// incrementally (ranged changes, in UTF-16 code units). A save, or a
// change, that leaves a file with the content the last check saw starts no
// check at all.
package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"golang.org/x/tools/go/analysis"
)

// DefaultDebounce is how long the server waits after an edit before it
// checks: long enough that a burst of keystrokes costs one check, short
// enough not to be noticed.
const DefaultDebounce = 150 * time.Millisecond

// Server is a gpukvet language server for one client connection.
type Server struct {
	// Analyzers are the checks to run.
	Analyzers []*analysis.Analyzer
	// Debounce is the delay between an edit and the check it starts.
	Debounce time.Duration
	// Version is reported to the client as the server's version.
	Version string
	// Log receives the server's own log lines (stderr for gpukvet lsp).
	Log io.Writer

	conn     *jsonrpc2.Conn
	ctx      context.Context // cancelled on shutdown
	stop     context.CancelFunc
	dispatch protocol.Handler

	mu        sync.Mutex
	root      string               // the workspace folder, or ""
	progress  bool                 // the client supports window/workDoneProgress
	docs      map[string]*document // open files by path
	changed   map[string]int       // folders of files edited since the last check → last edit
	opened    map[string]int       // folders of files opened since the last check → last edit
	edits     int                  // numbers edits
	graphOld  bool                 // the workspace import graph needs reloading
	graph     *importGraph         // the workspace's import graph, or nil
	results   map[string]*fileResult
	timer     *time.Timer
	cancel    context.CancelFunc // cancels the check in flight
	checking  chan struct{}      // closed when the check in flight ends
	seq       int                // numbers checks, for progress tokens
	fullAsked int                // the edit after which files changed on disk
	fullDone  int                // the fullAsked that the last full load answered
	// universe is the last load, for re-checking edits in place; only the
	// check in flight (one at a time) uses it.
	universe  *universe
	shutdown  bool // shutdown was requested
	exitError bool // exit came without shutdown
}

// A document is an open file and its unsaved content.
type document struct {
	version int32
	text    []byte
}

// A fileResult is what the last check published for one file.
type fileResult struct {
	version     *int32 // the document version checked, if the file was open
	text        []byte // the content checked, if the file was open
	diagnostics []protocol.Diagnostic
	fixes       [][]quickFix // fixes[i] are the fixes of diagnostics[i]
}

type quickFix struct {
	title string
	edit  protocol.WorkspaceEdit
}

// Serve runs the server on stream until the client sends exit or closes
// the connection. It returns the process exit code the protocol asks for:
// 0 if shutdown came before exit (or the stream just closed after it), 1
// otherwise.
func (s *Server) Serve(ctx context.Context, stream jsonrpc2.ObjectStream) int {
	if s.Debounce == 0 {
		s.Debounce = DefaultDebounce
	}
	if s.Log == nil {
		s.Log = io.Discard
	}
	s.ctx, s.stop = context.WithCancel(ctx)
	defer s.stop()
	s.docs = map[string]*document{}
	s.changed = map[string]int{}
	s.opened = map[string]int{}
	s.results = map[string]*fileResult{}
	s.graphOld = true
	s.dispatch = protocol.Handler{
		Initialize:                     s.initialize,
		Initialized:                    func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:                       s.shutdownRequest,
		Exit:                           func(*glsp.Context) error { return nil },
		CancelRequest:                  s.cancelRequest,
		SetTrace:                       func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:            s.didOpen,
		TextDocumentDidChange:          s.didChange,
		TextDocumentDidSave:            s.didSave,
		TextDocumentDidClose:           s.didClose,
		TextDocumentCodeAction:         s.codeAction,
		WorkspaceDidChangeWatchedFiles: s.didChangeWatchedFiles,
		WorkspaceDidChangeConfiguration: func(*glsp.Context, *protocol.DidChangeConfigurationParams) error {
			return nil
		},
		WindowWorkDoneProgressCancel: s.progressCancel,
	}
	s.conn = jsonrpc2.NewConn(s.ctx, stream, jsonrpc2.HandlerWithError(s.handle))
	<-s.conn.DisconnectNotify()
	s.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	if s.shutdown && !s.exitError {
		return 0
	}
	return 1
}

// handle adapts glsp's dispatch to the JSON-RPC connection. It runs on the
// connection's read loop, so every handler returns at once; checks run in
// their own goroutines.
func (s *Server) handle(_ context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	gctx := &glsp.Context{Method: req.Method}
	if req.Params != nil {
		gctx.Params = *req.Params
	}
	if req.Method == string(protocol.MethodExit) {
		s.mu.Lock()
		s.exitError = !s.shutdown
		s.mu.Unlock()
		return nil, conn.Close()
	}
	r, validMethod, validParams, err := s.dispatch.Handle(gctx)
	switch {
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "gpukvet lsp does not handle " + req.Method}
	case !validParams:
		msg := "bad parameters for " + req.Method
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

func (s *Server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case len(p.WorkspaceFolders) > 0:
		s.root, _ = uriToPath(p.WorkspaceFolders[0].URI)
	case p.RootURI != nil && *p.RootURI != "":
		s.root, _ = uriToPath(*p.RootURI)
	case p.RootPath != nil:
		s.root = *p.RootPath
	}
	if w := p.Capabilities.Window; w != nil && w.WorkDoneProgress != nil {
		s.progress = *w.WorkDoneProgress
	}
	sync := protocol.TextDocumentSyncKindIncremental
	yes, no := true, false
	version := s.Version
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: &yes,
				Change:    &sync,
				Save:      protocol.SaveOptions{IncludeText: &no},
			},
			CodeActionProvider: protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "gpukvet", Version: &version},
	}, nil
}

func (s *Server) shutdownRequest(*glsp.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = true
	if s.timer != nil {
		s.timer.Stop()
	}
	if s.cancel != nil {
		s.cancel()
	}
	return nil
}

// cancelRequest: every request is answered as soon as it is read, so by
// the time $/cancelRequest arrives there is nothing left to cancel. Checks
// are cancelled by newer edits and by window/workDoneProgress/cancel.
func (s *Server) cancelRequest(*glsp.Context, *protocol.CancelParams) error { return nil }

func (s *Server) progressCancel(*glsp.Context, *protocol.WorkDoneProgressCancelParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
	return nil
}

func (s *Server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	if filepath.Ext(path) != ".go" {
		return nil
	}
	s.mu.Lock()
	s.docs[path] = &document{version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	s.edits++
	s.opened[filepath.Dir(path)] = s.edits
	s.mu.Unlock()
	s.schedule(0)
	return nil
}

func (s *Server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	doc := s.docs[path]
	if doc == nil {
		s.mu.Unlock()
		return nil // not a Go file, or never opened
	}
	old := doc.text
	for _, c := range p.ContentChanges {
		text, err := applyChange(doc.text, c)
		if err != nil {
			s.mu.Unlock()
			return err
		}
		doc.text = text
	}
	doc.version = p.TextDocument.Version
	if bytes.Equal(old, doc.text) {
		// Nothing changed (an edit undone in one message, or a whole
		// document sent again): what was found still holds.
		s.keepResult(path, doc)
		s.mu.Unlock()
		return nil
	}
	s.markChanged(filepath.Dir(path))
	s.mu.Unlock()
	s.schedule(s.Debounce)
	return nil
}

// keepResult carries the last result for path over to doc's new version
// when it was computed from doc's content, so that its quick fixes stay
// on offer; s.mu is held.
func (s *Server) keepResult(path string, doc *document) {
	if r := s.results[path]; r != nil && r.version != nil && bytes.Equal(r.text, doc.text) {
		v := doc.version
		r.version = &v
	}
}

// alreadyChecked reports whether the last check saw path with the content
// it has now, in its buffer and on disk, and no edit is waiting for a
// check: then saving it changes nothing the check did not see; s.mu is
// held.
func (s *Server) alreadyChecked(path string) bool {
	doc, r := s.docs[path], s.results[path]
	if doc == nil || r == nil || r.version == nil || *r.version != doc.version || !bytes.Equal(r.text, doc.text) {
		return false
	}
	if _, pending := s.changed[filepath.Dir(path)]; pending {
		return false
	}
	disk, err := os.ReadFile(path)
	return err == nil && bytes.Equal(disk, doc.text)
}

func (s *Server) didSave(_ *glsp.Context, p *protocol.DidSaveTextDocumentParams) error {
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.alreadyChecked(path) {
		// The check ran on this very content as unsaved edits (imports
		// included), so its results and import graph hold: no reload.
		s.mu.Unlock()
		return nil
	}
	s.markChanged(filepath.Dir(path))
	s.fullAsked = s.edits
	s.graphOld = true // imports may have changed on disk
	s.mu.Unlock()
	s.schedule(0)
	return nil
}

func (s *Server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.docs[path]; ok {
		// Unsaved edits are dropped with the buffer: dependents of the
		// file must see it as it is on disk again.
		delete(s.docs, path)
		s.markChanged(filepath.Dir(path))
		s.fullAsked = s.edits
	}
	return nil
}

func (s *Server) didChangeWatchedFiles(_ *glsp.Context, p *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	for _, c := range p.Changes {
		if path, err := uriToPath(c.URI); err == nil {
			s.markChanged(filepath.Dir(path))
		}
	}
	s.fullAsked = s.edits
	s.graphOld = true
	s.mu.Unlock()
	s.schedule(s.Debounce)
	return nil
}

// codeAction offers the suggested fixes of the findings in the requested
// range, as the last check computed them, when the document has not
// changed since.
func (s *Server) codeAction(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	actions := []protocol.CodeAction{}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return actions, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	res := s.results[path]
	if res == nil {
		return actions, nil
	}
	if doc := s.docs[path]; doc != nil && (res.version == nil || *res.version != doc.version) {
		return actions, nil // stale: the next check offers fresh fixes
	}
	kind := protocol.CodeActionKindQuickFix
	for i, d := range res.diagnostics {
		if !overlaps(d.Range, p.Range) {
			continue
		}
		for j, fx := range res.fixes[i] {
			preferred := j == 0
			actions = append(actions, protocol.CodeAction{
				Title:       fx.title,
				Kind:        &kind,
				Diagnostics: []protocol.Diagnostic{d},
				IsPreferred: &preferred,
				Edit:        &fx.edit,
			})
		}
	}
	return actions, nil
}

// overlaps reports whether ranges a and b share a position (an empty range,
// a cursor, overlaps the ranges it touches).
func overlaps(a, b protocol.Range) bool {
	before := func(x, y protocol.Position) bool {
		return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character
	}
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// schedule starts a check after delay, replacing one scheduled before.
func (s *Server) schedule(delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return
	}
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timer = time.AfterFunc(delay, s.startCheck)
}

// startCheck cancels the check in flight and starts a new one on a
// snapshot of the open documents, after the old one has stopped.
func (s *Server) startCheck() {
	s.mu.Lock()
	if s.shutdown || s.ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	if s.cancel != nil {
		s.cancel()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.cancel = cancel
	prev := s.checking
	done := make(chan struct{})
	s.checking = done
	s.seq++
	snap := &snapshot{
		seq:      s.seq,
		root:     s.root,
		progress: s.progress,
		full:     s.fullAsked > s.fullDone,
		fullMark: s.fullAsked,
		docs:     map[string]document{},
		changed:  maps.Clone(s.changed),
		opened:   maps.Clone(s.opened),
		graph:    s.graph,
		graphOld: s.graphOld,
	}
	for path, d := range s.docs {
		snap.docs[path] = *d
	}
	s.mu.Unlock()
	go func() {
		defer close(done)
		defer cancel()
		if prev != nil {
			<-prev
		}
		if ctx.Err() != nil {
			return
		}
		s.check(ctx, snap)
	}()
}

// markChanged records an edit in folder dir; s.mu is held.
func (s *Server) markChanged(dir string) {
	s.edits++
	s.changed[dir] = s.edits
}

// logf sends a log message to the client's log (window/logMessage of type
// Log, which editors do not pop up) and to Log.
func (s *Server) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.Log, "gpukvet lsp:", msg)
	s.conn.Notify(s.ctx, string(protocol.ServerWindowLogMessage), protocol.LogMessageParams{Type: protocol.MessageTypeLog, Message: msg})
}
