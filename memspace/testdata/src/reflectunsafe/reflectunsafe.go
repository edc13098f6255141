package reflectunsafe

import (
	"reflect"
	"unsafe"

	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Bad(t gpu.Thread, out []uint32, f []float32) {
	out[0] = uint32(unsafe.Sizeof(f[0]))          // want `unsafe.Sizeof: kernel code cannot use package unsafe`
	out[1] = *(*uint32)(unsafe.Pointer(&f[0]))    // want `unsafe.Pointer: kernel code cannot use package unsafe \(memory layout and raw pointers differ on the device\)`
	out[2] = uint32(reflect.ValueOf(f[0]).Kind()) // want `reflect.ValueOf: kernel code cannot use reflection`
}

//gpu:kernel
func Good(t gpu.Thread, out []uint32, f []float32) {
	out[0] = 4
	out[1] = gpuFloatBits(f[0])
}

func gpuFloatBits(x float32) uint32 {
	_ = x
	return 0
}
