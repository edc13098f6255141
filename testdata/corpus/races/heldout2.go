package racecorpus

// More held-out kernels: accesses through pointers, device-function
// Shared calls, struct elements and range loops (see
// testdata/corpus/HELDOUT.md).

import "github.com/gpukvet/gpukvet/gpu"

func storeAt(p *float32, v float32) { *p = v }

// PointerArgNeighbour stores through a pointer to the next thread's slot,
// passed to a device function, and reads its own slot with no barrier.
// verdict: race
//
//gpu:kernel block=256
func PointerArgNeighbour(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[257]float32](t)
	tid := t.ThreadIdx().X
	storeAt(&s[tid+1], in[t.GlobalIdx().X])
	out[t.GlobalIdx().X] = s[tid]
}

// PointerArgOwn stores through a pointer to its own slot.
// verdict: clean
//
//gpu:kernel block=256
func PointerArgOwn(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	storeAt(&s[tid], in[t.GlobalIdx().X])
	out[t.GlobalIdx().X] = s[tid]
}

// LocalPointerAlias writes through a local pointer to its own slot and
// reads the neighbour's with no barrier.
// verdict: race
//
//gpu:kernel block=256
func LocalPointerAlias(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[257]float32](t)
	tid := t.ThreadIdx().X
	p := &s[tid]
	*p = in[t.GlobalIdx().X]
	out[t.GlobalIdx().X] = s[tid+1]
}

func scratch(t gpu.Thread) *[256]float32 { return gpu.Shared[[256]float32](t) }

// SharedViaHelperTwice gets the one shared array of a helper's Shared call
// twice; both calls name the same memory.
// verdict: race
//
//gpu:kernel block=256
func SharedViaHelperTwice(t gpu.Thread, in, out []float32) {
	tid := t.ThreadIdx().X
	scratch(t)[tid] = in[t.GlobalIdx().X]
	out[t.GlobalIdx().X] = scratch(t)[(tid+1)%256]
}

type pairF struct{ a, b float32 }

// StructFieldsOwn writes both fields of its own element.
// verdict: clean
//
//gpu:kernel block=256
func StructFieldsOwn(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]pairF](t)
	tid := t.ThreadIdx().X
	s[tid].a = in[t.GlobalIdx().X]
	s[tid].b = 2 * s[tid].a
	out[t.GlobalIdx().X] = s[tid].b
}

// StructFieldNeighbour reads the neighbour element's field before the
// barrier.
// verdict: race
//
//gpu:kernel block=256
func StructFieldNeighbour(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[257]pairF](t)
	tid := t.ThreadIdx().X
	s[tid].a = in[t.GlobalIdx().X]
	out[t.GlobalIdx().X] = s[tid+1].a
	t.Barrier()
}

// GlobalPointerCounter increments a global counter through a pointer.
// verdict: race
//
//gpu:kernel
func GlobalPointerCounter(t gpu.Thread, count []int32) {
	p := &count[0]
	*p += 1
}

// UniformSlotLoop: in each iteration every thread writes slot k.
// verdict: race
//
//gpu:kernel block=64
func UniformSlotLoop(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[8]float32](t)
	for k := 0; k < 8; k++ {
		s[k] = in[t.GlobalIdx().X]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[t.ThreadIdx().X%8]
}

// TwoLeaders: thread 0 and thread 1 both write slot 0.
// verdict: race
//
//gpu:kernel block=64
func TwoLeaders(t gpu.Thread, out []float32) {
	s := gpu.Shared[[1]float32](t)
	tid := t.ThreadIdx().X
	if tid == 0 {
		s[0] = 1
	}
	if tid == 1 {
		s[0] = 2
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[0]
}

// RangeClear: every thread clears the whole array.
// verdict: race
//
//gpu:kernel block=64
func RangeClear(t gpu.Thread, out []float32) {
	s := gpu.Shared[[64]float32](t)
	for i := range s {
		s[i] = 0
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[t.ThreadIdx().X]
}

// ColumnBlocks: slot i*256+tid in each of four passes.
// verdict: clean
//
//gpu:kernel block=256
func ColumnBlocks(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	for i := 0; i < 4; i++ {
		s[i*256+tid] = in[(i*256+tid)%len(in)]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[1023-tid]
}

// LeaderOnlyWrites: thread 0 fills the whole array, a barrier, all read.
// verdict: clean
//
//gpu:kernel block=64
func LeaderOnlyWrites(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[64]float32](t)
	if t.ThreadIdx().X == 0 {
		for i := range s {
			s[i] = in[i]
		}
	}
	t.Barrier()
	out[t.GlobalIdx().X] = s[63-t.ThreadIdx().X]
}

// SharedViaHelperBarrier is the twin with a barrier between.
// verdict: clean
//
//gpu:kernel block=256
func SharedViaHelperBarrier(t gpu.Thread, in, out []float32) {
	tid := t.ThreadIdx().X
	scratch(t)[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	out[t.GlobalIdx().X] = scratch(t)[(tid+1)%256]
}

func rowOf(s []float32, r int) []float32 { return s[r*16 : r*16+16] }

// HelperRowSliceFolded writes a block's 16-element row of global memory
// from 32 threads.
// verdict: race
//
//gpu:kernel block=32
func HelperRowSliceFolded(t gpu.Thread, out []float32) {
	rowOf(out, t.BlockIdx().X)[t.ThreadIdx().X%16] = float32(t.ThreadIdx().X)
}

// HelperRowSlice writes a block's row from 16 threads.
// verdict: clean
//
//gpu:kernel block=16
func HelperRowSlice(t gpu.Thread, out []float32) {
	rowOf(out, t.BlockIdx().X)[t.ThreadIdx().X%16] = float32(t.ThreadIdx().X)
}

func init() {
	for _, k := range []struct {
		name string
		fn   any
	}{
		{"PointerArgNeighbour", PointerArgNeighbour}, {"PointerArgOwn", PointerArgOwn},
		{"LocalPointerAlias", LocalPointerAlias}, {"SharedViaHelperTwice", SharedViaHelperTwice},
		{"StructFieldsOwn", StructFieldsOwn}, {"StructFieldNeighbour", StructFieldNeighbour},
		{"GlobalPointerCounter", GlobalPointerCounter}, {"UniformSlotLoop", UniformSlotLoop},
		{"TwoLeaders", TwoLeaders}, {"RangeClear", RangeClear},
		{"ColumnBlocks", ColumnBlocks}, {"LeaderOnlyWrites", LeaderOnlyWrites},
		{"SharedViaHelperBarrier", SharedViaHelperBarrier}, {"HelperRowSliceFolded", HelperRowSliceFolded},
		{"HelperRowSlice", HelperRowSlice},
	} {
		Kernels[k.name] = k.fn
	}
}
