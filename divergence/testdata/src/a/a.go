package a

import (
	"dep"

	"github.com/gpukvet/gpukvet/gpu"
)

// ---- barriers that only some threads reach ----

//gpu:kernel
func UnderIf(t gpu.Thread, n int, a []float32) {
	tid := t.ThreadIdx().X
	if tid < n {
		t.Barrier() // want "barrier may be reached by only some threads of the block: it is under the condition `tid < n` \\(line 14\\), which depends on ThreadIdx at line 13"
	}
}

//gpu:kernel
func EarlyReturn(t gpu.Thread, n int, a []float32) {
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	a[i] = 1
	t.Barrier() // want "some threads return \\(or panic\\) before it, on the condition `i >= n` \\(line 22\\), which depends on GlobalIdx at line 21"
}

//gpu:kernel
func EarlyPanic(t gpu.Thread, n int, a []float32) {
	if t.ThreadIdx().X > n {
		panic("too many threads")
	}
	t.Barrier() // want "some threads return \\(or panic\\) before it"
}

//gpu:kernel
func TripCount(t gpu.Thread, a []float32) {
	for k := 0; k < t.ThreadIdx().X; k++ {
		a[k] += 1
		t.Barrier() // want "it is in a loop whose trip count differs between threads: the loop condition `k < t.ThreadIdx\\(\\).X` \\(line 39\\) depends on ThreadIdx at line 39"
	}
}

//gpu:kernel
func Switch(t gpu.Thread, a []float32) {
	switch t.ThreadIdx().X {
	case 0:
		a[0] = 1
		t.Barrier() // want "under the condition `t.ThreadIdx\\(\\).X == 0` \\(a switch case\\)"
	default:
		a[1] = 1
	}
}

//gpu:kernel
func Break(t gpu.Thread, n int, a []float32) {
	for k := 0; k < n; k++ {
		if a[t.ThreadIdx().X] > float32(k) {
			break
		}
		t.Barrier() // want "threads leave the loop early \\(break\\) on the condition `a\\[t.ThreadIdx\\(\\).X\\] > float32\\(k\\)`"
	}
}

//gpu:kernel
func Continue(t gpu.Thread, n int, a []float32) {
	for k := 0; k < n; k++ {
		if t.ThreadIdx().X%2 == 1 {
			continue
		}
		t.Barrier() // want "threads skip the rest of the loop \\(continue\\) on the condition"
	}
}

//gpu:kernel
func ShortCircuit(t gpu.Thread, n int, a []float32) {
	if n > 0 && t.ThreadIdx().X < 32 {
		t.Barrier() // want "under the condition `t.ThreadIdx\\(\\).X < 32`"
	}
}

//gpu:kernel
func Atomic(t gpu.Thread, counter []int32, a []float32) {
	if gpu.AtomicAdd(&counter[0], 1) == 0 {
		t.Barrier() // want "which depends on the result of AtomicAdd at line 85"
	}
}

//gpu:kernel
func SharedLoad(t gpu.Thread, in []float32) {
	s := gpu.Shared[[256]float32](t)
	s[t.ThreadIdx().X] = in[t.GlobalIdx().X]
	if s[0] > 0 {
		t.Barrier() // want "depends on memory that threads write differently"
	}
}

//gpu:kernel
func Temporal(t gpu.Thread, n int, a []float32) {
	k := 0
	for ; k < n; k++ {
		if a[t.GlobalIdx().X] < float32(k) {
			break
		}
	}
	if k == n {
		t.Barrier() // want "under the condition `k == n` \\(line 107\\), which depends on a value carried out of a loop that threads leave at different iterations at line 103, which depends on GlobalIdx at line 103"
	}
}

func sync(t gpu.Thread) {
	t.Barrier()
}

func syncIf(t gpu.Thread, ok bool) {
	if ok {
		t.Barrier()
	}
}

//gpu:kernel
func DeviceUnderIf(t gpu.Thread, n int) {
	if t.ThreadIdx().X < n {
		sync(t) // want "call of sync, which reaches a barrier, may be reached by only some threads of the block: it is under the condition `t.ThreadIdx\\(\\).X < n`"
	}
}

//gpu:kernel
func DeviceArgument(t gpu.Thread, n int) {
	syncIf(t, t.ThreadIdx().X < n) // want "call of syncIf, which reaches a barrier, may be reached by only some threads of the block: whether syncIf reaches its barrier depends on its argument ok, which depends on ThreadIdx at line 131"
}

//gpu:kernel
func CrossPackage(t gpu.Thread, n int) {
	dep.SyncIf(t, t.ThreadIdx().X < n) // want "whether SyncIf reaches its barrier depends on its argument ok"
	if dep.Lane(t) == 0 {
		dep.Sync(t) // want "call of Sync, which reaches a barrier, may be reached by only some threads of the block: it is under the condition `dep.Lane\\(t\\) == 0` \\(line 137\\), which depends on ThreadIdx \\(line \\d+\\) in dep.Lane at line 137"
	}
}

// A divergent barrier inside a device function is reported there.
func inner(t gpu.Thread) {
	if t.ThreadIdx().X == 0 {
		t.Barrier() // want "under the condition `t.ThreadIdx\\(\\).X == 0`"
	}
}

//gpu:kernel
func CallsInner(t gpu.Thread) {
	inner(t)
}

// ---- silent twins: every thread reaches every barrier ----

//gpu:kernel
func UniformIf(t gpu.Thread, n int, a []float32) {
	if n > 0 || t.BlockIdx().X == 1 || t.BlockDim().X > 32 || t.GridDim().X > len(a) {
		t.Barrier()
	}
}

//gpu:kernel
func TreeReduction(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for stride := t.BlockDim().X / 2; stride > 0; stride >>= 1 {
		if tid < stride {
			s[tid] += s[tid+stride]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = s[0]
	}
}

//gpu:kernel
func Rejoin(t gpu.Thread, n int, a []float32) {
	i := t.GlobalIdx().X
	if i < n {
		a[i] *= 2
	}
	t.Barrier()
	if i < n {
		a[i] += 1
	}
}

//gpu:kernel
func UniformReturn(t gpu.Thread, n int, a []float32) {
	if n == 0 || t.BlockIdx().X >= n {
		return
	}
	t.Barrier()
}

//gpu:kernel
func UniformLoopDivergentIf(t gpu.Thread, n int, a []float32) {
	for k := 0; k < n; k++ {
		if t.ThreadIdx().X == k {
			a[k] = 1
		}
		t.Barrier()
	}
}

//gpu:kernel
func BroadcastThroughShared(t gpu.Thread, counts []int32) {
	s := gpu.Shared[[1]int32](t)
	if t.ThreadIdx().X == 0 {
		s[0] = counts[t.BlockIdx().X]
	}
	t.Barrier()
	for k := int32(0); k < s[0]; k++ {
		t.Barrier()
	}
}

//gpu:kernel block=128
func FlatY(t gpu.Thread, a []float32) {
	if t.ThreadIdx().Y == 0 {
		t.Barrier()
	}
}

//gpu:kernel
func DeviceUniform(t gpu.Thread, n int) {
	sync(t)
	syncIf(t, n > 0)
	dep.SyncIf(t, t.BlockIdx().X > 2)
}
