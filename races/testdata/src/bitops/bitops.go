// Package bitops holds index expressions built with bit operations and
// device-function helpers: x|c and x^c for constants, x&(m−1) for a
// power-of-two loop counter m, a Shared array or a subslice returned by a
// helper; each clean kernel has a racy twin.
package bitops

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=128 grid=1
func OrPairs(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid<<1] = in[tid]
	s[tid<<1|1] = -in[tid]
	t.Barrier()
	out[tid] = s[tid] + s[tid+128]
}

//gpu:kernel block=128 grid=1
func OrOverlap(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[tid]
	s[tid|1] = -in[tid] // want `data race on shared s`
	t.Barrier()
	out[tid] = s[tid]
}

//gpu:kernel block=256 grid=1
func XorConstPartner(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[tid]
	out[tid] = s[tid^1] // want `data race on shared s`
}

//gpu:kernel block=256 grid=1
func XorConstOwnPair(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	if tid&1 == 0 {
		s[tid] = in[tid]
		s[tid^1] = 2 * in[tid]
	}
	t.Barrier()
	out[tid] = s[tid]
}

//gpu:kernel block=256 grid=1
func MaskReduce(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[tid]
	t.Barrier()
	for s := 1; s < 256; s *= 2 {
		if tid&(2*s-1) == 0 {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	out[tid] = sh[0]
}

//gpu:kernel block=256 grid=1
func MaskReduceTooWide(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[tid]
	t.Barrier()
	for s := 1; s < 256; s *= 2 {
		if tid&(s-1) == 0 {
			sh[tid] += sh[tid+s] // want `data race on shared sh`
		}
		t.Barrier()
	}
	out[tid] = sh[0]
}

func scratch(t gpu.Thread) *[256]float32 { return gpu.Shared[[256]float32](t) }

//gpu:kernel block=256 grid=1
func HelperShared(t gpu.Thread, in, out []float32) {
	tid := t.ThreadIdx().X
	scratch(t)[tid] = in[tid]
	out[tid] = scratch(t)[(tid+1)%256] // want `data race on shared`
}

//gpu:kernel block=256 grid=1
func HelperSharedBarrier(t gpu.Thread, in, out []float32) {
	tid := t.ThreadIdx().X
	scratch(t)[tid] = in[tid]
	t.Barrier()
	out[tid] = scratch(t)[(tid+1)%256]
}

func rowOf(s []float32, r int) []float32 { return s[r*16 : r*16+16] }

//gpu:kernel block=32
func HelperRowFolded(t gpu.Thread, out []float32) {
	rowOf(out, t.BlockIdx().X)[t.ThreadIdx().X%16] = 1 // want `data race on global out`
}

//gpu:kernel block=16
func HelperRow(t gpu.Thread, out []float32) {
	rowOf(out, t.BlockIdx().X)[t.ThreadIdx().X%16] = 1
}

func same(s *[64]float32) *[64]float32 { return s }

//gpu:kernel block=64 grid=1
func PhiPointer(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	p := s
	if t.BlockIdx().X == 0 {
		p = same(s)
	}
	p[t.ThreadIdx().X] = 1
	out[t.ThreadIdx().X] = s[(t.ThreadIdx().X+1)%64] // want `data race on shared s`
}

//gpu:kernel block=64 grid=1
func PhiPointerBarrier(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	p := s
	if t.BlockIdx().X == 0 {
		p = same(s)
	}
	p[t.ThreadIdx().X] = 1
	t.Barrier()
	out[t.ThreadIdx().X] = s[(t.ThreadIdx().X+1)%64]
}

//gpu:kernel block=64 grid=1
func SwapPingPong(t gpu.Thread, out []float32) {
	a := gpu.Shared[[64]float32](t)
	b := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	a[tid] = float32(tid)
	t.Barrier()
	src, dst := a, b
	for k := 0; k < 4; k++ {
		dst[tid] = src[(tid+1)%64]
		t.Barrier()
		src, dst = dst, src
	}
	out[tid] = src[tid]
}

//gpu:kernel block=64 grid=1
func SwapPingPongNoBarrier(t gpu.Thread, out []float32) {
	a := gpu.Shared[[64]float32](t)
	b := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	a[tid] = float32(tid)
	t.Barrier()
	src, dst := a, b
	for k := 0; k < 4; k++ {
		dst[tid] = src[(tid+1)%64] // want `data race on shared` `data race on shared`
		src, dst = dst, src
	}
	t.Barrier()
	out[tid] = src[tid]
}

//gpu:kernel block=64 grid=1
func SwapReadAfterLoop(t gpu.Thread, out []float32) {
	a := gpu.Shared[[64]float32](t)
	b := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	a[tid] = float32(tid)
	t.Barrier()
	src, dst := a, b
	for k := 0; k < 4; k++ {
		dst[tid] = src[(tid+1)%64]
		t.Barrier()
		src, dst = dst, src
	}
	out[tid] = a[(tid+1)%64] + b[tid]
}
