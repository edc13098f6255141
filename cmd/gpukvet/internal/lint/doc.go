// Package lint is gpukvet's standalone linter, the machinery behind
// `gpukvet [flags] [packages]`: it loads the packages to check, collects the
// findings of the analyzers' run over them, writes them as text, JSON or
// SARIF, applies their suggested fixes, and prints an analyzer's
// documentation. The command parses the flags, wires these together and
// chooses the exit code.
package lint
