// Package pingpong holds kernels that alternate between two halves of one
// shared array through a uniform offset the loop flips each iteration
// (moderngpu's CTAScan: first = NT - first; GPU Gems 3's naive scan: pout
// = 1 - pout, pin = 1 - pout; buf ^= 1), with step sizes that double
// (offset += offset, offset *= 2, offset <<= 1). Each step reads one half
// and writes the other, so one barrier per step suffices. Each clean
// kernel has a racy twin.
package pingpong

import "github.com/gpukvet/gpukvet/gpu"

const nt = 128

// ---- first = NT - first ----

//gpu:kernel block=128
func FirstFlip(t gpu.Thread, out []float32) {
	s := gpu.Shared[[2 * nt]float32](t)
	tid := t.ThreadIdx().X
	x := float32(tid)
	s[tid] = x
	first := 0
	t.Barrier()
	for offset := 1; offset < nt; offset += offset {
		if tid >= offset {
			x += s[first+tid-offset]
		}
		first = nt - first
		s[first+tid] = x
		t.Barrier()
	}
	out[t.GlobalIdx().X] = x
}

// The flip after the store: each step writes the half it reads.
//
//gpu:kernel block=128
func FirstFlipLate(t gpu.Thread, out []float32) {
	s := gpu.Shared[[2 * nt]float32](t)
	tid := t.ThreadIdx().X
	x := float32(tid)
	s[tid] = x
	first := 0
	t.Barrier()
	for offset := 1; offset < nt; offset += offset {
		if tid >= offset {
			x += s[first+tid-offset]
		}
		s[first+tid] = x // want `data race on shared s`
		first = nt - first
		t.Barrier()
	}
	out[t.GlobalIdx().X] = x
}

// ---- pout = 1 - pout, pin = 1 - pout (GPU Gems 3, chapter 39) ----

//gpu:kernel block=128
func PoutPin(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[2 * nt]float32](t)
	thid := t.ThreadIdx().X
	pout, pin := 0, 1
	temp[pout*nt+thid] = in[t.GlobalIdx().X]
	t.Barrier()
	for offset := 1; offset < nt; offset *= 2 {
		pout = 1 - pout
		pin = 1 - pout
		if thid >= offset {
			temp[pout*nt+thid] = temp[pin*nt+thid] + temp[pin*nt+thid-offset]
		} else {
			temp[pout*nt+thid] = temp[pin*nt+thid]
		}
		t.Barrier()
	}
	out[t.GlobalIdx().X] = temp[pout*nt+thid]
}

// pin set to pout instead of 1 - pout: both halves are one.
//
//gpu:kernel block=128
func PoutPinSame(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[2 * nt]float32](t)
	thid := t.ThreadIdx().X
	pout, pin := 0, 1
	temp[pout*nt+thid] = in[t.GlobalIdx().X]
	t.Barrier()
	for offset := 1; offset < nt; offset *= 2 {
		pout = 1 - pout
		pin = pout
		if thid >= offset {
			temp[pout*nt+thid] = temp[pin*nt+thid] + temp[pin*nt+thid-offset] // want `data race on shared temp`
		} else {
			temp[pout*nt+thid] = temp[pin*nt+thid] // want `data race on shared temp`
		}
		t.Barrier()
	}
	out[t.GlobalIdx().X] = temp[pout*nt+thid]
}

// ---- buf ^= 1 over a [2][NT] array ----

//gpu:kernel block=128
func XorBuffers(t gpu.Thread, out []float32) {
	s := gpu.Shared[[2][nt]float32](t)
	tid := t.ThreadIdx().X
	buf := 0
	s[buf][tid] = float32(tid)
	t.Barrier()
	for offset := 1; offset < nt; offset <<= 1 {
		v := s[buf][tid]
		if tid >= offset {
			v += s[buf][tid-offset]
		}
		buf ^= 1
		s[buf][tid] = v
		t.Barrier()
	}
	out[t.GlobalIdx().X] = s[buf][tid]
}

// The same without the barrier: the next step's reads meet this step's
// stores.
//
//gpu:kernel block=128
func XorBuffersNoBarrier(t gpu.Thread, out []float32) {
	s := gpu.Shared[[2][nt]float32](t)
	tid := t.ThreadIdx().X
	buf := 0
	s[buf][tid] = float32(tid)
	t.Barrier()
	for offset := 1; offset < nt; offset <<= 1 {
		v := s[buf][tid]
		if tid >= offset {
			v += s[buf][tid-offset]
		}
		buf ^= 1
		s[buf][tid] = v // want `data race on shared s`
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[buf][tid]
}

// ---- base ^= NT: the halves at 0 and NT of one array ----

//gpu:kernel block=128
func XorHalf(t gpu.Thread, out []float32) {
	s := gpu.Shared[[2 * nt]float32](t)
	tid := t.ThreadIdx().X
	base := 0
	s[base+tid] = float32(tid)
	t.Barrier()
	for offset := 1; offset < nt; offset *= 2 {
		v := s[base+tid]
		if tid >= offset {
			v += s[base+tid-offset]
		}
		base ^= nt
		s[base+tid] = v
		t.Barrier()
	}
	out[t.GlobalIdx().X] = s[base+tid]
}

// base ^= NT/2: the "halves" at 0 and 64 overlap.
//
//gpu:kernel block=128
func XorHalfOverlap(t gpu.Thread, out []float32) {
	s := gpu.Shared[[2 * nt]float32](t)
	tid := t.ThreadIdx().X
	base := 0
	s[base+tid] = float32(tid)
	t.Barrier()
	for offset := 1; offset < nt; offset *= 2 {
		v := s[base+tid]
		if tid >= offset {
			v += s[base+tid-offset]
		}
		base ^= nt / 2
		s[base+tid] = v // want `data race on shared s`
		t.Barrier()
	}
	out[t.GlobalIdx().X] = s[base+tid]
}
