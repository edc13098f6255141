// Package flags holds kernels whose writes are guarded by bool values
// held in variables (issue 20): flags set in a loop, conditions computed
// before a barrier and tested after it, && and || chains kept in locals,
// and flags passed to or returned by device functions. Blocks overlap by a
// halo (pathfinder, stencils with ghost cells), so only the flag keeps two
// blocks' threads off one element. Each clean kernel has a racy twin whose
// flag lets the halo threads write too.
package flags

import "github.com/gpukvet/gpukvet/gpu"

// Block b covers x = 254b-1 … 254b+254; threads 1..254 own x = 254b … 254b+253.

// ---- flags set in a loop (Rodinia pathfinder's computed) ----

//gpu:kernel block=256
func FlagSetInLoop(t gpu.Thread, out []float32, iters int) {
	tx := t.ThreadIdx().X
	x := t.BlockIdx().X*254 + tx - 1
	computed := false
	for it := 0; it < iters; it++ {
		if tx >= 1 && tx <= 254 {
			computed = true
		}
	}
	if computed && x >= 0 && x < len(out) {
		out[x] = 1
	}
}

//gpu:kernel block=256
func FlagSetInLoopRacy(t gpu.Thread, out []float32, iters int) {
	tx := t.ThreadIdx().X
	x := t.BlockIdx().X*254 + tx - 1
	computed := false
	for it := 0; it < iters; it++ {
		if tx >= 1 && tx <= 255 {
			computed = true
		}
	}
	if computed && x >= 0 && x < len(out) {
		out[x] = 1 // want `data race on global out`
	}
}

// The flag is reset every iteration, set under a test of the thread, and
// the loop has barriers.
//
//gpu:kernel block=256
func FlagResetEachIteration(t gpu.Thread, out []float32, iters int) {
	buf := gpu.Shared[[256]float32](t)
	tx := t.ThreadIdx().X
	x := t.BlockIdx().X*254 + tx - 1
	computed := false
	for it := 0; it < iters; it++ {
		computed = false
		if tx > 0 && tx < 255 {
			computed = true
			buf[tx] = buf[tx] + 1
		}
		t.Barrier()
	}
	if computed && x >= 0 && x < len(out) {
		out[x] = buf[tx]
	}
}

//gpu:kernel block=256
func FlagResetEachIterationRacy(t gpu.Thread, out []float32, iters int) {
	buf := gpu.Shared[[256]float32](t)
	tx := t.ThreadIdx().X
	x := t.BlockIdx().X*254 + tx - 1
	computed := false
	for it := 0; it < iters; it++ {
		computed = false
		if tx > 0 {
			computed = true
			buf[tx] = buf[tx] + 1
		}
		t.Barrier()
	}
	if computed && x >= 0 && x < len(out) {
		out[x] = buf[tx] // want `data race on global out`
	}
}

// A flag found by a search loop that breaks.
//
//gpu:kernel block=256
func FlagFoundBreak(t gpu.Thread, out []int32, keys []int32) {
	tx := t.ThreadIdx().X
	x := t.BlockIdx().X*254 + tx - 1
	found := false
	for k := 0; k < len(keys); k++ {
		if tx != 0 && tx != 255 && keys[k] == int32(x) {
			found = true
			break
		}
	}
	if found && x >= 0 && x < len(out) {
		out[x] = 1
	}
}

//gpu:kernel block=256
func FlagFoundBreakRacy(t gpu.Thread, out []int32, keys []int32) {
	tx := t.ThreadIdx().X
	x := t.BlockIdx().X*254 + tx - 1
	found := false
	for k := 0; k < len(keys); k++ {
		if tx != 0 && keys[k] == int32(x) {
			found = true
			break
		}
	}
	if found && x >= 0 && x < len(out) {
		out[x] = 1 // want `data race on global out`
	}
}

// ---- conditions computed before a barrier, tested after it ----

//gpu:kernel block=256
func LastThreadAcrossBarrier(t gpu.Thread, out, last []float32, n int) {
	s := gpu.Shared[[256]float32](t)
	lid := t.ThreadIdx().X
	lastThread := lid+1 == n
	inner := lid > 0 && lid < 255
	s[lid] = 1
	t.Barrier()
	if inner {
		out[t.BlockIdx().X*254+lid-1] = s[lid]
	}
	if lastThread {
		last[t.BlockIdx().X] = s[0]
	}
}

