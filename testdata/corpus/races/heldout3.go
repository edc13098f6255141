package racecorpus

// Held-out probes, third batch: conversions, conditional barriers, disjoint
// guarded ranges, nested struct arrays (see testdata/corpus/HELDOUT.md).

import "github.com/gpukvet/gpukvet/gpu"

// AtomicVsPlainGlobal: thread 0 resets a global counter with a plain store while every thread
// adds to it atomically.
// verdict: race
//
//gpu:kernel
func AtomicVsPlainGlobal(t gpu.Thread, out []int32) {
	if t.GlobalIdx().X == 0 {
		out[0] = 0
	}
	gpu.AtomicAdd(&out[0], 1)
}

// ConditionalBarrierLoop: the barrier between the write and the neighbour read is taken only in
// even iterations.
// verdict: race
//
//gpu:kernel block=64 grid=1
func ConditionalBarrierLoop(t gpu.Thread, out []float32) {
	s := gpu.Shared[[65]float32](t)
	tid := t.ThreadIdx().X
	for k := 0; k < 4; k++ {
		s[tid] = float32(k)
		if k%2 == 0 {
			t.Barrier()
		}
		out[tid] += s[tid+1]
		t.Barrier()
	}
}

// ParamCondBarrier: the barrier between the write and the neighbour read depends on a
// parameter; with n <= 0 nothing orders them.
// verdict: race
//
//gpu:kernel block=64 grid=1
func ParamCondBarrier(t gpu.Thread, out []float32, n int) {
	s := gpu.Shared[[65]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = 1
	if n > 0 {
		t.Barrier()
	}
	out[tid] = s[tid+1]
}

// DisjointRanges: the first 32 threads write slots 0..31 and read 32..63, which no
// thread writes.
// verdict: clean
//
//gpu:kernel block=64 grid=1
func DisjointRanges(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	if tid < 32 {
		s[tid] = in[tid]
		out[tid] = s[tid+32]
	}
}

// OverlapRanges: reads reach slot 31, which thread 31 writes.
// verdict: race
//
//gpu:kernel block=64 grid=1
func OverlapRanges(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	if tid < 32 {
		s[tid] = in[tid]
		out[tid] = s[tid+31]
	}
}

// Uint32Index: writes the next slot through a uint32 index and reads its own.
// verdict: race
//
//gpu:kernel block=64 grid=1
func Uint32Index(t gpu.Thread, out []float32) {
	s := gpu.Shared[[65]float32](t)
	u := uint32(t.ThreadIdx().X)
	s[u+1] = 1
	out[u] = s[u]
}

// Uint32Own: writes and reads its own slot through a uint32 index.
// verdict: clean
//
//gpu:kernel block=64 grid=1
func Uint32Own(t gpu.Thread, out []float32) {
	s := gpu.Shared[[65]float32](t)
	u := uint32(t.ThreadIdx().X)
	s[u] = 1
	out[u] = s[u]
}

// Int32Global: indexes global memory by GlobalIdx converted to int32.
// verdict: clean
//
//gpu:kernel
func Int32Global(t gpu.Thread, out []float32) {
	i := int32(t.GlobalIdx().X)
	out[i] = 2
}

// HalfGlobal: two threads per element through GlobalIdx/2.
// verdict: race
//
//gpu:kernel
func HalfGlobal(t gpu.Thread, out []float32) {
	out[t.GlobalIdx().X/2] = 1
}

// PairGlobal: each thread writes elements 2g and 2g+1.
// verdict: clean
//
//gpu:kernel
func PairGlobal(t gpu.Thread, out []float32) {
	g := t.GlobalIdx().X
	out[g*2] = 1
	out[g*2+1] = 2
}

type vec4h struct{ v [4]float32 }

// NestedArrayField: each thread owns one element of an array field of a shared struct
// array.
// verdict: clean
//
//gpu:kernel block=64 grid=1
func NestedArrayField(t gpu.Thread, out []float32) {
	s := gpu.Shared[[16]vec4h](t)
	tid := t.ThreadIdx().X
	s[tid/4].v[tid%4] = 1
	out[tid] = s[tid/4].v[tid%4]
}

// NestedArrayFieldRace: reads the next thread's element of the array field.
// verdict: race
//
//gpu:kernel block=64 grid=1
func NestedArrayFieldRace(t gpu.Thread, out []float32) {
	s := gpu.Shared[[16]vec4h](t)
	tid := t.ThreadIdx().X
	s[tid/4].v[tid%4] = 1
	out[tid] = s[tid/4].v[(tid+1)%4]
}

// Int64Uint: writes the mirrored slot, waits, reads its own, through uint indices.
// verdict: clean
//
//gpu:kernel block=64 grid=1
func Int64Uint(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	i := uint(t.ThreadIdx().X)
	s[63-i] = 1
	t.Barrier()
	out[i] = s[i]
}

// LocalArrayCopy: stores a value from a thread-local array into its own slot.
// verdict: clean
//
//gpu:kernel block=64 grid=1
func LocalArrayCopy(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	var loc [4]float32
	tid := t.ThreadIdx().X
	for k := range loc {
		loc[k] = float32(k + tid)
	}
	s[tid] = loc[tid%4]
	t.Barrier()
	out[tid] = s[63-tid]
}

func init() {
	for _, k := range []struct {
		name string
		fn   any
	}{
		{"AtomicVsPlainGlobal", AtomicVsPlainGlobal},
		{"ConditionalBarrierLoop", ConditionalBarrierLoop},
		{"ParamCondBarrier", ParamCondBarrier},
		{"DisjointRanges", DisjointRanges},
		{"OverlapRanges", OverlapRanges},
		{"Uint32Index", Uint32Index},
		{"Uint32Own", Uint32Own},
		{"Int32Global", Int32Global},
		{"HalfGlobal", HalfGlobal},
		{"PairGlobal", PairGlobal},
		{"NestedArrayField", NestedArrayField},
		{"NestedArrayFieldRace", NestedArrayFieldRace},
		{"Int64Uint", Int64Uint},
		{"LocalArrayCopy", LocalArrayCopy},
	} {
		Kernels[k.name] = k.fn
	}
}
