// Package saxpy is the smallest useful kernel: y = a*x + y, one element per
// thread.
package saxpy

//go:generate go tool gpukvet gen

import "github.com/gpukvet/gpukvet/gpu"

// Saxpy computes y = a*x + y.
//
//gpu:kernel
func Saxpy(t gpu.Thread, a float32, x, y []float32) {
	i := t.GlobalIdx().X
	if i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}
