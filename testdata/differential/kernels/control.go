package kernels

import "github.com/gpukvet/gpukvet/gpu"

// EarlyReturn: threads leave at different points.
//
//gpu:kernel
func EarlyReturn(t gpu.Thread, x []int32, out []int32) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	if x[i] < 0 {
		out[i] = -1
		return
	}
	if x[i] == 0 {
		return
	}
	out[i] = x[i] * 2
}

// Switch: expression and tagless switches, fallthrough, default.
//
//gpu:kernel
func Switch(t gpu.Thread, x []int32, out []int32) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	v := int32(0)
	switch x[i] % 6 {
	case 0:
		v = 10
	case 1, 2:
		v = 20
		fallthrough
	case 3:
		v += 3
	case -1, -2:
		v = -5
	default:
		v = 99
	}
	switch {
	case x[i] > 100:
		v *= 2
	case x[i] < -100:
		v -= 1000
	}
	out[i] = v
}

// Loops: nested loops with break, continue and a labelled break.
//
//gpu:kernel
func Loops(t gpu.Thread, x []int32, out []int64) {
	i := t.GlobalIdx().X
	if i >= len(x) {
		return
	}
	n := int(x[i]&31) + 1
	s := int64(0)
outer:
	for a := 0; a < n; a++ {
		if a%3 == 1 {
			continue
		}
		for b := a; b < n; b++ {
			if b*a > 200 {
				break outer
			}
			if b%5 == 4 {
				break
			}
			s += int64(a*b + 1)
		}
	}
	k := 0
	for k*k < n {
		k++
	}
	out[i] = s*100 + int64(k)
}

// GridStride: a grid-stride loop over more elements than threads.
//
//gpu:kernel
func GridStride(t gpu.Thread, x []float32, out []float32) {
	stride := t.GridDim().X * t.BlockDim().X
	for i := t.GlobalIdx().X; i < len(x); i += stride {
		out[i] = x[i]*0.5 + 1
	}
}

// clampGeneric is a generic device function.
func clampGeneric[T int32 | float64](v, lo, hi T) T {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// poly is a device function calling another.
func poly(x float64) float64 { return clampGeneric(x*x+2*x+1, -1, 50) }

// DeviceCalls: device functions, generic ones included.
//
//gpu:kernel
func DeviceCalls(t gpu.Thread, x []int32, f []float64, out []int32, outf []float64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		out[i] = clampGeneric(x[i], -10, 10)
		outf[i] = poly(f[i])
	}
}

// BoolParam: bool parameters and bool slices.
//
//gpu:kernel
func BoolParam(t gpu.Thread, flip bool, in []bool, out []bool) {
	i := t.GlobalIdx().X
	if i < len(in) {
		out[i] = in[i] != flip
	}
}

// TwoD: a 2-D kernel over a row-major matrix.
//
//gpu:kernel
func TwoD(t gpu.Thread, w, h int, m []int32, out []int32) {
	g := t.GlobalIdx()
	if g.X < w && g.Y < h {
		out[g.Y*w+g.X] = m[g.Y*w+g.X]*int32(g.X+1) - int32(g.Y)
	}
}

// Collatz: a data-dependent loop trip count.
//
//gpu:kernel
func Collatz(t gpu.Thread, x []uint64, steps []int32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		v, n := x[i], int32(0)
		for v > 1 && n < 1000 {
			if v%2 == 0 {
				v /= 2
			} else {
				v = 3*v + 1
			}
			n++
		}
		steps[i] = n
	}
}
