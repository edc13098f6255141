package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/lsp"
)

// lspMain runs gpukvet as a language server on stdin and stdout (see
// package lsp) and returns the exit code the protocol asks for.
func lspMain(args []string) int {
	fs, debounce := newLSPFlags()
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitClean
		}
		return exitError
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "gpukvet lsp: unexpected arguments %v\n", fs.Args())
		return exitError
	}
	s := &lsp.Server{
		Analyzers: analyzers.All(),
		Debounce:  *debounce,
		Version:   version(),
		Log:       os.Stderr,
	}
	stream := jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{})
	return s.Serve(context.Background(), stream)
}

// newLSPFlags returns the flag set of gpukvet lsp and its -debounce flag.
func newLSPFlags() (*flag.FlagSet, *time.Duration) {
	fs := flag.NewFlagSet("gpukvet lsp", flag.ContinueOnError)
	debounce := fs.Duration("debounce", lsp.DefaultDebounce, "wait this long after an edit before checking")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: gpukvet lsp [-debounce=D]

Runs gpukvet as a Language Server Protocol server over stdin and stdout,
beside gopls: the editor starts it and shows gpukvet's findings on the
files it opens, unsaved edits included, with suggested fixes as quick
fixes. See the README for each editor's setup.

`)
		fs.PrintDefaults()
	}
	return fs, debounce
}

// stdio is the server's connection: it reads stdin and writes stdout.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	if err := os.Stdin.Close(); err != nil {
		return err
	}
	return os.Stdout.Close()
}

var _ io.ReadWriteCloser = stdio{}
