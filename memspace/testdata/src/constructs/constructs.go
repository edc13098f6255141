// Package constructs holds Go constructs that no GPU target compiles, each
// beside a twin that does the same in the dialect and stays silent.
package constructs

import (
	_ "unsafe"

	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Complex(t gpu.Thread, re, im []float64) {
	i := t.GlobalIdx().X
	z := complex(re[i], im[i]) // want `complex\(...\) has type complex128: kernel code cannot use a complex number \(no GPU target compiles complex arithmetic; use a pair of floats\)`
	_ = z
}

// ComplexPair is Complex's twin: the real and imaginary parts as floats,
// and a complex constant, which go/types folds.
//
//gpu:kernel
func ComplexPair(t gpu.Thread, re, im []float64) {
	i := t.GlobalIdx().X
	const c = 2 + 3i
	re[i], im[i] = re[i]*real(c)-im[i]*imag(c), re[i]*imag(c)+im[i]*real(c)
}

//gpu:device
func conj(z complex64) float32 { // want `parameter z of device function conj has type complex64: kernel code cannot use a complex number`
	return 0
}

// Copy, CopyLoop and Clear compile (copy as memmove does, clear to zero);
// a copy from a string does not.
//
//gpu:kernel
func Copy(t gpu.Thread, dst, src []float32, b []byte) {
	var a [4]float32
	clear(a[:])
	if t.GlobalIdx().X == 0 {
		copy(dst, src)
		copy(dst[1:], dst)
		copy(a[:], src)
		copy(b, "abc") // want `copy from a string: kernel code cannot copy strings; index the constant string in a loop`
	}
}

//gpu:kernel
func NoBody(t gpu.Thread, out []float32) // want `kernel NoBody has no body: kernel code must be Go source the compiler can see`

//gpu:device
func fastSqrt(x float32) float32 // want `function fastSqrt has no body`

//gpu:kernel
func CallsNoBody(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = fastSqrt(out[i])
	}
}

// WithBody is NoBody's twin.
//
//gpu:kernel
func WithBody(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = 0
	}
}

// A function without a body that the package does not mark //gpu:device is
// kernel code once a kernel calls it: assembly, or //go:linkname to another
// package's function.
func asmAdd(a, b int32) int32 // want `function asmAdd has no body: kernel code must be Go source the compiler can see \(an implementation in assembly or through linkname cannot run on the GPU\) \(reached from kernel CallsAsm via asmAdd\)`

//go:linkname nanotime runtime.nanotime
func nanotime() int64 // want `function nanotime has no body: .* \(reached from kernel CallsLinkname via stamp → nanotime\)`

func stamp() int64 { return nanotime() }

//gpu:kernel
func CallsAsm(t gpu.Thread, out []int32) {
	i := t.GlobalIdx().X
	out[i] = asmAdd(int32(i), 1)
}

//gpu:kernel
func CallsLinkname(t gpu.Thread, out []int64) {
	out[t.GlobalIdx().X] = stamp()
}

// notCalled has no body either, but no kernel reaches it: host code may.
func notCalled() int64

// SharedSlice declares block-shared memory of a slice type, which has no
// fixed size; SharedArray is its twin.
//
//gpu:kernel block=64
func SharedSlice(t gpu.Thread, out []int32) {
	s := gpu.Shared[[]int32](t) // want `gpu.Shared\[\[\]int32\]: block-shared memory has a fixed size and layout: T must be a fixed-size array such as \[256\]float32 \(or a struct of such fields\) of bool, integers, float32 or float64, and \[\]int32 is a slice, whose length is not fixed and whose elements live outside it; use gpu.Shared\[\[N\]int32\] with a constant N`
	out[t.GlobalIdx().X] = (*s)[0]
}

//gpu:kernel block=64
func SharedArray(t gpu.Thread, out []int32) {
	s := gpu.Shared[[64]int32](t)
	s[t.ThreadIdx().X] = 1
	t.Barrier()
	out[t.GlobalIdx().X] = s[63-t.ThreadIdx().X]
}

type node struct {
	next *node
	v    [4]float32
}

//gpu:kernel block=64
func SharedPointers(t gpu.Thread, out []float32) {
	p := gpu.Shared[[8]*float32](t) // want `gpu.Shared\[\[8\]\*float32\]: .* and \*float32 is a pointer$`
	s := gpu.Shared[[8]node](t)     // want `gpu.Shared\[\[8\]node\]: .* and \*node is a pointer$`
	out[t.GlobalIdx().X] = *p[0] + s[0].v[0]
}

//gpu:kernel block=64
func SharedComplex(t gpu.Thread, out []float32) {
	_ = gpu.Shared[[8]complex64](t) // want `gpu.Shared\[\[8\]complex64\]: .* and complex64 is a complex number$`
}

// SharedStruct is a struct of fixed-size fields: allowed.
//
//gpu:kernel block=64
func SharedStruct(t gpu.Thread, out []float32) {
	type stage struct {
		n   int32
		buf [64]float32
	}
	s := gpu.Shared[stage](t)
	s.buf[t.ThreadIdx().X] = 1
	t.Barrier()
	out[t.GlobalIdx().X] = s.buf[0]
}
