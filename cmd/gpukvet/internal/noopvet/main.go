// Command noopvet is a vet tool that runs no analysis: go vet's protocol,
// parsing and type-checking through unitchecker, and one analyzer that does
// nothing. scripts/bench-vet-std.sh measures gpukvet against it, so that the
// price of gpukvet's analyzers on code without kernels stays visible.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

var noop = &analysis.Analyzer{
	Name: "noop",
	Doc:  "run no analysis",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { unitchecker.Main(noop) }
