// Package highbit holds reductions for any block size (the CUDA
// Handbook's): floorPow2, the largest power of two not above blockDim, is
// found by clearing low bits (`for x&(x-1) != 0 { x &= x - 1 }`), the
// threads at or above it fold into the cells below blockDim - floorPow2,
// then the halving loop runs. The fold is race-free because blockDim <
// 2·floorPow2. Each clean kernel has a racy twin.
package highbit

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Fold(t gpu.Thread, out []int32) {
	s := gpu.Shared[[1024]int32](t)
	tid := t.ThreadIdx().X
	s[tid] = int32(tid)
	t.Barrier()
	fp := t.BlockDim().X
	for fp&(fp-1) != 0 {
		fp &= fp - 1
	}
	if tid >= fp {
		s[tid-fp] += s[tid]
	}
	t.Barrier()
	for a := fp >> 1; a != 0; a >>= 1 {
		if tid < a {
			s[tid] += s[tid+a]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = s[0]
	}
}

// Half the block is not the highest bit: for an odd blockDim thread
// blockDim-1 folds into the cell thread blockDim/2 reads.
//
//gpu:kernel
func FoldHalfBlock(t gpu.Thread, out []int32) {
	s := gpu.Shared[[1024]int32](t)
	tid := t.ThreadIdx().X
	s[tid] = int32(tid)
	t.Barrier()
	fp := t.BlockDim().X / 2
	if tid >= fp {
		s[tid-fp] += s[tid] // want `data race on shared s`
	}
	t.Barrier()
	if tid == 0 {
		out[t.BlockIdx().X] = s[0]
	}
}

// The Handbook's spelling: the fold only when blockDim is not a power of
// two, its barrier inside that uniform test.
//
//gpu:kernel
func FoldUnderTest(t gpu.Thread, out []int32) {
	s := gpu.Shared[[1024]int32](t)
	tid := t.ThreadIdx().X
	s[tid] = int32(tid)
	t.Barrier()
	floorPow2 := t.BlockDim().X
	if floorPow2&(floorPow2-1) != 0 {
		for floorPow2&(floorPow2-1) != 0 {
			floorPow2 = floorPow2 & (floorPow2 - 1)
		}
		if tid >= floorPow2 {
			s[tid-floorPow2] += s[tid]
		}
		t.Barrier()
	}
	for a := floorPow2 >> 1; a != 0; a >>= 1 {
		if tid < a {
			s[tid] += s[tid+a]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = s[0]
	}
}

// Without the fold's barrier, thread 0's first halving step reads s[0]
// while thread floorPow2 folds into it.
//
//gpu:kernel
func FoldUnderTestNoBarrier(t gpu.Thread, out []int32) {
	s := gpu.Shared[[1024]int32](t)
	tid := t.ThreadIdx().X
	s[tid] = int32(tid)
	t.Barrier()
	floorPow2 := t.BlockDim().X
	if floorPow2&(floorPow2-1) != 0 {
		for floorPow2&(floorPow2-1) != 0 {
			floorPow2 = floorPow2 & (floorPow2 - 1)
		}
		if tid >= floorPow2 {
			s[tid-floorPow2] += s[tid]
		}
	}
	for a := floorPow2 >> 1; a != 0; a >>= 1 {
		if tid < a {
			s[tid] += s[tid+a] // want `possible data race on shared s`
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = s[0] // want `possible data race on shared s`
	}
}

// floorPow2 is the largest power of two not above n.
func floorPow2(n int) int {
	for n&(n-1) != 0 {
		n &= n - 1
	}
	return n
}

// The loop in a device function, its result folded over.
//
//gpu:kernel
func FoldHelper(t gpu.Thread, out []int32) {
	s := gpu.Shared[[1024]int32](t)
	tid := t.ThreadIdx().X
	s[tid] = int32(tid)
	t.Barrier()
	fp := floorPow2(t.BlockDim().X)
	if tid >= fp {
		s[tid-fp] += s[tid]
	}
	t.Barrier()
	if tid == 0 {
		out[t.BlockIdx().X] = s[0]
	}
}

// A loop x &= m with m not x-1 is no floorPow2 (and must not stop the
// check).
//
//gpu:kernel
func MaskInLoop(t gpu.Thread, out []int32, keep int) {
	x := t.BlockDim().X
	for x > 64 {
		x &= keep
	}
	out[t.GlobalIdx().X] = int32(x)
}