//gpu:kernel block=256
func LastThreadAcrossBarrierRacy(t gpu.Thread, out []float32, n int) {
	s := gpu.Shared[[256]float32](t)
	lid := t.ThreadIdx().X
	inner := lid > 0 || lid < 255
	s[lid] = 1
	t.Barrier()
	if inner {
		out[t.BlockIdx().X*254+lid] = s[lid] // want `data race on global out`
	}
}

// ---- && and || chains held in locals ----

//gpu:kernel block=256
func InRegionAnd(t gpu.Thread, out, in []float32) {
	i := t.BlockIdx().X*254 + t.ThreadIdx().X - 1
	n := len(in)
	inRegion := i > 0 && i < n-1
	inner := t.ThreadIdx().X > 0 && t.ThreadIdx().X < 255
	if inRegion && inner && i < len(out) {
		out[i] = in[i-1] + in[i+1]
	}
}

//gpu:kernel block=256
func InRegionAndRacy(t gpu.Thread, out, in []float32) {
	i := t.BlockIdx().X*254 + t.ThreadIdx().X - 1
	n := len(in)
	inRegion := i > 0 && i < n-1
	inner := t.ThreadIdx().X > 0
	if inRegion && inner && i < len(out) {
		out[i] = in[i-1] + in[i+1] // want `data race on global out`
	}
}

// The halo test spelled as a negated ||.
//
//gpu:kernel block=256
func HaloOr(t gpu.Thread, out []float32) {
	tx := t.ThreadIdx().X
	i := t.BlockIdx().X*254 + tx - 1
	halo := tx == 0 || tx == 255
	if !halo && i < len(out) {
		out[i] = 1
	}
}

//gpu:kernel block=256
func HaloOrRacy(t gpu.Thread, out []float32) {
	tx := t.ThreadIdx().X
	i := t.BlockIdx().X*254 + tx - 1
	halo := tx == 0 && tx == 255
	if !halo && i >= 0 && i < len(out) {
		out[i] = 1 // want `data race on global out`
	}
}

// A flag compared with a constant, and one updated with &=.
//
//gpu:kernel block=256
func FlagCompared(t gpu.Thread, out []float32) {
	tx := t.ThreadIdx().X
	i := t.BlockIdx().X*254 + tx - 1
	ok := tx > 0
	ok = ok && tx < 255
	if ok == true && i < len(out) {
		out[i] = 1
	}
}

// ---- flags passed to and returned by device functions ----

//gpu:device
func inner(tx int) bool { return tx >= 1 && tx <= 254 }

//gpu:device
func store(out []float32, i int, ok bool) {
	if ok && i < len(out) {
		out[i] = 1
	}
}

//gpu:kernel block=256
func FlagThroughDevice(t gpu.Thread, out []float32) {
	tx := t.ThreadIdx().X
	store(out, t.BlockIdx().X*254+tx-1, inner(tx))
}

//gpu:device
func edge(tx int) bool {
	if tx == 0 {
		return true
	}
	return tx == 255
}

//gpu:kernel block=256
func FlagFromDeviceReturns(t gpu.Thread, out []float32) {
	tx := t.ThreadIdx().X
	if !edge(tx) {
		store(out, t.BlockIdx().X*254+tx-1, true)
	}
}

//gpu:device
func put(out []float32, i int, ok bool) {
	if ok && i >= 0 && i < len(out) {
		out[i] = 1
	}
}

//gpu:kernel block=256
func FlagThroughDeviceRacy(t gpu.Thread, out []float32) {
	tx := t.ThreadIdx().X
	put(out, t.BlockIdx().X*254+tx-1, tx <= 254) // want `data race on global out`
}

// The flag tells which thread matched the last iteration's counter, and
// the counter has moved on when the loop exits: thread n-1 writes out[n-1]
// after the loop, as thread n-2 does with out[tx+1], and as thread n-1 of
// every other block does.
//
//gpu:kernel
func FlagOfLastIteration(t gpu.Thread, out []int32, n int) {
	if n != t.BlockDim().X {
		panic("n must be the block size")
	}
	tx := t.ThreadIdx().X
	f := false
	i := 0
	for ; i < n; i++ {
		f = tx == i && n > 1
	}
	if f && i >= 1 {
		out[i-1] = 1 // want `data race on global out: thread 1 of block 0 and thread 1 of block 1 both write out\[1\]`
	}
	if tx+1 < n {
		out[tx+1] = 2 // want `data race on global out`
	}
}
