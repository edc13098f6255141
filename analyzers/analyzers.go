// Package analyzers is the gpukvet suite: the list of analyzers that the
// gpukvet command runs, under go vet or standalone, and the
// //gpukvet:ignore directive that silences one of them on one line.
//
// Suppression is a wrapper around each analyzer's Run that filters
// pass.Report, so it behaves the same under every driver: go vet
// (unitchecker), the standalone command (checker), analysistest, or any
// other program that runs the analyzers returned by All.
package analyzers

import (
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/divergence"
	"github.com/gpukvet/gpukvet/memspace"
	"github.com/gpukvet/gpukvet/ownership"
	"github.com/gpukvet/gpukvet/races"
)

// Names are the analyzers of the dialect's contract (DIALECT.md), in
// the order gpukvet lists them. A //gpukvet:ignore directive may name any of
// them, whether or not this build of the suite includes it yet.
var Names = []string{"memspace", "ownership", "races", "divergence"}

// checks returns the analyzers that find bugs. Adding one is one line.
func checks() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		memspace.Analyzer,
		ownership.Analyzer,
		races.Analyzer,
		divergence.Analyzer,
	}
}

var (
	suiteOnce sync.Once
	suite     []*analysis.Analyzer
)

// All returns the suite: every check, each wrapped so that
// //gpukvet:ignore directives silence it, followed by Ignore, which reports
// malformed directives. A panic in any of them, or in an analyzer they
// require, is an error of that analyzer on that package (see guard). The analyzers are the packages' own Analyzer
// values (wrapped in place, once), so that analyzers which require one
// another share one instance and one set of facts.
func All() []*analysis.Analyzer {
	suiteOnce.Do(func() {
		for _, a := range checks() {
			Suppressible(a)
			suite = append(suite, a)
		}
		suite = append(suite, Ignore)
		for _, a := range suite {
			guard(a)
		}
	})
	return slices.Clone(suite)
}

// Lookup returns the analyzer of the suite named name, or nil.
func Lookup(name string) *analysis.Analyzer {
	for _, a := range All() {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// known reports whether name may appear in a //gpukvet:ignore directive.
func known(name string) bool {
	if slices.Contains(Names, name) {
		return true
	}
	for _, a := range All() {
		if a.Name == name && a != Ignore {
			return true
		}
	}
	return false
}
