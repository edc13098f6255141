package flags

import "github.com/gpukvet/gpukvet/gpu"

// ---- flags whose decision reads the loop's own counter ----
//
// The flag is set in some iteration, under a test of that iteration's
// counter (4*i+k == n-1), and read after the loop: the counter then is
// not the one the test read. Each clean kernel has a racy twin whose test
// lets two threads set their flags.

// Thread i holds elements 4i..4i+3; the one holding n-1 writes out[n].
//
//gpu:kernel
func LastOwnerFlag(t gpu.Thread, out []float32, n int) {
	i := t.GlobalIdx().X
	last := false
	for k := range 4 {
		if i*4+k == n-1 {
			last = true
		}
	}
	if last && n < len(out) {
		out[n] = -1
	}
}

//gpu:kernel
func LastOwnerFlagRacy(t gpu.Thread, out []float32, n int) {
	i := t.GlobalIdx().X
	last := false
	for k := range 4 {
		if i*4+k >= n-1 {
			last = true
		}
	}
	if last && n < len(out) {
		out[n] = -1 // want `data race on global out`
	}
}

// A search that breaks out of the loop when it finds the element.
//
//gpu:kernel block=256
func OwnerFoundBreak(t gpu.Thread, out []int32, n int) {
	tx := t.ThreadIdx().X
	owner := false
	for k := 0; k < 8; k++ {
		if tx*8+k == n {
			owner = true
			break
		}
	}
	if owner {
		out[t.BlockIdx().X] = int32(tx)
	}
}

//gpu:kernel block=256
func OwnerFoundBreakRacy(t gpu.Thread, out []int32, n int) {
	tx := t.ThreadIdx().X
	owner := false
	for k := 0; k <= 8; k++ {
		if tx*8+k == n {
			owner = true
			break
		}
	}
	if owner {
		out[t.BlockIdx().X] = int32(tx) // want `data race on global out`
	}
}

// The flag is reset at the top of each iteration and set for a window
// that shrinks by one each iteration (Rodinia pathfinder's and hotspot's
// pyramid): after the loop it is the last iteration's, tx in [iters,
// 255-iters], so blocks that overlap by iters on each side write disjoint
// cells.
//
//gpu:kernel block=256
func LastIterationWindow(t gpu.Thread, out []float32, iters int) {
	buf := gpu.Shared[[256]float32](t)
	tx := t.ThreadIdx().X
	x := t.BlockIdx().X*(256-2*iters) - iters + tx
	ok := false
	for it := 0; it < iters; it++ {
		ok = false
		if tx >= it+1 && tx <= 254-it {
			ok = true
			buf[tx] += 1
		}
		t.Barrier()
	}
	if ok && x >= 0 && x < len(out) {
		out[x] = buf[tx]
	}
}

// Without the reset, a thread that left the window in a later iteration
// keeps the flag of an earlier one.
//
//gpu:kernel block=256
func LastIterationWindowRacy(t gpu.Thread, out []float32, iters int) {
	buf := gpu.Shared[[256]float32](t)
	tx := t.ThreadIdx().X
	x := t.BlockIdx().X*(256-2*iters) - iters + tx
	ok := false
	for it := 0; it < iters; it++ {
		if tx >= it+1 && tx <= 254-it {
			ok = true
			buf[tx] += 1
		}
		t.Barrier()
	}
	if ok && x >= 0 && x < len(out) {
		out[x] = buf[tx] // want `data race on global out`
	}
}

// Nested loops: thread tx holds rows 2tx and 2tx+1 of four elements.
//
//gpu:kernel block=256
func NestedLoopsFlag(t gpu.Thread, out []float32, n int) {
	tx := t.ThreadIdx().X
	hit := false
	for r := 0; r < 2; r++ {
		for k := 0; k < 4; k++ {
			if (tx*2+r)*4+k == n {
				hit = true
			}
		}
	}
	if hit {
		out[t.BlockIdx().X] = 1
	}
}

//gpu:kernel block=256
func NestedLoopsFlagRacy(t gpu.Thread, out []float32, n int) {
	tx := t.ThreadIdx().X
	hit := false
	for r := 0; r < 2; r++ {
		for k := 0; k < 5; k++ {
			if (tx*2+r)*4+k == n {
				hit = true
			}
		}
	}
	if hit {
		out[t.BlockIdx().X] = 1 // want `data race on global out`
	}
}

// A flag negated in each iteration is true after an odd number of them,
// for every thread.
//
//gpu:kernel block=256
func ToggledFlagRacy(t gpu.Thread, out []float32, n int) {
	odd := false
	for k := 0; k < n; k++ {
		odd = !odd
	}
	if odd {
		out[0] = 1 // want `data race on global out`
	}
}

// A flag set in the first iteration only and carried through the others:
// every thread has it after the loop, though the last iteration did not
// set it.
//
//gpu:kernel block=256
func FlagSetFirstIterationRacy(t gpu.Thread, out []float32) {
	first := false
	for k := 0; k < 4; k++ {
		if k == 0 {
			first = true
		}
	}
	if first {
		out[0] = 1 // want `data race on global out`
	}
}

// The flag is reset in every iteration but the last one sets it for
// every thread.
//
//gpu:kernel block=256
func FlagLastIterationAllRacy(t gpu.Thread, out []float32, n int) {
	tx := t.ThreadIdx().X
	last := false
	for k := 0; k < n; k++ {
		last = false
		if k == n-1 || tx == k {
			last = true
		}
	}
	if last {
		out[0] = 1 // want `data race on global out`
	}
}
