package kernels

import "github.com/gpukvet/gpukvet/gpu"

// TrapIndex: x[i+k] out of range for the threads near the end.
//
//gpu:kernel
func TrapIndex(t gpu.Thread, k int, x []float32, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = x[i+k]
	}
}

// TrapDivide: integer division by zero.
//
//gpu:kernel
func TrapDivide(t gpu.Thread, a, b []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = a[i] / b[i]
	}
}

// TrapPanic: an explicit panic on a bad input.
//
//gpu:kernel
func TrapPanic(t gpu.Thread, x []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		if x[i] < 0 {
			panic("negative input")
		}
		out[i] = x[i] + 1
	}
}

// TrapSlice: a slice expression past the capacity.
//
//gpu:kernel
func TrapSlice(t gpu.Thread, n int, x []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		s := x[i : i+n]
		out[i] = int32(len(s))
	}
}

// TrapShift: a negative shift count.
//
//gpu:kernel
func TrapShift(t gpu.Thread, x []int32, s []int, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = x[i] << s[i]
	}
}

// TrapLocal: an index out of range of a local array.
//
//gpu:kernel
func TrapLocal(t gpu.Thread, k []int, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		var a [4]int32
		a[k[i]] = 5
		out[i] = a[0] + a[1] + a[2] + a[3]
	}
}

// Precondition states what it assumes with a uniform guard at its top (a
// length that is a multiple of 32, one 32-thread block per 32 elements);
// a launch that breaks it traps at the guard's panic on every backend.
//
//gpu:kernel block=32
func Precondition(t gpu.Thread, n int, in, out []int32) {
	if n%32 != 0 || t.GridDim().X*32 != n {
		panic("n must be a multiple of 32, the grid n/32 blocks")
	}
	g := t.GlobalIdx().X
	out[(g%32)*(n/32)+g/32] = in[g] * 2
}

// TrapNil: a pointer left nil on one thread's path is stored through and
// read back; that thread traps with a nil dereference at the store.
//
//gpu:kernel
func TrapNil(t gpu.Thread, k []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		var v int32
		var p *int32
		if k[i] != 0 {
			p = &v
		}
		*p = k[i] // nil where k[i] == 0
		out[i] = *p + 1
	}
}

// NoTrapAfter: runs after the trapping kernels on the same device, to show
// the device stays usable.
//
//gpu:kernel
func NoTrapAfter(t gpu.Thread, x []int32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		x[i] = int32(i) * 3
	}
}
