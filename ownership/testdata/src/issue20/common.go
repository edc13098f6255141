package issue20 // want package:"ownership: buffer API"

// The twins of issue 20's ownership classes: defers in loops, deferred
// calls that evaluate their arguments early, owned fields and map entries
// overwritten or deleted without a Free.

import "github.com/gpukvet/gpukvet/gpu"

var one = gpu.Dim3{X: 1, Y: 1, Z: 1}
