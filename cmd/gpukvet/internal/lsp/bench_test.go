package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkKeystrokeToDiagnostic measures, on a warm server with a module
// of 10 kernel packages open (each calling a device function of a shared
// package, so facts cross packages), the time from an edit of one kernel
// to the diagnostic that edit causes or clears, the debounce included.
// check-ms is the same time without the debounce. sync=full sends the
// whole document with each edit, sync=incremental the one line it
// inserts or deletes, as editors do once the server asks for incremental
// sync.
func BenchmarkKeystrokeToDiagnostic(b *testing.B) {
	for _, incremental := range []bool{false, true} {
		name := "sync=full"
		if incremental {
			name = "sync=incremental"
		}
		b.Run(name, func(b *testing.B) { benchmarkKeystrokes(b, incremental) })
	}
}

func benchmarkKeystrokes(b *testing.B, incremental bool) {
	const dev = "package dev\n\n// Half halves x.\n//\n//gpu:device\nfunc Half(x float32) float32 { return x / 2 }\n"
	files := map[string]string{"dev/dev.go": dev}
	kernel := func(k int, racy bool) string {
		src := strings.Replace(fixedKernel, "package k", fmt.Sprintf("package k%d", k), 1)
		src = strings.Replace(src, `import "github.com/gpukvet/gpukvet/gpu"`, "import (\n\t\"example.com/m/dev\"\n\t\"github.com/gpukvet/gpukvet/gpu\"\n)", 1)
		src = strings.Replace(src, "tile[(i+1)%256]", "dev.Half(tile[(i+1)%256])", 1)
		if racy {
			src = strings.Replace(src, "\tt.Barrier()\n", "", 1)
		}
		return src
	}
	for k := range 10 {
		files[fmt.Sprintf("k%d/k.go", k)] = kernel(k, false)
	}
	dir := writeModule(b, files)
	c := newClientDebounce(b, dir, false, DefaultDebounce)
	for k := range 10 {
		file := filepath.Join(dir, fmt.Sprintf("k%d/k.go", k))
		c.open(file, kernel(k, false))
	}
	for k := range 10 {
		c.waitFor(filepath.Join(dir, fmt.Sprintf("k%d/k.go", k)), 0, "the first check", none)
	}
	edited := filepath.Join(dir, "k3/k.go")
	barrier := uint32(strings.Count(kernel(3, false)[:strings.Index(kernel(3, false), "\tt.Barrier()")], "\n"))
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		racy := i%2 == 0
		n := c.publications(edited)
		if incremental {
			// Delete the barrier's line, or insert it again.
			change := map[string]any{"range": map[string]any{
				"start": map[string]any{"line": barrier, "character": 0},
				"end":   map[string]any{"line": barrier + 1, "character": 0},
			}, "text": ""}
			if !racy {
				change["range"] = map[string]any{
					"start": map[string]any{"line": barrier, "character": 0},
					"end":   map[string]any{"line": barrier, "character": 0},
				}
				change["text"] = "\tt.Barrier()\n"
			}
			c.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": pathToURI(edited), "version": i + 2},
				"contentChanges": []any{change},
			})
		} else {
			c.change(edited, i+2, kernel(3, racy))
		}
		want := none
		if racy {
			want = withAnalyzer("races")
		}
		c.waitFor(edited, n, "the edit's diagnostics", want)
	}
	elapsed := time.Since(start)
	b.ReportMetric(float64(elapsed.Milliseconds())/float64(b.N), "ms/keystroke")
	b.ReportMetric(float64((elapsed-time.Duration(b.N)*DefaultDebounce).Milliseconds())/float64(b.N), "check-ms")
}
