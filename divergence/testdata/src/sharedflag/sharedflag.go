// Package sharedflag pins the uniformity of conditions on shared memory read
// after the barrier that publishes it: uniform when nothing writes that
// memory between the barrier and the read, divergent when something does.
package sharedflag

import "github.com/gpukvet/gpukvet/gpu"

// A per-thread store to another field of the same shared struct is no
// write to the field the condition reads.
//
//gpu:kernel
func StructOtherField(t gpu.Thread, in []float32) {
	type st struct {
		n   int32
		buf [64]float32
	}
	s := gpu.Shared[st](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		s.n = int32(in[0])
	}
	t.Barrier()
	s.buf[tid] = in[tid]
	if s.n > 0 {
		t.Barrier()
	}
}

// The same field written per thread between barrier and read: divergent.
//
//gpu:kernel
func StructSameField(t gpu.Thread, in []float32) {
	type st struct {
		n   [64]int32
		buf [64]float32
	}
	s := gpu.Shared[st](t)
	tid := t.ThreadIdx().X
	t.Barrier()
	s.n[tid] = int32(in[tid])
	if s.n[0] > 0 { // the store above may be thread 0's
		t.Barrier() // want `barrier may be reached by only some threads`
	}
}

// Rows of a 2-D shared array: the flag lives in row 0, each thread writes
// row 1.
//
//gpu:kernel
func OtherRow(t gpu.Thread, in []int32) {
	s := gpu.Shared[[2][64]int32](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		s[0][0] = in[0]
	}
	t.Barrier()
	s[1][tid] = in[tid]
	if s[0][0] != 0 {
		t.Barrier()
	}
}

// The thread's own store lands in the row the condition reads: divergent.
//
//gpu:kernel
func SameRow(t gpu.Thread, in []int32) {
	s := gpu.Shared[[2][64]int32](t)
	tid := t.ThreadIdx().X
	t.Barrier()
	s[0][tid] = in[tid]
	if s[0][3] != 0 {
		t.Barrier() // want `barrier may be reached by only some threads`
	}
}

// An array of structs: the field read and the field written differ whatever
// the elements.
//
//gpu:kernel
func ElementsOtherField(t gpu.Thread, in []int32) {
	type cell struct{ key, val int32 }
	s := gpu.Shared[[64]cell](t)
	tid := t.ThreadIdx().X
	s[tid].key = in[tid] % 4
	t.Barrier()
	s[tid].val = in[tid]
	if s[5].key > 1 {
		t.Barrier()
	}
}

// Stores through a φ of two global slices (swapped buffers) cannot write
// shared memory.
//
//gpu:kernel
func SwappedGlobals(t gpu.Thread, steps int, a, b []float32) {
	work := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		work[0] = int32(steps)
	}
	t.Barrier()
	src, dst := a, b
	for k := 0; k < 4; k++ {
		if int32(k) < work[0] {
			t.Barrier()
		}
		dst[tid] = src[tid] + 1
		src, dst = dst, src
	}
}

// A φ of two shared arrays that may be the flag's: divergent.
//
//gpu:kernel
func SwappedShared(t gpu.Thread, steps int, a []float32) {
	x := gpu.Shared[[64]int32](t)
	y := gpu.Shared[[64]int32](t)
	tid := t.ThreadIdx().X
	x[tid] = int32(steps)
	y[tid] = int32(steps)
	t.Barrier()
	src, dst := x, y
	for k := 0; k < 4; k++ {
		if int32(k) < x[0] {
			t.Barrier() // want `barrier may be reached by only some threads`
		}
		dst[tid] = src[tid] + int32(a[tid])
		src, dst = dst, src
	}
}

// A φ choosing between a global slice and another global slice, written
// under a thread condition, beside a shared count.
//
//gpu:kernel
func PickedGlobal(t gpu.Thread, useB bool, a, b []float32) {
	cnt := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		cnt[0] = int32(len(a) % 3)
	}
	t.Barrier()
	out := a
	if useB {
		out = b
	}
	out[tid] = 1
	for k := int32(0); k < cnt[0]; k++ {
		t.Barrier()
	}
}
