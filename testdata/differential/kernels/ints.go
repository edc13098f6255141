// Package kernels holds the kernels of the differential suite: each runs on
// the cpu backend (Go itself) and on every GPU backend present, and the
// results must agree (testdata/differential). They cover the constructs the
// codegen lowers, edge cases first.
package kernels

import "github.com/gpukvet/gpukvet/gpu"

//go:generate go tool gpukvet gen

// IntWrap: int32, int64, uint8 and int16 arithmetic wraps around as in Go.
//
//gpu:kernel
func IntWrap(t gpu.Thread, a, b []int32, c []int64, d []uint8, e []int16, out32 []int32, out64 []int64, out8 []uint8, out16 []int16) {
	i := t.GlobalIdx().X
	if i < len(out32) {
		out32[i] = a[i]*b[i] + a[i] - b[i]
		out64[i] = c[i]*c[i] + c[i]<<3
		out8[i] = d[i]*d[i] + 200
		out16[i] = e[i]*e[i] - 30000
	}
}

// DivRem: signed division truncates toward zero, % takes the dividend's
// sign, and MinInt/-1 is MinInt with remainder 0 (no trap in Go); also by
// negative and small constants. Four results per element share one slice
// per width so that the arguments fit 128 bytes of push constants.
//
//gpu:kernel
func DivRem(t gpu.Thread, a, b []int32, c, d []int64, out32 []int32, out64 []int64) {
	i := t.GlobalIdx().X
	if i < len(a) {
		out32[4*i] = a[i] / b[i]
		out32[4*i+1] = a[i] % b[i]
		out32[4*i+2] = a[i] / -3
		out32[4*i+3] = a[i] % 6
		out64[4*i] = c[i] / d[i]
		out64[4*i+1] = c[i] % d[i]
		out64[4*i+2] = c[i] / -1000
		out64[4*i+3] = c[i] % 7
	}
}

// UDivRem: unsigned division and remainder, 32 and 64 bits, and by constants.
//
//gpu:kernel
func UDivRem(t gpu.Thread, a, b []uint32, c, d []uint64, out32 []uint32, out64 []uint64) {
	i := t.GlobalIdx().X
	if i < len(a) {
		out32[4*i] = a[i] / b[i]
		out32[4*i+1] = a[i] % b[i]
		out32[4*i+2] = a[i] / 7
		out32[4*i+3] = a[i] % 10
		out64[4*i] = c[i] / d[i]
		out64[4*i+1] = c[i] % d[i]
		out64[4*i+2] = c[i] / 1000
		out64[4*i+3] = c[i] % 3
	}
}

// Shifts: counts at or beyond the width give 0 (or the sign for >> of a
// negative signed value), as in Go.
//
//gpu:kernel
func Shifts(t gpu.Thread, x []int32, y []uint64, s []uint, out32 []int32, outu []uint64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		out32[3*i] = x[i] << s[i]
		out32[3*i+1] = x[i] >> s[i]
		out32[3*i+2] = int32(uint32(x[i]) >> s[i])
		outu[2*i] = y[i] << s[i]
		outu[2*i+1] = y[i] >> s[i]
	}
}

// SignedShiftCount: a signed shift count that is not negative.
//
//gpu:kernel
func SignedShiftCount(t gpu.Thread, x []int64, s []int, out []int64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		out[i] = x[i]<<s[i] ^ x[i]>>s[i]
	}
}

// Bits: bitwise operators, &^, and a population count loop.
//
//gpu:kernel
func Bits(t gpu.Thread, a, b []uint32, out []uint32) {
	i := t.GlobalIdx().X
	if i < len(a) {
		x, y := a[i], b[i]
		n := uint32(0)
		for v := x; v != 0; v &= v - 1 {
			n++
		}
		out[5*i] = x & y
		out[5*i+1] = x | y
		out[5*i+2] = x ^ y
		out[5*i+3] = x &^ y
		out[5*i+4] = n + ^x
	}
}

// Narrowing: conversions between integer widths truncate or extend as Go's.
//
//gpu:kernel
func Narrowing(t gpu.Thread, a []int64, out8 []int8, outu8 []uint8, out16 []int16, outu32 []uint32, back []int64) {
	i := t.GlobalIdx().X
	if i < len(a) {
		out8[i] = int8(a[i])
		outu8[i] = uint8(a[i])
		out16[i] = int16(a[i])
		outu32[i] = uint32(a[i])
		back[i] = int64(int8(a[i])) + int64(uint16(a[i])) + int64(int32(a[i]))
	}
}

// Negate: -x and the absolute value of MinInt64 wrap.
//
//gpu:kernel
func Negate(t gpu.Thread, a []int64, out []int64) {
	i := t.GlobalIdx().X
	if i < len(a) {
		v := a[i]
		if v < 0 {
			v = -v
		}
		out[2*i] = -a[i]
		out[2*i+1] = v
	}
}

// Compare: every comparison operator on signed, unsigned and float values.
//
//gpu:kernel
func Compare(t gpu.Thread, a, b []int32, u, v []uint32, f, g []float64, out []bool) {
	i := t.GlobalIdx().X
	if i < len(a) {
		o := out[i*12 : i*12+12]
		o[0] = a[i] < b[i]
		o[1] = a[i] <= b[i]
		o[2] = a[i] == b[i]
		o[3] = u[i] < v[i]
		o[4] = u[i] >= v[i]
		o[5] = u[i] != v[i]
		o[6] = f[i] < g[i]
		o[7] = f[i] <= g[i]
		o[8] = f[i] == g[i]
		o[9] = f[i] != g[i]
		o[10] = f[i] > g[i]
		o[11] = !(f[i] >= g[i])
	}
}

// MinMax: the min and max builtins on integers and floats (NaN wins, and
// min(-0, +0) is -0).
//
//gpu:kernel
func MinMax(t gpu.Thread, a, b []int64, f, g []float64, h, k []float32, outi []int64, outf []float64, out32 []float32) {
	i := t.GlobalIdx().X
	if i < len(a) {
		outi[3*i] = min(a[i], b[i])
		outi[3*i+1] = max(a[i], b[i])
		outi[3*i+2] = min(a[i], b[i], 7)
		outf[2*i] = min(f[i], g[i])
		outf[2*i+1] = max(f[i], g[i])
		out32[2*i] = min(h[i], k[i])
		out32[2*i+1] = max(h[i], k[i], 0.5)
	}
}

// Unsigned64: large unsigned values, multiplication wrapping, and
// comparisons across the sign bit.
//
//gpu:kernel
func Unsigned64(t gpu.Thread, a, b []uint64, out []uint64) {
	i := t.GlobalIdx().X
	if i < len(a) {
		out[3*i] = a[i]*b[i] + 0x9E3779B97F4A7C15
		out[3*i+1] = a[i] - b[i]
		if a[i] > b[i] {
			out[3*i+2] = 1
		}
	}
}
