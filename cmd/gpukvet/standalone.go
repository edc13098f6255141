package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/fixes"
	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/lint"
)

// Exit codes of the standalone command.
const (
	exitClean    = 0 // no findings
	exitFindings = 1 // at least one finding
	exitError    = 2 // usage error, or a package that does not load
)

// options are the standalone command's flags.
type options struct {
	format  string
	explain string
	version bool
	tests   bool
	tags    string
	srcRoot string           // -srcroot: the folder SARIF names files relative to
	fix     bool             // apply suggested fixes
	diff    bool             // show suggested fixes as a diff
	enabled map[string]*bool // -NAME: run only the named analyzers
}

func newFlagSet(opts *options, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gpukvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opts.format, "f", "text", "output format: text, json or sarif")
	fs.BoolFunc("json", "same as -f=json", func(string) error { opts.format = "json"; return nil })
	fs.StringVar(&opts.explain, "explain", "", "print the documentation of the named analyzer and exit")
	fs.BoolVar(&opts.version, "version", false, "print gpukvet's version and exit")
	fs.BoolVar(&opts.tests, "test", true, "also check test files")
	fs.StringVar(&opts.tags, "tags", "", "comma-separated build tags")
	fs.StringVar(&opts.srcRoot, "srcroot", "", "SARIF file names are relative to this `folder` (default: the repository root, the nearest folder upwards holding .git, else the working directory)")
	fs.BoolVar(&opts.fix, "fix", false, "apply suggested fixes, then print the findings left unfixed")
	fs.BoolVar(&opts.diff, "diff", false, "print suggested fixes as a unified diff instead of applying them")
	opts.enabled = map[string]*bool{}
	for _, a := range analyzers.All() {
		opts.enabled[a.Name] = fs.Bool(a.Name, false, "run "+a.Name+"; given any -NAME flags, only the named analyzers run")
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	fs.Usage = func() {
		fmt.Fprint(stderr, `gpukvet checks Go GPU kernels and the host code that launches them.

Usage:
	gpukvet [flags] [packages]        check packages (default .)
	gpukvet -explain <analyzer>       print an analyzer's documentation
	go vet -vettool=$(command -v gpukvet) [packages]

Exit status: 1 if there are findings, 0 if none, 2 on a usage or load error.

Commands (gpukvet <command> -h for their flags):
`)
		for _, c := range subcommands() {
			fmt.Fprintf(stderr, "\t%-11s %s\n", c.name, c.summary)
		}
		fmt.Fprint(stderr, "\nAnalyzers:\n")
		for _, a := range analyzers.All() {
			fmt.Fprintf(stderr, "\t%-11s %s\n", a.Name, lint.Summary(a))
		}
		fmt.Fprint(stderr, "\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// standalone runs gpukvet as its own driver and returns the exit code.
func standalone(args []string, stdout, stderr io.Writer) int {
	var opts options
	fs := newFlagSet(&opts, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitClean
		}
		return exitError
	}
	switch {
	case opts.version:
		fmt.Fprintln(stdout, versionString())
		return exitClean
	case opts.explain != "":
		if err := lint.Explain(stdout, opts.explain); err != nil {
			fmt.Fprintf(stderr, "gpukvet: %v\n", err)
			return exitError
		}
		return exitClean
	}
	format, ok := lint.FormatterNamed(opts.format)
	if !ok {
		fmt.Fprintf(stderr, "gpukvet: unknown output format -f=%s; use text, json or sarif\n", opts.format)
		return exitError
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	if len(patterns) == 1 && patterns[0] == "help" {
		fs.Usage()
		return exitClean
	}
	suite := selected(opts.enabled)
	root, err := sourceRoot(opts.srcRoot)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet: -srcroot: %v\n", err)
		return exitError
	}
	findings, loadErrs, err := check(suite, patterns, opts, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet: %v\n", err)
		return exitError
	}
	if opts.diff {
		// Exit 1 when there is something to fix, as for findings.
		something, ok := applyFixes(findings, stdout, stderr)
		if !ok {
			return exitError
		}
		code := exitClean
		if something {
			code = exitFindings
		}
		return max(code, exitCodeOf(loadErrs, nil))
	}
	if opts.fix {
		changed, ok := applyFixes(findings, nil, stderr)
		if !ok {
			return exitError
		}
		if changed {
			// What is left, at its new positions: findings without a fix,
			// fixes that must wait for another run, and any finding the
			// fixed code has. The errors were printed by the first check.
			if findings, loadErrs, err = check(suite, patterns, opts, io.Discard); err != nil {
				fmt.Fprintf(stderr, "gpukvet: %v\n", err)
				return exitError
			}
		}
	}
	if err := format(stdout, lint.Run{Version: version(), Suite: suite, Findings: findings, Errors: loadErrs, SourceRoot: root}); err != nil {
		fmt.Fprintf(stderr, "gpukvet: %v\n", err)
		return exitError
	}
	return exitCodeOf(loadErrs, findings)
}

// check loads the packages of patterns and runs the suite on them. It
// prints the errors that kept packages from loading or analyzers from
// running to stderr and returns them with the findings; its error is one
// that kept it from checking anything.
func check(suite []*analysis.Analyzer, patterns []string, opts options, stderr io.Writer) ([]lint.Finding, []string, error) {
	pkgs, errs, err := lint.Load(patterns, opts.tests, opts.tags)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range errs {
		fmt.Fprintln(stderr, e)
	}
	if len(pkgs) == 0 {
		return nil, errs, nil
	}
	graph, err := checker.Analyze(suite, pkgs, nil)
	if err != nil {
		return nil, nil, err
	}
	findings, analysisErrs := lint.Collect(graph)
	for _, e := range analysisErrs {
		fmt.Fprintln(stderr, e)
	}
	return findings, append(errs, analysisErrs...), nil
}

// sourceRoot returns the absolute folder that SARIF names files relative
// to: dir (-srcroot), which must be a folder, or the repository root
// around the working directory.
func sourceRoot(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return lint.SourceRoot(wd), nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err != nil {
		return "", err
	} else if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder", dir)
	}
	return abs, nil
}

// exitCodeOf is the exit code of a run with these errors and findings.
func exitCodeOf(loadErrs []string, findings []lint.Finding) int {
	switch {
	case len(loadErrs) > 0:
		return exitError
	case len(findings) > 0:
		return exitFindings
	}
	return exitClean
}

// selected returns the analyzers enabled by -NAME flags, or all of them.
func selected(enabled map[string]*bool) []*analysis.Analyzer {
	all := analyzers.All()
	var some []*analysis.Analyzer
	for _, a := range all {
		if *enabled[a.Name] {
			some = append(some, a)
		}
	}
	if len(some) == 0 {
		return all
	}
	return some
}

// applyFixes applies the first suggested fix of every finding, or with
// diff set writes them to diff as a unified diff, changing nothing (see
// lint.ApplyFixes). It reports whether there was something to fix (a file
// changed or shown, or fixes that overlapped others and must wait for
// another run) and false for ok on an error, when nothing was changed.
func applyFixes(findings []lint.Finding, diff, stderr io.Writer) (something, ok bool) {
	res, err := lint.ApplyFixes(findings, diff, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet: %v\n", err)
		if !errors.Is(err, fixes.ErrConflicts) {
			return false, false
		}
		return true, true
	}
	return len(res.Files) > 0, true
}

// versionString describes this build: gpukvet's version and the Go version.
func versionString() string {
	goVersion := "unknown Go version"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
	}
	return fmt.Sprintf("gpukvet %s %s", version(), goVersion)
}

// version is the module version this binary was built from, without its
// "v" (0.0.0-devel for a build from a checkout, with the VCS revision when
// the build recorded one), so that it starts with a number, as SARIF
// consumers compare versions.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "0.0.0-devel"
	}
	return versionOf(bi)
}

// versionOf is version for the build information bi.
func versionOf(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = "+" + s.Value[:min(12, len(s.Value))]
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ".dirty"
			}
		}
	}
	if rev == "" {
		dirty = ""
	}
	return "0.0.0-devel" + rev + dirty
}
