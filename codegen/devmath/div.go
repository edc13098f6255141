package devmath

// The divisions of math/bits, from Go's math/bits/bits.go. Where Go panics
// (a zero divisor, a quotient that overflows), the kernel traps: a zero
// divisor through the lowering's own check of integer division, an
// overflow through panic.

import "math/bits"

// Div64 is bits.Div64.
//
//gpu:device
func Div64(hi, lo, y uint64) (quo, rem uint64) {
	if y == 0 {
		panic("integer divide by zero")
	}
	if y <= hi {
		panic("integer overflow")
	}
	// If high part is zero, we can directly return the results.
	if hi == 0 {
		return lo / y, lo % y
	}
	s := uint(bits.LeadingZeros64(y))
	y <<= s

	const (
		two32  = 1 << 32
		mask32 = two32 - 1
	)
	yn1 := y >> 32
	yn0 := y & mask32
	un32 := hi<<s | lo>>(64-s)
	un10 := lo << s
	un1 := un10 >> 32
	un0 := un10 & mask32
	q1 := un32 / yn1
	rhat := un32 - q1*yn1

	for q1 >= two32 || q1*yn0 > two32*rhat+un1 {
		q1--
		rhat += yn1
		if rhat >= two32 {
			break
		}
	}

	un21 := un32*two32 + un1 - q1*y
	q0 := un21 / yn1
	rhat = un21 - q0*yn1

	for q0 >= two32 || q0*yn0 > two32*rhat+un0 {
		q0--
		rhat += yn1
		if rhat >= two32 {
			break
		}
	}

	return q1*two32 + q0, (un21*two32 + un0 - q0*y) >> s
}

// Div32 is bits.Div32.
//
//gpu:device
func Div32(hi, lo, y uint32) (quo, rem uint32) {
	if y != 0 && y <= hi {
		panic("integer overflow")
	}
	z := uint64(hi)<<32 | uint64(lo)
	quo, rem = uint32(z/uint64(y)), uint32(z%uint64(y))
	return
}

// Rem64 is bits.Rem64: it never overflows, and traps on a zero y.
//
//gpu:device
func Rem64(hi, lo, y uint64) uint64 {
	// hi%y traps on a zero y (as Go panics) and keeps Div64 from
	// overflowing, since hi%y < y.
	_, rem := Div64(hi%y, lo, y)
	return rem
}

// Rem32 is bits.Rem32: it never overflows, and traps on a zero y.
//
//gpu:device
func Rem32(hi, lo, y uint32) uint32 {
	return uint32((uint64(hi)<<32 | uint64(lo)) % uint64(y))
}
