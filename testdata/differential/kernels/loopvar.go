package kernels

import "github.com/gpukvet/gpukvet/gpu"

// LoopVarAddr takes addresses of Go 1.22's per-iteration loop variables
// and of variables declared in a loop body, within their iteration, and
// keeps the address of the iteration a loop leaves by break: each use sees
// its own iteration's variable. (Keeping an address from one iteration to
// the next is refused by memspace and the compiler: kernels have no heap.)
//
//gpu:kernel
func LoopVarAddr(t gpu.Thread, n []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(n) {
		s := int32(0)
		for k := int32(0); k < n[i]; k++ {
			p := &k
			*p += k % 3 // the increment copies the changed k to the next iteration
			var a [2]int32
			q := &a[k%2]
			*q = k
			s = s*3 + a[0] - a[1]
		}
		var found *int32
		for k := int32(0); k < 20; k++ {
			if k*k > n[i] {
				found = &k
				break
			}
		}
		if found != nil {
			s += 1000 * *found
		}
		out[i] = s
	}
}
