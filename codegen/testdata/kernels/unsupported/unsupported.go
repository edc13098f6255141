// Package unsupported holds kernels the lowering cannot compile (memspace
// reports them too); the codegen must say where and why, for each.
package unsupported

import "github.com/gpukvet/gpukvet/gpu"

var counter int

// UsesMap reads a map.
//
//gpu:kernel
func UsesMap(t gpu.Thread, x []int) {
	m := map[int]int{1: 2}
	x[0] = m[1]
}

// UsesClosure calls a closure.
//
//gpu:kernel
func UsesClosure(t gpu.Thread, x []int) {
	f := func(i int) int { return i + 1 }
	x[0] = f(1)
}

// UsesGlobal reads a package-level variable.
//
//gpu:kernel
func UsesGlobal(t gpu.Thread, x []int) {
	x[0] = counter
}

// UsesInterface calls through an interface.
//
//gpu:kernel
func UsesInterface(t gpu.Thread, x []int) {
	var s interface{ Len() int } = lenner{}
	x[0] = s.Len()
}

// Recursive calls itself through fact.
//
//gpu:kernel
func Recursive(t gpu.Thread, x []int) {
	x[0] = fact(x[1])
}

func fact(n int) int {
	if n <= 1 {
		return 1
	}
	return n * fact(n-1)
}

// UsesAppend appends to a slice.
//
//gpu:kernel
func UsesAppend(t gpu.Thread, x []int) {
	y := append(x[:0], 1)
	x[0] = y[0]
}

// UsesString indexes a string.
//
//gpu:kernel
func UsesString(t gpu.Thread, x []byte, s string) {
	x[0] = "abc"[x[1]]
}

type lenner struct{}

func (lenner) Len() int { return 3 }

// KeepsLoopVar keeps the address of iteration 1's i past its iteration:
// Go 1.22 gives every iteration its own i, which kernels can give only
// where the loop's count has a constant bound, and n is not one.
//
//gpu:kernel
func KeepsLoopVar(t gpu.Thread, out []int32, n int32) {
	var p *int32
	for i := int32(0); i < n; i++ {
		if i == 1 {
			p = &i
		}
	}
	out[0] = *p
}
