// Package crossdep holds device functions that kernels of other packages
// call.
package crossdep

import "github.com/gpukvet/gpukvet/gpu"

var table = [4]int{1, 2, 3, 4}

// Lerp is a correct device function.
//
//gpu:device
func Lerp(a, b, t float32) float32 { return a + t*(b-a) }

// Sum is a correct generic device function.
//
//gpu:device
func Sum[T int32 | float32](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// Lookup reads a package-level variable, so it cannot run on a device.
//
//gpu:device
func Lookup(i int) int { // want Lookup:`breaks kernel rules: uses package-level variable table \(crossdep.go:33\)`
	return lookup(i)
}

func lookup(i int) int {
	return table[i] // want `package-level variable table: kernel code cannot reach host memory \(constants are fine\) \(reached from device function Lookup via lookup\)`
}

// Vec is a struct with device methods.
type Vec struct{ X, Y float32 }

// Dot is a device method.
//
//gpu:device
func (v Vec) Dot(w Vec) float32 { return v.X*w.X + v.Y*w.Y }

// Idx passes the thread on.
//
//gpu:device
func Idx(t gpu.Thread) int { return t.GlobalIdx().X }

// NotDevice is an ordinary function.
func NotDevice(x int) int { return x + 1 }

// AddAsm is a device function whose helper is in assembly: it breaks the
// rules through that call, and its callers in other packages are told so.
//
//gpu:device
func AddAsm(a, b int32) int32 { return addAsm(a, b) } // want AddAsm:`breaks kernel rules: needs addAsm, which has no Go body \(crossdep.go:\d+\)`

func addAsm(a, b int32) int32 // want `function addAsm has no body: .* \(reached from device function AddAsm via addAsm\)`
