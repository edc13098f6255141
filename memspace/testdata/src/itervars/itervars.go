package itervars

import "github.com/gpukvet/gpukvet/gpu"

// The issue-21 probe: p keeps iteration 1's k, which Go 1.22 keeps apart
// from the later iterations' k.
//
//gpu:kernel
func KeptAfterLoop(t gpu.Thread, out []int32) {
	var p *int32
	for i := int32(0); i < 4; i++ { // want `the address of i is kept from one iteration to the next: each iteration has its own i \(Go 1.22\)`
		if i == 1 {
			p = &i
		}
	}
	out[t.GlobalIdx().X] = *p
}

//gpu:kernel
func BodyVar(t gpu.Thread, out []int32) {
	var p *int32
	for i := range 4 {
		x := int32(i) * 3 // want `the address of x is kept from one iteration to the next`
		if i == 2 {
			p = &x
		}
		x++
	}
	out[t.GlobalIdx().X] = *p
}

//gpu:kernel
func Previous(t gpu.Thread, out []int32) {
	var prev *int32
	s := int32(0)
	for i := int32(0); i < 4; i++ { // want `the address of i is kept from one iteration to the next`
		if prev != nil {
			s += *prev
		}
		prev = &i
	}
	out[t.GlobalIdx().X] = s
}

type box struct{ p *int32 }

//gpu:kernel
func Stored(t gpu.Thread, out []int32) {
	var b box
	for i := int32(0); i < 4; i++ { // want `the address of i is stored in memory`
		bp := &b
		bp.p = &i
	}
	out[t.GlobalIdx().X] = *b.p
}

// Uses within the iteration, and the variable of the iteration a loop
// leaves by break, are Go's meaning with one copy: no report.
//
//gpu:kernel
func WithinIteration(t gpu.Thread, out []int32) {
	s := int32(0)
	for i := int32(0); i < 8; i++ {
		p := &i
		*p += 1 // skips every other i
		var a [2]int32
		q := &a[i%2]
		*q = i
		s += a[0] + a[1]
	}
	var found *int32
	for k := int32(0); k < 8; k++ {
		if k*k > 10 {
			found = &k
			break
		}
	}
	if found != nil {
		s += *found
	}
	out[t.GlobalIdx().X] = s
}

func pick(p *int32) *int32 { return p }

//gpu:kernel
func ThroughCall(t gpu.Thread, out []int32) {
	var p *int32
	for i := int32(0); i < 4; i++ { // want `the address of i is kept from one iteration to the next`
		p = pick(&i)
	}
	out[t.GlobalIdx().X] = *p
}

//gpu:kernel
func Nested(t gpu.Thread, out []int32) {
	s := int32(0)
	for j := int32(0); j < 3; j++ {
		var q *int32
		for k := int32(0); k < 3; k++ { // want `the address of k is kept from one iteration to the next`
			if k == j {
				q = &k
			}
		}
		s += *q
	}
	out[t.GlobalIdx().X] = s
}

// An outer iteration's variable, used through a pointer across the inner
// loop's iterations, is still that iteration's: no report.
//
//gpu:kernel
func OuterAcrossInner(t gpu.Thread, out []int32) {
	s := int32(0)
	for j := int32(0); j < 3; j++ {
		q := &j
		for k := range 3 {
			s += *q * int32(k)
		}
	}
	out[t.GlobalIdx().X] = s
}
