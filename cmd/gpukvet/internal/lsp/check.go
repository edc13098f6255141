package lsp

import (
	"context"
	"fmt"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/loadfit"
	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/stdsyntax"
)

// A snapshot is what one check works on: the open documents and the edits
// made, as they were when it started.
type snapshot struct {
	seq      int
	root     string
	progress bool
	full     bool // a file changed on disk: run go list, do not re-check in place
	fullMark int  // the request for a full load this snapshot answers
	docs     map[string]document
	changed  map[string]int // edited folder → number of the last edit in it
	opened   map[string]int // folder of a newly opened file → number of the opening
	graph    *importGraph
	graphOld bool
}

// check loads the packages of the files opened or edited since the last
// check and of the workspace packages that depend on an edited one, with
// every open file's unsaved content, runs the analyzers on them (and on
// their dependencies, for facts), and publishes the diagnostics of every
// file of those packages. A cancelled check publishes nothing.
func (s *Server) check(ctx context.Context, snap *snapshot) {
	if len(snap.opened) == 0 && len(snap.changed) == 0 {
		return
	}
	dir := snap.root
	if dir == "" {
		for path := range snap.docs {
			dir = filepath.Dir(path)
			break
		}
	}
	if dir == "" {
		return
	}
	overlay := map[string][]byte{}
	for path, d := range snap.docs {
		overlay[path] = d.text
	}

	end := s.beginProgress(ctx, snap, fmt.Sprintf("checking %d edited or opened folders", len(snap.changed)+len(snap.opened)))
	summary := "cancelled"
	defer func() { end(summary) }()

	// Dependents of edited packages, from the workspace's import graph.
	graph := snap.graph
	if snap.root != "" && (graph == nil || snap.graphOld) {
		g, err := loadImportGraph(ctx, snap.root, overlay)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.logf("listing the workspace's packages: %v", err)
		} else {
			graph = g
			s.mu.Lock()
			if s.graph == snap.graph {
				s.graph, s.graphOld = g, false
			}
			s.mu.Unlock()
		}
	}
	targets := slices.Collect(maps.Keys(snap.changed))
	targets = append(targets, slices.Collect(maps.Keys(snap.opened))...)
	if graph != nil {
		targets = append(targets, graph.dependents(snap.changed)...)
	}
	// A folder is loaded by one of its open files (which works outside a
	// module too) or as a folder.
	var patterns []string
	for _, dir := range targets {
		pattern := dir
		for path := range snap.docs {
			if filepath.Dir(path) == dir {
				pattern = "file=" + path
				break
			}
		}
		patterns = append(patterns, pattern)
	}
	slices.Sort(patterns)
	patterns = slices.Compact(patterns)
	if len(patterns) == 0 {
		summary = "nothing to check"
		return
	}

	started := time.Now()
	var roots []*packages.Package
	how := "re-checked in place"
	incremental := false
	if s.universe != nil && !snap.full {
		roots, incremental = s.universe.recheck(snap, targets)
	}
	if !incremental {
		how = "loaded"
		cfg := &packages.Config{
			Context: ctx,
			Dir:     dir,
			Mode:    packages.LoadAllSyntax | packages.NeedModule,
			Tests:   true,
			Overlay: overlay,
			// The standard library never uses gpukvet's packages, so no
			// analyzer looks into its function bodies: skipping them makes
			// a check several times faster. Facts of everything else, on
			// which the checks of other packages depend, are computed from
			// full source.
			ParseFile: stdsyntax.ParseFile(stdsyntax.GOROOT()),
		}
		var err error
		roots, err = packages.Load(cfg, patterns...)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.logf("loading %s: %v", strings.Join(patterns, " "), err)
			summary = "load failed"
			return
		}
		stdsyntax.ForgiveImports(roots, stdsyntax.GOROOT())
		s.universe = newUniverse(roots, overlay)
	}
	loaded := time.Now()
	fit, errs := loadfit.Fit(roots, func(e packages.Error) string { return e.Error() })
	for _, e := range errs {
		s.logf("%s (the compiler reports this; gpukvet skips the package until it type-checks)", e)
	}
	var g *checker.Graph
	if len(fit) > 0 {
		var err error
		g, err = checker.Analyze(s.Analyzers, fit, nil)
		if err != nil {
			s.logf("analysis: %v", err)
			summary = "analysis failed"
			return
		}
	}
	if ctx.Err() != nil {
		return
	}
	results := s.diagnose(snap, roots, g)
	n := 0
	for _, r := range results {
		n += len(r.diagnostics)
	}
	summary = fmt.Sprintf("%d findings", n)
	s.logf("checked %s: %s (%s in %v, analysis %v)", strings.Join(patterns, " "), summary,
		how, loaded.Sub(started).Round(time.Millisecond), time.Since(loaded).Round(time.Millisecond))
	s.publish(ctx, snap, results, !incremental)
}

