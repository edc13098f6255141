// Command gpukvet-vet is gpukvet's analyzers as a vet tool, and nothing
// else:
//
//	go vet -vettool=$(command -v gpukvet-vet) ./...
//
// It runs exactly the analyzers `gpukvet` runs under go vet (the one list,
// analyzers.All), with the same flags and output, but links neither the
// compiler, the language server nor the runtime. go vet starts one vet
// tool process per package, so on a large tree where few packages hold
// kernels the start-up of a process is most of what a vet tool costs; this
// binary's start-up is that of a vet tool that runs no analysis
// (bench/vet-nodialect.txt). Use `gpukvet` for everything else.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/gpukvet/gpukvet/analyzers"
)

func main() {
	unitchecker.Main(analyzers.All()...)
}
