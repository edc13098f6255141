package main

import (
	"fmt"
	"os"
)

// genMain runs `gpukvet gen ARGS` and returns the process exit code.
// The cuda engineer replaces this body.
func genMain(args []string) int {
	fmt.Fprintln(os.Stderr, "gpukvet gen: not implemented yet")
	return 2
}
