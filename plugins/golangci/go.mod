module github.com/gpukvet/gpukvet/plugins/golangci

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/gpukvet/gpukvet v0.0.0
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
)

// Developed in the gpukvet repository; a released plugin requires a
// released gpukvet.
replace github.com/gpukvet/gpukvet => ../..
