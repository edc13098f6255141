package unidep

import (
	"github.com/gpukvet/gpukvet/gpu"
	"uni"
)

//gpu:kernel
func CrossPackage(t gpu.Thread, n int, a []float32) {
	if uni.Lane(t, n) > 3 { // want `divergent branch: depends on ThreadIdx \(line \d+\) in uni.Lane at line 10`
		a[0] = 1
	}
	if uni.Twice(n) > 3 {
		a[0] = 1
	}
}
