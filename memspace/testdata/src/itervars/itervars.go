package itervars

import "github.com/gpukvet/gpukvet/gpu"

// The issue-21 probe: p keeps iteration 1's k, which Go 1.22 keeps apart
// from the later iterations' k. The loop's bound is a constant, so the
// compiler gives each iteration's i a slot of its own: no report.
//
//gpu:kernel
func KeptAfterLoop(t gpu.Thread, out []int32) {
	var p *int32
	for i := int32(0); i < 4; i++ {
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
		x := int32(i) * 3
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
	for i := int32(0); i < 4; i++ {
		if prev != nil {
			s += *prev
		}
		prev = &i
	}
	out[t.GlobalIdx().X] = s
}

type box struct{ p *int32 }

// The address stored in memory, and only read back: no report.
//
//gpu:kernel
func Stored(t gpu.Thread, out []int32) {
	var b box
	for i := int32(0); i < 4; i++ {
		bp := &b
		bp.p = &i
	}
	out[t.GlobalIdx().X] = *b.p
}

// Written through once it is read back from memory, the variable may
// change the loop's count.
//
//gpu:kernel
func StoredWritten(t gpu.Thread, out []int32) {
	var b box
	for i := int32(0); i < 4; i++ { // want `the address of i is stored in memory: each iteration has its own i \(Go 1.22\), and kernel code, which has no heap, gives each iteration a copy of its own only where the loops around the declaration have a constant bound \(for i := 0; i < 8; i\+\+, for i := range 8\), but the loop counts a variable whose address is written through, handed to a call, or stored where the function may write through it; copy the value`
		if b.p != nil {
			*b.p = 0
		}
		b.p = &i
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
	for i := int32(0); i < 4; i++ { // want `the address of i is kept from one iteration to the next: .* but the loop counts a variable whose address is written through, handed to a call, or stored`
		p = pick(&i)
	}
	out[t.GlobalIdx().X] = *p
}

//gpu:kernel
func Nested(t gpu.Thread, out []int32) {
	s := int32(0)
	for j := int32(0); j < 3; j++ {
		var q *int32
		for k := int32(0); k < 3; k++ {
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

// Pointers of every iteration kept in an array, read after the loop: a
// range over a constant, each iteration's i in a slot of its own.
//
//gpu:kernel
func PointerArray(t gpu.Thread, out []int32) {
	var ps [4]*int32
	for i := range int32(4) {
		ps[i] = &i
	}
	out[t.GlobalIdx().X] = *ps[0] + *ps[3]
}

// A counting-down loop with a step of 2 and a body variable.
//
//gpu:kernel
func Down(t gpu.Thread, out []int32) {
	var ps [8]*int32
	n := 0
	for i := 15; i >= 0; i -= 2 {
		x := int32(i)
		ps[n] = &x
		n++
	}
	out[t.GlobalIdx().X] = *ps[0] + *ps[7]
}

// A loop bounded by a parameter has no constant bound.
//
//gpu:kernel
func Unbounded(t gpu.Thread, out []int32, n int32) {
	var p *int32
	for i := range n {
		x := i * 2 // want `the address of x is kept from one iteration to the next: .* but the loop does not count a variable from a constant to a constant bound`
		if i == 1 {
			p = &x
		}
	}
	out[t.GlobalIdx().X] = *p
}

// The loop variable written through a kept address may change the count.
//
//gpu:kernel
func WrittenThrough(t gpu.Thread, out []int32) {
	var p *int32
	for i := int32(0); i < 4; i++ { // want `the address of i is kept from one iteration to the next: .* but the loop counts a variable whose address is written through`
		if p != nil {
			*p = 0
		}
		p = &i
	}
	out[t.GlobalIdx().X] = *p
}

// More copies than one local variable may take.
//
//gpu:kernel
func TooMany(t gpu.Thread, out []int32) {
	var p *[64]int32
	for i := range 2000 {
		var a [64]int32 // want `the address of a is kept from one iteration to the next: .* would need a copy for each of up to 2000 iterations, 512000 bytes, more than the 65536 bytes`
		a[0] = int32(i)
		if i == 7 {
			p = &a
		}
	}
	out[t.GlobalIdx().X] = p[0]
}

// Bounds from <=, !=, a range over an array and a break: no report.
//
//gpu:kernel
func OtherBounds(t gpu.Thread, out []int32) {
	var ps [4]*int32
	for i := int32(1); i <= 4; i++ {
		ps[i-1] = &i
	}
	var qs [4]*int32
	for i := int32(0); i != 8; i += 2 {
		qs[i/2] = &i
	}
	var arr [5]int32
	var rs [5]*int32
	for i := range arr {
		x := arr[i] + int32(i)
		rs[i] = &x
	}
	var last *int32
	for i := 0; ; i++ {
		if i >= 6 {
			break
		}
		y := int32(i)
		if last != nil {
			y += *last
		}
		last = &y
	}
	out[t.GlobalIdx().X] = *ps[0] + *qs[3] + *rs[4] + *last
}

// An int8 counter to 127 wraps around and never stops: no bound.
//
//gpu:kernel
func Wraps(t gpu.Thread, out []int32) {
	var p *int8
	for i := int8(0); i <= 127; i++ {
		x := i // want `the address of x is kept from one iteration to the next: .* but the loop does not count a variable from a constant to a constant bound`
		if i == 3 {
			p = &x
		}
	}
	out[t.GlobalIdx().X] = int32(*p)
}

// A goto into a loop leaves it without a header.
//
//gpu:kernel
func Irreducible(t gpu.Thread, out []int32, c int32) {
	var p *int32
	i := int32(0)
	if c > 0 {
		goto inner
	}
top:
	{
		x := i // want `the address of x is kept from one iteration to the next: .* but a goto jumps into the loop`
		if i == 1 {
			p = &x
		}
	}
inner:
	i++
	if i < 4 {
		goto top
	}
	out[t.GlobalIdx().X] = *p
}

// Nested loops whose product of bounds overflows: capped, and refused.
//
//gpu:kernel
func Huge(t gpu.Thread, out []int32) {
	var p *int32
	for i := range 1 << 40 {
		for j := range 1 << 40 {
			x := int32(i + j) // want `the address of x is kept from one iteration to the next: .* would need a copy for each of up to 1099511627776 iterations`
			if j == 3 {
				p = &x
			}
		}
	}
	out[t.GlobalIdx().X] = *p
}
