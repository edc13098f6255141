// Package phases holds kernels with barriers in the shapes that gpukvet gen
// splits into per-phase loops for the cpu backend (a loop around barriers,
// an if around barriers, locals of every kind living across a barrier,
// returns before and after barriers, 2-D blocks, a parameter a thread
// assigns, a trap between two barriers), and the kernels' tests, which
// compare the split loops with the race-detecting schedule (one goroutine
// per thread, the kernel called as written) and with Go.
package phases

//go:generate go tool gpukvet gen

import "github.com/gpukvet/gpukvet/gpu"

// pair is a struct local that lives across barriers.
type pair struct{ a, b float32 }

// LoopLocals: a loop around two barriers, with a scalar, an array and a
// struct local living across them and one declared in the loop's body.
//
//gpu:kernel
func LoopLocals(t gpu.Thread, in, out []float32) {
	tile := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var acc [2]float32
	p := pair{a: in[i], b: 1}
	for s := 1; s < 64; s *= 2 {
		tile[tid] = p.a
		t.Barrier()
		next := tile[(tid+s)%64]
		t.Barrier()
		acc[0] += next
		acc[1] = float32(s)
		p.b *= 2
	}
	out[i] = acc[0] + acc[1] + p.b
}

// Tile2D: a 2-D block (8×4) reverses its tile through shared memory.
//
//gpu:kernel
func Tile2D(t gpu.Thread, in, out []int32) {
	tile := gpu.Shared[[4][8]int32](t)
	x, y := t.ThreadIdx().X, t.ThreadIdx().Y
	g := t.GlobalIdx()
	w := t.GridDim().X * t.BlockDim().X
	tile[y][x] = in[g.Y*w+g.X]
	t.Barrier()
	out[g.Y*w+g.X] = tile[3-y][7-x] + int32(t.BlockIdx().Y)
}

// EarlyReturn: blocks past n return before the barrier (all their
// threads alike), and half the threads return after it.
//
//gpu:kernel
func EarlyReturn(t gpu.Thread, n int, in, out []int32) {
	if t.BlockIdx().X >= n {
		return
	}
	tile := gpu.Shared[[32]int32](t)
	tid := t.ThreadIdx().X
	tile[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	if tid >= 16 {
		return
	}
	out[t.GlobalIdx().X] = tile[tid] + tile[tid+16]
}

// IfBarrier: an if around two barriers, on a parameter; a var declared
// before them is used after.
//
//gpu:kernel
func IfBarrier(t gpu.Thread, twice bool, in, out []int32) {
	tile := gpu.Shared[[32]int32](t)
	tid := t.ThreadIdx().X
	var v int32 = in[t.GlobalIdx().X]
	if twice {
		tile[tid] = v
		t.Barrier()
		v += tile[31-tid]
		t.Barrier()
	} else {
		v = -v
	}
	out[t.GlobalIdx().X] = v
}

// ParamAcross: a parameter that each thread changes, read after a barrier.
//
//gpu:kernel
func ParamAcross(t gpu.Thread, k int, out []int32) {
	tile := gpu.Shared[[32]int32](t)
	tid := t.ThreadIdx().X
	k += tid
	tile[tid] = int32(k)
	t.Barrier()
	out[t.GlobalIdx().X] = tile[(tid+1)%32] + int32(k)
}

// TrapInPhase: an index from k past the tile traps between two barriers,
// in the thread whose k is out of range.
//
//gpu:kernel
func TrapInPhase(t gpu.Thread, k []int, in, out []int32) {
	tile := gpu.Shared[[32]int32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	tile[tid] = in[i]
	t.Barrier()
	v := tile[k[i]] // the trap
	t.Barrier()
	out[i] = v
}
