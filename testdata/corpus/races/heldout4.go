package racecorpus

// Held-out probes, fourth batch: zero-trip barrier loops, min clamps, 3-D
// flattening, uniform returns (see testdata/corpus/HELDOUT.md).

import "github.com/gpukvet/gpukvet/gpu"

// InnerZeroTripBarrier: the only barrier between the write and the neighbour read is in a loop
// that runs m times, and m may be 0.
// verdict: race
//
//gpu:kernel block=64 grid=1
func InnerZeroTripBarrier(t gpu.Thread, out []float32, m int) {
	s := gpu.Shared[[65]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = 1
	for j := 0; j < m; j++ {
		t.Barrier()
	}
	out[tid] = s[tid+1]
}

// MinClampWrite: threads 10 and up all write slot min(tid, 10).
// verdict: race
//
//gpu:kernel block=64 grid=1
func MinClampWrite(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	s[min(tid, 10)] = float32(tid)
	t.Barrier()
	out[tid] = s[tid]
}

// MinClampOwn: min(tid, 63) is tid in a 64-thread block.
// verdict: clean
//
//gpu:kernel block=64 grid=1
func MinClampOwn(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	s[min(tid, 63)] = float32(tid)
	t.Barrier()
	out[tid] = s[63-tid]
}

// Flat3D: a 4×4×4 block flattened row-major onto its own slots.
// verdict: clean
//
//gpu:kernel block=4,4,4 grid=1
func Flat3D(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	x, y, z := t.ThreadIdx().X, t.ThreadIdx().Y, t.ThreadIdx().Z
	s[z*16+y*4+x] = 1
	t.Barrier()
	out[z*16+y*4+x] = s[63-(z*16+y*4+x)]
}

// Flat3DWrong: the z stride is 4 instead of 16, so slices overlap.
// verdict: race
//
//gpu:kernel block=4,4,4 grid=1
func Flat3DWrong(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	x, y, z := t.ThreadIdx().X, t.ThreadIdx().Y, t.ThreadIdx().Z
	s[z*4+y*4+x] = 1
	t.Barrier()
	out[z*16+y*4+x] = s[63-(z*16+y*4+x)]
}

// UniformReturnThenRace: a uniform early return does not stop the race after it.
// verdict: race
//
//gpu:kernel block=64 grid=1
func UniformReturnThenRace(t gpu.Thread, out []float32, n int) {
	s := gpu.Shared[[65]float32](t)
	if n > 100 {
		return
	}
	tid := t.ThreadIdx().X
	s[tid] = 1
	out[tid] = s[tid+1]
}

// PtrSwapPingPong double-buffers through swapped pointers with one
// barrier per step.
// verdict: clean
//
//gpu:kernel block=64 grid=1
func PtrSwapPingPong(t gpu.Thread, out []float32) {
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

// PtrSwapNoBarrier swaps with no barrier: the next step's write meets this
// step's read of the same array.
// verdict: race
//
//gpu:kernel block=64 grid=1
func PtrSwapNoBarrier(t gpu.Thread, out []float32) {
	a := gpu.Shared[[64]float32](t)
	b := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	a[tid] = float32(tid)
	t.Barrier()
	src, dst := a, b
	for k := 0; k < 4; k++ {
		dst[tid] = src[(tid+1)%64]
		src, dst = dst, src
	}
	t.Barrier()
	out[tid] = src[tid]
}

// PtrSwapSameSide writes and reads the neighbour through the same swapped
// pointer in one step.
// verdict: race
//
//gpu:kernel block=64 grid=1
func PtrSwapSameSide(t gpu.Thread, out []float32) {
	a := gpu.Shared[[64]float32](t)
	b := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	src, dst := a, b
	for k := 0; k < 4; k++ {
		src[tid] = float32(k)
		dst[tid] = src[(tid+1)%64]
		t.Barrier()
		src, dst = dst, src
	}
	out[tid] = src[tid]
}

func init() {
	for _, k := range []struct {
		name string
		fn   any
	}{
		{"InnerZeroTripBarrier", InnerZeroTripBarrier},
		{"MinClampWrite", MinClampWrite},
		{"MinClampOwn", MinClampOwn},
		{"Flat3D", Flat3D},
		{"Flat3DWrong", Flat3DWrong},
		{"UniformReturnThenRace", UniformReturnThenRace},
		{"PtrSwapPingPong", PtrSwapPingPong}, {"PtrSwapNoBarrier", PtrSwapNoBarrier},
		{"PtrSwapSameSide", PtrSwapSameSide},
	} {
		Kernels[k.name] = k.fn
	}
}
