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

// LoopVarKept keeps addresses of Go 1.22's per-iteration variables past
// their iteration (issue 21): the compiler gives such a variable a slot per
// iteration where the loops around it have a constant bound, so each
// pointer reads its own iteration's variable after the loop.
//
//gpu:kernel
func LoopVarKept(t gpu.Thread, n []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(n) {
		// The probe: iteration n%4's k, read after the loop.
		var p *int32
		for k := int32(0); k < 4; k++ {
			if k == n[i]&3 {
				p = &k
			}
		}
		r := *p * 1000
		// Every iteration's variable of a range over a constant.
		var ps [6]*int32
		for k := range int32(6) {
			ps[k] = &k
		}
		for _, q := range ps {
			r = r*3 + *q
		}
		// Iterations' k of a three-clause loop, stored in an array (some
		// over others).
		var qs [5]*int32
		for k := int32(0); k < 5; k++ {
			qs[(k+n[i]&3)%3] = &k
		}
		for _, q := range qs {
			if q != nil {
				r = r*7 + *q
			}
		}
		r += keptBody(n[i]) + keptNested(n[i])
		out[i] = r
	}
}

// keptBody keeps a body variable of a loop counting down by 2, changed
// after its address was taken, through a device function.
//
//gpu:device
func keptBody(n int32) int32 {
	var qs [5]*int32
	m := 0
	for k := 9; k >= 0; k -= 2 {
		x := int32(k) * n
		qs[m] = same(&x)
		m++
		x += 1
	}
	r := int32(0)
	for _, q := range qs {
		r = r*5 + *q
	}
	return r
}

//gpu:device
func same(p *int32) *int32 { return p }

// keptNested reads the previous iteration's k of an inner loop through a
// pointer kept from it, and the last one after that loop.
//
//gpu:device
func keptNested(n int32) int32 {
	s := int32(0)
	for j := int32(0); j < 3; j++ {
		var prev *int32
		for k := int32(0); k < 5; k++ {
			if prev != nil {
				s = s*7 + *prev - k + n
			}
			prev = &k
		}
		s += *prev * j
	}
	return s
}
