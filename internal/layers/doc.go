// Package layers holds the test that keeps gpukvet's import graph pointing
// one way, with the flow of data (source → SSA → checks → kernel IR →
// emitters → runtime → commands): every package of the module has a
// layer, and a package may import packages of its own layer or below,
// never above. LAYERS.md beside this file is the graph the test last saw
// (`go test ./internal/layers -update` rewrites it); the test fails when
// the graph changes and the file does not, when a package imports one
// above it, and when a package has no layer yet, so that a new package is
// placed on purpose.
//
// It also holds the test that keeps functions short: no function of the
// module, tests and testdata included, spans more than 150 lines, except
// in generated files and the kernel-IR interpreter (functions_test.go).
package layers
