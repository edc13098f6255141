package edge

import "github.com/gpukvet/gpukvet/gpu"

func syncGeneric[T int32 | float32](t gpu.Thread, x T) T {
	t.Barrier()
	return x
}

//gpu:kernel
func GenericUnderIf(t gpu.Thread, a []float32) {
	if t.ThreadIdx().X < 3 {
		a[0] = syncGeneric(t, a[0]) // want "call of syncGeneric, which reaches a barrier, may be reached by only some threads"
	}
	a[1] = syncGeneric(t, a[1])
}

type tile struct{ n int }

func (c tile) sync(t gpu.Thread) {
	if c.n > 0 {
		t.Barrier()
	}
}

//gpu:kernel
func Method(t gpu.Thread, n int) {
	tile{n}.sync(t)
	tile{t.ThreadIdx().X}.sync(t) // want "whether sync reaches its barrier depends on its receiver"
}

//gpu:kernel
func LabeledContinue(t gpu.Thread, n int) {
outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if t.ThreadIdx().X == j {
				continue outer
			}
		}
		t.Barrier() // want "threads skip the rest of the loop \\(continue\\)"
	}
}

//gpu:kernel
func EndlessWithBreak(t gpu.Thread, a []float32) {
	for {
		t.Barrier() // want "threads leave the loop early \\(break\\)"
		if a[t.ThreadIdx().X] > 3 {
			break
		}
	}
}

//gpu:kernel
func EndlessUniform(t gpu.Thread, n int) {
	k := 0
	for {
		t.Barrier()
		k++
		if k > n {
			break
		}
	}
}

// Recursion is memspace's to report; here it must not crash or hang.
func rec(t gpu.Thread, n int) {
	if n > 0 {
		rec(t, n-1)
	}
	t.Barrier()
}

//gpu:kernel
func Recursive(t gpu.Thread, n int) {
	rec(t, n)
}

//gpu:kernel
func Goto(t gpu.Thread, n int) {
	i := 0
loop:
	if i < t.ThreadIdx().X {
		i++
		t.Barrier() // want "barrier may be reached by only some threads"
		goto loop
	}
}

//gpu:kernel
func NoBody(t gpu.Thread)

//gpu:kernel
func Unreachable(t gpu.Thread, n int) {
	return
	t.Barrier()
}

const debugSync, traceSync = false, true

// DeadDebugBarrier: the barrier sits under a constant-false condition and
// never runs.
//
//gpu:kernel
func DeadDebugBarrier(t gpu.Thread) {
	if debugSync && t.ThreadIdx().X == 0 {
		t.Barrier()
	}
}

// LiveTraceBarrier: under a constant-true flag the thread condition decides.
//
//gpu:kernel
func LiveTraceBarrier(t gpu.Thread) {
	if traceSync && t.ThreadIdx().X == 0 {
		t.Barrier() // want "barrier may be reached by only some threads of the block"
	}
}
