package main

import (
	"fmt"
	"os"
)

// buildMain runs `gpukvet build ARGS` and returns the process exit code.
// The codegen engineer replaces this body.
func buildMain(args []string) int {
	fmt.Fprintln(os.Stderr, "gpukvet build: not implemented yet")
	return 2
}
