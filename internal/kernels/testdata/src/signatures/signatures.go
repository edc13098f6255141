package signatures

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func NoThread(n int, out []int) {} // want NoThread:"gpu kernel dims=1"

//gpu:kernel
func NoParams() {} // want NoParams:"gpu kernel dims=1"

//gpu:kernel
func Results(t gpu.Thread) int { return 0 } // want Results:"gpu kernel dims=1"

//gpu:kernel
func Generic[T int | float32](t gpu.Thread, out []T) {} // want Generic:"gpu kernel dims=1"

type S struct{}

//gpu:kernel
func (S) Method(t gpu.Thread) {} // want Method:"gpu kernel dims=1"

//gpu:kernel
func Good(t gpu.Thread, out []int) {} // want Good:"gpu kernel dims=1"

//gpu:kernel
func PointerThread(t *gpu.Thread, out []int) {} // want PointerThread:"gpu kernel dims=1"
