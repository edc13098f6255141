package kernels

import "github.com/gpukvet/gpukvet/gpu"

// The kernels of this file are control-flow shapes that SPIR-V's
// structured control flow does not have as such (codegen/spirv
// restructures them): labeled break and continue across loops, returns
// from inside loops and switches of inlined functions, fallthrough inside
// loops, calls in every position of && and || chains, early returns from
// nested loops. Each thread's result depends on its input, so every path
// runs somewhere.

// Labeled2: labeled break and continue of the outer of two loops.
//
//gpu:kernel
func Labeled2(t gpu.Thread, x []int32, out []int64) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	n := int(x[i]&15) + 2
	s := int64(x[i] >> 8)
outer:
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			switch {
			case (a*7+b)%11 == 10:
				continue outer
			case a*b > int(x[i]&63):
				break outer
			case b > a:
				break
			}
			s = s*3 + int64(a-b)
		}
		s ^= int64(a)
	}
	out[i] = s
}

// Labeled3: three loops; the innermost breaks and continues each of them.
//
//gpu:kernel
func Labeled3(t gpu.Thread, x []int32, out []int64) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	v := int(x[i])
	n := v&7 + 2
	s := int64(1)
l1:
	for a := 0; a < n; a++ {
	l2:
		for b := 0; b < n; b++ {
			for c := 0; c < n; c++ {
				k := a*100 + b*10 + c
				if k%13 == (v>>4)&15 {
					continue l1
				}
				if k%17 == (v>>8)&15 {
					continue l2
				}
				if k%19 == (v>>12)&31 {
					break l1
				}
				if c > b {
					break l2
				}
				if k%7 == 3 {
					continue
				}
				s = s*31 + int64(k)
			}
			s += 5
		}
		s -= 3
	}
	out[i] = s
}

// find returns the index of the first element of xs at least lim past
// skip, or -1: a return from inside a switch inside a loop, and one after.
func find(xs []int32, skip int, lim int32) int {
	for j := skip; j < len(xs); j++ {
		switch v := xs[j]; {
		case v == lim:
			return j
		case v > lim:
			if j%2 == 0 {
				return j
			}
		case v < -lim:
			return -j
		}
	}
	return -1
}

// scan2 calls find in a loop of its own, with an early return too.
func scan2(xs []int32, lim int32) int {
	total := 0
	for skip := 0; skip < 3; skip++ {
		r := find(xs, skip*5, lim)
		if r == -1 {
			return total - 1
		}
		total += r
	}
	return total
}

// ReturnInSwitch: a device function returns from a switch inside a loop;
// it is inlined inside another function's loop and in a loop of the
// kernel.
//
//gpu:kernel
func ReturnInSwitch(t gpu.Thread, xs []int32, lims []int32, out []int32) {
	i := t.GlobalIdx().X
	if i >= len(lims) {
		return
	}
	acc := 0
	for k := 0; k < 2; k++ {
		acc = acc*7 + scan2(xs, lims[i]+int32(k))
		if acc > 1000 {
			break
		}
	}
	out[i] = int32(acc)
}

// FallthroughLoops: switches with fallthrough inside nested loops, with
// break and continue from the cases.
//
//gpu:kernel
func FallthroughLoops(t gpu.Thread, x []int32, out []int32) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	v := x[i]
	s := int32(0)
	for a := int32(0); a < 6; a++ {
		for b := int32(0); b < 5; b++ {
			switch (v + a*3 + b) % 5 {
			case 0:
				s += 1
				fallthrough
			case 1:
				s *= 3
				if s > 5000 {
					break
				}
				fallthrough
			case 2:
				s -= b
				continue
			case 3:
				if a == b {
					break
				}
				s ^= a
				fallthrough
			default:
				s += 7
			}
			if s%4 == 1 {
				break
			}
		}
	}
	out[i] = s
}

// odd, small and hasBit are predicates with control flow of their own.
func odd(v int32) bool { return v%2 != 0 }

func small(v int32) bool {
	for k := int32(0); k < 4; k++ {
		if v == k*k {
			return true
		}
	}
	return v > -3 && v < 3
}

func hasBit(v int32, b int) bool {
	if b < 0 {
		return false
	}
	return v>>b&1 == 1
}

// ShortCircuit: && and || chains with calls in the first, middle and last
// place, nested and negated.
//
//gpu:kernel
func ShortCircuit(t gpu.Thread, x []int32, out []int32) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	v := x[i]
	r := int32(0)
	if v > 100 || odd(v) || small(v) {
		r |= 1
	}
	if small(v) || v < -50 || hasBit(v, 3) {
		r |= 2
	}
	if odd(v) && hasBit(v, 2) && small(v>>4) {
		r |= 4
	}
	if (v > 0 && odd(v)) || (v < 0 && hasBit(v, 5)) || small(v) && !odd(v) {
		r |= 8
	}
	for k := 0; k < 4; k++ {
		if hasBit(v, k) || small(v+int32(k)) && odd(v) {
			r += 16
			continue
		}
		if !odd(v) && (hasBit(v, k+4) || v == 0) {
			break
		}
	}
	out[i] = r
}

// ReturnNested: early returns from two and three loops deep, after
// stores that must stay.
//
//gpu:kernel
func ReturnNested(t gpu.Thread, x []int32, out []int32, aux []int32) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	v := x[i]
	out[i] = -1
	aux[i] = 0
	for a := int32(0); a < 8; a++ {
		for b := int32(0); b < 8; b++ {
			aux[i] += a ^ b
			if (a*8+b)*11%64 == v&63 {
				out[i] = a*8 + b
				return
			}
			for c := int32(0); c < 3; c++ {
				if a+b+c == v>>6&31 {
					out[i] = 1000 + a + b + c
					return
				}
			}
		}
		if a == 6 && v < 0 {
			return
		}
	}
	out[i] = -2
}