// diagnose turns the findings of g into LSP diagnostics and quick fixes,
// for every file of the root packages (a file without findings gets an
// empty list, which clears what an earlier check published).
func (s *Server) diagnose(snap *snapshot, roots []*packages.Package, g *checker.Graph) map[string]*fileResult {
	results := map[string]*fileResult{}
	for _, p := range roots {
		for _, f := range p.CompiledGoFiles {
			if results[f] == nil {
				results[f] = &fileResult{diagnostics: []protocol.Diagnostic{}}
			}
		}
	}
	if g == nil {
		return results
	}
	contents := map[string][]byte{}
	content := func(file string) []byte {
		if d, ok := snap.docs[file]; ok {
			return d.text
		}
		c, ok := contents[file]
		if !ok {
			c, _ = os.ReadFile(file)
			contents[file] = c
		}
		return c
	}
	// rangeOf converts a token range to an LSP range in its file, checking
	// that the file is the one analyzed.
	rangeOf := func(fset *token.FileSet, pos, end token.Pos) (string, protocol.Range, bool) {
		tf := fset.File(pos)
		if tf == nil {
			return "", protocol.Range{}, false
		}
		c := content(tf.Name())
		if tf.Size() != len(c) {
			return "", protocol.Range{}, false
		}
		start := tf.Offset(pos)
		stop := start
		if end.IsValid() && end >= pos && int(end) <= tf.Base()+tf.Size() {
			stop = tf.Offset(end)
		}
		return tf.Name(), protocol.Range{Start: position(c, start), End: position(c, stop)}, true
	}
	type key struct {
		analyzer, file string
		rng            protocol.Range
		msg            string
	}
	seen := map[key]bool{}
	source := "gpukvet"
	severity := protocol.DiagnosticSeverityWarning
	for _, act := range g.Roots {
		if act.Err != nil {
			s.logf("%s failed on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			file, rng, ok := rangeOf(fset, d.Pos, d.End)
			if !ok {
				continue
			}
			k := key{act.Analyzer.Name, file, rng, d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			diag := protocol.Diagnostic{
				Range:    rng,
				Severity: &severity,
				Code:     &protocol.IntegerOrString{Value: act.Analyzer.Name},
				Source:   &source,
				Message:  d.Message,
			}
			if href := docURL(act.Analyzer, d); href != "" {
				diag.CodeDescription = &protocol.CodeDescription{HRef: href}
			}
			for _, r := range d.Related {
				if rf, rr, ok := rangeOf(fset, r.Pos, r.End); ok {
					diag.RelatedInformation = append(diag.RelatedInformation, protocol.DiagnosticRelatedInformation{
						Location: protocol.Location{URI: pathToURI(rf), Range: rr},
						Message:  r.Message,
					})
				}
			}
			var fixes []quickFix
		fixes:
			for _, sf := range d.SuggestedFixes {
				changes := map[protocol.DocumentUri][]protocol.TextEdit{}
				for _, e := range sf.TextEdits {
					ef, er, ok := rangeOf(fset, e.Pos, e.End)
					if !ok {
						continue fixes
					}
					uri := pathToURI(ef)
					changes[uri] = append(changes[uri], protocol.TextEdit{Range: er, NewText: string(e.NewText)})
				}
				fixes = append(fixes, quickFix{title: sf.Message, edit: protocol.WorkspaceEdit{Changes: changes}})
			}
			r := results[file]
			if r == nil {
				r = &fileResult{}
				results[file] = r
			}
			r.diagnostics = append(r.diagnostics, diag)
			r.fixes = append(r.fixes, fixes)
		}
	}
	return results
}

// docURL is the documentation link of a diagnostic: its URL, which the
// checker resolved against its analyzer's (adding its category as a
// fragment), or the analyzer's.
func docURL(a *analysis.Analyzer, d analysis.Diagnostic) string {
	if d.URL != "" {
		return d.URL
	}
	return a.URL
}

// publish sends the results and records them for code actions. It drops
// them when the check was cancelled meanwhile.
func (s *Server) publish(ctx context.Context, snap *snapshot, results map[string]*fileResult, fullLoad bool) {
	s.mu.Lock()
	if ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	files := make([]string, 0, len(results))
	for file, r := range results {
		if d, ok := snap.docs[file]; ok {
			v := d.version
			r.version, r.text = &v, d.text
		}
		s.results[file] = r
		files = append(files, file)
	}
	for dir, n := range snap.changed {
		if s.changed[dir] == n {
			delete(s.changed, dir) // no edit since this snapshot
		}
	}
	for dir, n := range snap.opened {
		if s.opened[dir] == n {
			delete(s.opened, dir)
		}
	}
	if fullLoad {
		s.fullDone = max(s.fullDone, snap.fullMark)
	}
	s.mu.Unlock()
	slices.Sort(files)
	for _, file := range files {
		r := results[file]
		params := protocol.PublishDiagnosticsParams{URI: pathToURI(file), Diagnostics: r.diagnostics}
		if r.version != nil {
			v := uint32(*r.version)
			params.Version = &v
		}
		s.conn.Notify(ctx, string(protocol.ServerTextDocumentPublishDiagnostics), params)
	}
}

// beginProgress reports the start of a check with $/progress, when the
// client supports it, and returns the function that reports its end.
func (s *Server) beginProgress(ctx context.Context, snap *snapshot, message string) func(summary string) {
	if !snap.progress {
		return func(string) {}
	}
	token := protocol.ProgressToken{Value: fmt.Sprintf("gpukvet-check-%d", snap.seq)}
	if err := s.conn.Call(ctx, string(protocol.ServerWindowWorkDoneProgressCreate), protocol.WorkDoneProgressCreateParams{Token: token}, nil); err != nil {
		return func(string) {}
	}
	cancellable := true
	s.conn.Notify(ctx, string(protocol.MethodProgress), protocol.ProgressParams{Token: token, Value: protocol.WorkDoneProgressBegin{
		Kind: "begin", Title: "gpukvet", Message: &message, Cancellable: &cancellable,
	}})
	return func(summary string) {
		// Sent even when the check was cancelled, so that the client
		// closes the progress report.
		s.conn.Notify(context.WithoutCancel(ctx), string(protocol.MethodProgress), protocol.ProgressParams{Token: token, Value: protocol.WorkDoneProgressEnd{
			Kind: "end", Message: &summary,
		}})
	}
}

// importGraph is the import graph of the workspace's packages, to find the
// packages that depend on an edited one.
type importGraph struct {
	dirs      map[string]string   // package path → its folder
	pathsIn   map[string][]string // folder → the package paths in it
	importers map[string][]string // package path → workspace packages importing it
}

func loadImportGraph(ctx context.Context, root string, overlay map[string][]byte) (*importGraph, error) {
	cfg := &packages.Config{
		Context: ctx,
		Dir:     root,
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedImports,
		Tests:   true,
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	g := &importGraph{dirs: map[string]string{}, pathsIn: map[string][]string{}, importers: map[string][]string{}}
	for _, p := range pkgs {
		if len(p.GoFiles) == 0 {
			continue
		}
		dir := filepath.Dir(p.GoFiles[0])
		if _, ok := g.dirs[p.PkgPath]; !ok {
			g.dirs[p.PkgPath] = dir
			g.pathsIn[dir] = append(g.pathsIn[dir], p.PkgPath)
		}
		for _, imp := range p.Imports {
			if !slices.Contains(g.importers[imp.PkgPath], p.PkgPath) {
				g.importers[imp.PkgPath] = append(g.importers[imp.PkgPath], p.PkgPath)
			}
		}
	}
	return g, nil
}

// dependents returns the folders of the workspace packages that import,
// directly or not, a package in one of the changed folders.
func (g *importGraph) dependents(changed map[string]int) []string {
	seen := map[string]bool{}
	var queue []string
	for dir := range changed {
		queue = append(queue, g.pathsIn[dir]...)
	}
	var dirs []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, imp := range g.importers[p] {
			if !seen[imp] {
				seen[imp] = true
				queue = append(queue, imp)
				dirs = append(dirs, g.dirs[imp])
			}
		}
	}
	return dirs
}
