// Command gpukvet checks Go GPU kernels and the host code that launches
// them, and compiles checked kernels for GPUs.
//
// Usage:
//
//	go vet -vettool=$(command -v gpukvet) ./...   # as a vet tool
//	gpukvet [flags] [packages]                   # standalone
//	gpukvet -explain <analyzer>                  # an analyzer's documentation
//	gpukvet build -target=ptx [-o FILE] PKG       # compile a package's kernels
//	gpukvet gen [PKG]                            # embed compiled kernels (go:generate)
//	gpukvet lsp                                  # language server, for editors
//	gpukvet completion bash|zsh|fish             # shell completion script
//
// Standalone, gpukvet prints one finding per line as
// file:line:col: analyzer: message (-f=json and -f=sarif for machines) and
// exits 1 if it found something, 0 if not, and 2 on a usage error or a
// package that does not load or type-check.
package main

import (
	"os"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/gpukvet/gpukvet/analyzers"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 {
		for _, c := range subcommands() {
			if args[0] == c.name {
				os.Exit(c.run(args[1:]))
			}
		}
	}
	if isVetInvocation(args) {
		// unitchecker parses os.Args with the flag package's global set,
		// serves -V=full and -flags, and exits.
		unitchecker.Main(analyzers.All()...)
	}
	os.Exit(standalone(args, os.Stdout, os.Stderr))
}

// isVetInvocation reports whether the go command runs gpukvet as a vet
// tool: it asks for the tool's identity (-V=full) or its flags (-flags), or
// hands it a compilation unit (a *.cfg file, always the last argument), as
// multichecker and unitchecker detect it.
func isVetInvocation(args []string) bool {
	for _, a := range args {
		switch strings.TrimPrefix(a, "-") {
		case "-V=full", "V=full", "-flags", "flags":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}
