// Package regress holds the shrunk random programs that once mismatched.
package regress

import "github.com/gpukvet/gpukvet/internal/kerngen"

// Kernels describes every kernel of the package.
var Kernels = []kerngen.Kernel{}
