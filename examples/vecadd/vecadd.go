// Package vecadd adds two vectors, one element per thread.
package vecadd

//go:generate go tool gpukvet gen

import "github.com/gpukvet/gpukvet/gpu"

// VecAdd computes c = a + b.
//
//gpu:kernel
func VecAdd(t gpu.Thread, a, b, c []float32) {
	i := t.GlobalIdx().X
	if i < len(c) {
		c[i] = a[i] + b[i]
	}
}
