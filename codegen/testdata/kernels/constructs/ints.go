// Package constructs holds one kernel per construct of the dialect, for the
// codegen tests: each must compile and assemble with ptxas.
package constructs

import "github.com/gpukvet/gpukvet/gpu"

// IntArith exercises wrapping arithmetic, division and shifts of every
// integer width.
//
//gpu:kernel
func IntArith(t gpu.Thread, a []int, b []int8, c []uint16, d []int32, e []uint64, out []int64) {
	i := t.GlobalIdx().X
	if i >= len(out) || i >= len(a) || i >= len(b) || i >= len(c) || i >= len(d) || i >= len(e) {
		return
	}
	x, y := a[i], a[(i+1)%len(a)]
	s := x + y - x*y
	s += x / y
	s += x % y
	s ^= x &^ y
	s |= x & 7
	s += x << uint(y&63)
	s += x >> (y & 63)
	b8 := b[i]
	b8 = b8*3 + 100
	b8 /= -1
	c16 := c[i]
	c16 = c16<<9 | c16>>7
	d32 := d[i]
	d32 = -d32 / 7 % 5
	e64 := e[i]
	e64 = e64>>3 + e64*0x9E3779B97F4A7C15
	var sh uint8 = 200
	out[i] = int64(s) + int64(b8) + int64(c16) + int64(d32) + int64(e64) + int64(sh>>3)
}

// Shifts by variable signed counts (which trap when negative).
//
//gpu:kernel
func Shifts(t gpu.Thread, x []int32, n []int, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) && i < len(x) && i < len(n) {
		out[i] = x[i]<<n[i] + x[i]>>n[i]
		u := uint32(x[i])
		out[i] += int32(u >> n[i])
	}
}

// Conversions between every numeric kind.
//
//gpu:kernel
func Conversions(t gpu.Thread, f []float64, g []float32, out []int64, outf []float32) {
	i := t.GlobalIdx().X
	if i < len(f) && i < len(g) && i < len(out) && i < len(outf) {
		x := f[i]
		out[i] = int64(x) + int64(int32(x)) + int64(int8(x)) + int64(uint8(x)) + int64(uint64(x)) + int64(uint16(g[i]))
		outf[i] = float32(x) + float32(out[i]) + float32(uint32(out[i])) + float32(int8(out[i]))
		h := float64(g[i]) * x
		outf[i] += float32(h)
	}
}

// Compares floats including NaN.
//
//gpu:kernel
func Compares(t gpu.Thread, a, b []float64, out []int32) {
	i := t.GlobalIdx().X
	if i < len(a) && i < len(b) && i < len(out) {
		x, y := a[i], b[i]
		var r int32
		if x == y {
			r |= 1
		}
		if x != y {
			r |= 2
		}
		if x < y {
			r |= 4
		}
		if x <= y {
			r |= 8
		}
		if x > y {
			r |= 16
		}
		if !(x >= y) {
			r |= 32
		}
		ok := x == x && y < 3
		if ok || r == 0 {
			r |= 64
		}
		out[i] = r
	}
}
