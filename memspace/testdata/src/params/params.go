package params

import "github.com/gpukvet/gpukvet/gpu"

type Good struct {
	N     int
	Scale float32
	On    bool
	Inner struct{ A, B int8 }
}

type HasPtr struct{ P *int }

//gpu:kernel
func Bad(t gpu.Thread,
	s string, // want `kernel Bad: parameter s has type string, which cannot be passed to a kernel: strings live in host memory`
	p *int, // want `parameter p has type \*int, which cannot be passed to a kernel: pointers to host memory mean nothing on the device`
	a [4]int, // want `parameter a has type \[4\]int, which cannot be passed to a kernel: arrays are not passed by value`
	m map[int]int, // want `parameter m has type map\[int\]int, which cannot be passed to a kernel`
	h HasPtr, // want `parameter h has type HasPtr, which cannot be passed to a kernel: a struct parameter may hold only`
	ss [][]int, // want `parameter ss has type \[\]\[\]int, which cannot be passed to a kernel: a slice parameter's elements must be`
	c complex64, // want `parameter c has type complex64, which cannot be passed to a kernel: complex numbers`
) {
}

//gpu:kernel
func Fine(t gpu.Thread, b bool, i int, u uint, i8 int8, u64 uint64, f32 float32, f64 float64, g Good, gs []Good, fs []float32, bs []bool) {
}
