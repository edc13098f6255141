// Package unsupported holds a kernel the lowering cannot compile (memspace
// would report it too); the codegen must say where and why.
package unsupported

import "github.com/gpukvet/gpukvet/gpu"

// UsesMap reads a map.
//
//gpu:kernel
func UsesMap(t gpu.Thread, x []int) {
	m := map[int]int{1: 2}
	x[0] = m[1]
}
