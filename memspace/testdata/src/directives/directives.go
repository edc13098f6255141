package directives

import "github.com/gpukvet/gpukvet/gpu"

/* // want `//gpu:kernel block=0: dimension 0 must be positive` */ //gpu:kernel block=0
func ZeroBlock(t gpu.Thread) {
}

/* // want `unknown //gpu:kernel option "foo=1"` */ //gpu:kernel foo=1
func Unknown(t gpu.Thread) {
}

//gpu:kernel
/* // want `more than one //gpu: directive` */ //gpu:kernel
func Twice(t gpu.Thread) {
}

//gpu:kernel
func NoThread(out []int) {} // want `the first parameter of a //gpu:kernel must be a gpu.Thread`

//gpu:kernel
func WithResult(t gpu.Thread) int { return 0 } // want `a //gpu:kernel has no results`

//gpu:kernel
func Generic[T int | float32](t gpu.Thread, out []T) {} // want `a //gpu:kernel cannot have type parameters`

type S struct{}

//gpu:kernel
func (S) Method(t gpu.Thread) {} // want `a //gpu:kernel must be a top-level function, not a method`

//gpu:kernel block=64
func Fine(t gpu.Thread, out []int) { out[t.GlobalIdx().X] = 0 }

//gpu:device
func FineDevice(x int) int { return x + 1 }
