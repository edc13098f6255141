package basic

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=256
func NeighbourNoBarrier(t gpu.Thread, out []float32) {
	tile := gpu.Shared[[257]float32](t)
	i := t.ThreadIdx().X
	tile[i] = float32(i)
	out[t.GlobalIdx().X] = tile[i+1] // want `data race on shared tile: thread 1 writes tile\[1\] \(line 9\) while thread 0 reads tile\[1\] \(line 10\) with no barrier between`
}

//gpu:kernel block=256
func NeighbourBarrier(t gpu.Thread, out []float32) {
	tile := gpu.Shared[[257]float32](t)
	i := t.ThreadIdx().X
	tile[i] = float32(i)
	t.Barrier()
	out[t.GlobalIdx().X] = tile[i+1]
}

// NeighbourMethodExpr synchronizes with the method expression
// gpu.Thread.Barrier and takes its index through a *gpu.Thread: the same
// barrier and index as NeighbourBarrier's.
//
//gpu:kernel block=256
func NeighbourMethodExpr(t gpu.Thread, out []float32) {
	p := &t
	tile := gpu.Shared[[257]float32](t)
	i := p.ThreadIdx().X
	tile[i] = float32(i)
	gpu.Thread.Barrier(t)
	out[p.GlobalIdx().X] = tile[i+1]
}

// NeighbourMethodExprNoBarrier is NeighbourMethodExpr without the barrier.
//
//gpu:kernel block=256
func NeighbourMethodExprNoBarrier(t gpu.Thread, out []float32) {
	p := &t
	tile := gpu.Shared[[257]float32](t)
	i := p.ThreadIdx().X
	tile[i] = float32(i)
	out[p.GlobalIdx().X] = tile[i+1] // want `data race on shared tile: thread 1 writes tile\[1\] \(line 43\) while thread 0 reads tile\[1\] \(line 44\) with no barrier between`
}

//gpu:kernel
func ReduceSeq(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := t.BlockDim().X / 2; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

//gpu:kernel
func ReduceNoBarrier(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := t.BlockDim().X / 2; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s] // want `data race on shared sh`
		}
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

//gpu:kernel
func GlobalSameSlot(t gpu.Thread, out []float32) {
	out[0] = 1 // want `data race on global out: thread 0 and thread 1 both write out\[0\]`
}

//gpu:kernel
func GlobalPerBlock(t gpu.Thread, out []float32) {
	out[t.BlockIdx().X] = 1 // want `data race on global out`
}

//gpu:kernel
func GlobalPerBlockGuarded(t gpu.Thread, out []float32) {
	if t.ThreadIdx().X == 0 {
		out[t.BlockIdx().X] = 1
	}
}

//gpu:kernel
func Saxpy(t gpu.Thread, a float32, x, y []float32) {
	i := t.GlobalIdx().X
	if i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}
