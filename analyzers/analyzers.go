// Package analyzers is the gpukvet suite: the list of analyzers that the
// gpukvet command runs, under go vet, standalone or as a language server.
//
// Each analyzer is defined, with //gpukvet:ignore suppression and a panic
// guard applied, in its own package (memspace, ownership, races,
// divergence, and analyzers/ignore, which reports malformed directives),
// through package internal/define; this package only lists them. Any
// driver may run the list, or any one analyzer package on its own (Bazel's
// nogo wants one package per analyzer), and gets the same behaviour.
package analyzers

import (
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/analyzers/ignore"
	"github.com/gpukvet/gpukvet/divergence"
	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/memspace"
	"github.com/gpukvet/gpukvet/ownership"
	"github.com/gpukvet/gpukvet/races"
)

// Names are the analyzers of the dialect's contract (DIALECT.md), in
// the order gpukvet lists them. A //gpukvet:ignore directive may name any of
// them, whether or not this build of the suite includes it yet.
var Names = define.Names

// Ignore reports malformed //gpukvet:ignore directives; it is
// ignore.Analyzer.
var Ignore = ignore.Analyzer

// checks returns the analyzers that find bugs. Adding one is one line
// here, and its name in define.Names.
func checks() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		memspace.Analyzer,
		ownership.Analyzer,
		races.Analyzer,
		divergence.Analyzer,
	}
}

// All returns the suite: every check, followed by Ignore. The analyzers
// are the packages' own Analyzer values, unchanged, so that analyzers which
// require one another share one instance and one set of facts. It returns
// a fresh slice each time.
func All() []*analysis.Analyzer {
	return append(checks(), Ignore)
}

// Lookup returns the analyzer of the suite named name, or nil.
func Lookup(name string) *analysis.Analyzer {
	i := slices.IndexFunc(All(), func(a *analysis.Analyzer) bool { return a.Name == name })
	if i < 0 {
		return nil
	}
	return All()[i]
}
