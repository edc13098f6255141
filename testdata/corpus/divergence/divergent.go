package divergence

import "github.com/gpukvet/gpukvet/gpu"

// BarrierInThreadIf waits only in the threads below n (GPUVerify:
// barrier in a thread-dependent conditional).
//
// verdict: divergent
// launch: block=64 grid=1 n=40
//
//gpu:kernel grid=1
func BarrierInThreadIf(t gpu.Thread, n int, data []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	if tid < n {
		s[tid] = data[tid]
		t.Barrier()
		data[tid] = s[(tid+1)%n]
	}
}

// EarlyReturnBeforeBarrier is the classic bounds guard that returns before
// a barrier: the last block has threads past n.
//
// verdict: divergent
// launch: block=64 grid=2 n=100
//
//gpu:kernel
func EarlyReturnBeforeBarrier(t gpu.Thread, n int, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	if i >= n {
		return
	}
	s[tid] = in[i]
	t.Barrier()
	out[i] = s[(tid+1)%t.BlockDim().X]
}

// ThreadTripCount runs a loop with a barrier a thread-dependent number of
// times.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func ThreadTripCount(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	for k := 0; k < tid%4; k++ {
		data[tid] += 1
		t.Barrier()
	}
}

// SwitchOnThread waits in one case of a switch on the thread index.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func SwitchOnThread(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	switch tid % 4 {
	case 0:
		data[tid] = 0
		t.Barrier()
	case 1:
		data[tid] = 1
	default:
		data[tid] = 2
	}
}

// DataDependentBreak leaves a loop on a thread-dependent value; the barrier
// after the break is then skipped by the threads that left.
//
// verdict: divergent
// launch: block=64 grid=1 n=10
//
//gpu:kernel grid=1
func DataDependentBreak(t gpu.Thread, n int, in []float32) {
	tid := t.ThreadIdx().X
	for k := 0; k < n; k++ {
		if in[tid] < float32(k) {
			break
		}
		t.Barrier()
	}
}

// OddThreadsContinue skips the barrier in the even threads.
//
// verdict: divergent
// launch: block=64 grid=1 n=4
//
//gpu:kernel grid=1
func OddThreadsContinue(t gpu.Thread, n int, data []float32) {
	tid := t.ThreadIdx().X
	for k := 0; k < n; k++ {
		if tid%2 == 0 {
			continue
		}
		data[tid] += float32(k)
		t.Barrier()
	}
}

// DeviceBarrierUnderIf calls a device function that waits, from thread 0
// only.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DeviceBarrierUnderIf(t gpu.Thread, data []float32) {
	if t.ThreadIdx().X == 0 {
		data[0] = 1
		syncAll(t)
	}
}

// DeviceBarrierDivergentArgument passes a thread-dependent flag to a device
// function that waits only when the flag is set.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DeviceBarrierDivergentArgument(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	data[tid] = 1
	syncIf(t, tid < 10)
}

// ShortCircuitAnd: the second operand of && is thread-dependent.
//
// verdict: divergent
// launch: block=64 grid=1 n=3
//
//gpu:kernel grid=1
func ShortCircuitAnd(t gpu.Thread, n int, data []float32) {
	if n > 0 && t.ThreadIdx().X < 16 {
		t.Barrier()
	}
	data[t.ThreadIdx().X] = 1
}

// ShortCircuitOr: the first operand of || is thread-dependent.
//
// verdict: divergent
// launch: block=64 grid=1 n=3
//
//gpu:kernel grid=1
func ShortCircuitOr(t gpu.Thread, n int, data []float32) {
	if t.ThreadIdx().X == 0 || n < 0 {
		t.Barrier()
	}
}

// AtomicTicket waits only in the first eight threads to take a ticket.
//
// verdict: divergent
// launch: block=64 grid=1 fill=zero
//
//gpu:kernel grid=1
func AtomicTicket(t gpu.Thread, counter []int32, data []float32) {
	if gpu.AtomicAdd(&counter[0], 1) < 8 {
		t.Barrier()
	}
}

// SharedValueAtOwnSlot waits on a value that each thread loaded from its own
// slot of shared memory: the values differ.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func SharedValueAtOwnSlot(t gpu.Thread, in []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[tid]
	t.Barrier()
	if s[tid] > 10 {
		t.Barrier()
	}
}

// TemporalDivergence: threads leave the search loop at different
// iterations, so k after the loop differs between them.
//
// verdict: divergent
// launch: block=64 grid=1 n=8
//
//gpu:kernel grid=1
func TemporalDivergence(t gpu.Thread, n int, in []float32) {
	k := 0
	for ; k < n; k++ {
		if in[t.ThreadIdx().X] < float32(k) {
			break
		}
	}
	if k == n {
		t.Barrier()
	}
}

// PanicBeforeBarrier traps in the threads past n before the barrier.
//
// verdict: divergent
// launch: block=64 grid=1 n=32 expect=trap
//
//gpu:kernel grid=1
func PanicBeforeBarrier(t gpu.Thread, n int, data []float32) {
	if t.ThreadIdx().X >= n {
		panic("more threads than elements")
	}
	t.Barrier()
}

// BarriersInBothArms waits at one barrier in the low half of the block and
// at another in the high half: they are different barriers.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func BarriersInBothArms(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	if tid < 32 {
		data[tid] = 1
		t.Barrier()
	} else {
		data[tid] = 2
		t.Barrier()
	}
}

// InputTripCount loops a number of times read from the thread's input.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func InputTripCount(t gpu.Thread, counts []int32, data []float32) {
	gid := t.GlobalIdx().X
	for k := int32(0); k < counts[gid]%4; k++ {
		data[gid] += 1
		t.Barrier()
	}
}

// IfInUniformLoop: the loop is uniform, the barrier sits under a
// thread-dependent if inside it.
//
// verdict: divergent
// launch: block=64 grid=1 n=4
//
//gpu:kernel grid=1
func IfInUniformLoop(t gpu.Thread, n int, data []float32) {
	tid := t.ThreadIdx().X
	for k := 0; k < n; k++ {
		if tid < k {
			t.Barrier()
		}
	}
}

// ReturnInsideLoop: one thread per iteration returns, the others wait.
//
// verdict: divergent
// launch: block=64 grid=1 n=4
//
//gpu:kernel grid=1
func ReturnInsideLoop(t gpu.Thread, n int, data []float32) {
	tid := t.ThreadIdx().X
	for k := 0; k < n; k++ {
		if tid == k {
			return
		}
		t.Barrier()
	}
}

// DeviceEarlyReturnArgument passes the global index to a device function
// that returns early for indexes past n before its barrier.
//
// verdict: divergent
// launch: block=64 grid=2 n=100
//
//gpu:kernel
func DeviceEarlyReturnArgument(t gpu.Thread, n int, data []float32) {
	guarded(t, t.GlobalIdx().X, n)
}

// WarpLeaders waits in the first thread of each warp only.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func WarpLeaders(t gpu.Thread, data []float32) {
	if lane(t) == 0 {
		data[t.ThreadIdx().X] = 1
		t.Barrier()
	}
}

// RowCondition2D waits in the rows of a 2-D block below n.
//
// verdict: divergent
// launch: block=8,8 grid=1 n=3
//
//gpu:kernel block=8,8
func RowCondition2D(t gpu.Thread, n int, data []float32) {
	if t.ThreadIdx().Y < n {
		data[t.ThreadIdx().Y*8+t.ThreadIdx().X] = 1
		t.Barrier()
	}
}

// LocalFlag records a thread-dependent decision in a local array and waits
// on it later.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func LocalFlag(t gpu.Thread, data []float32) {
	var flags [4]int
	if t.ThreadIdx().X%2 == 0 {
		flags[0] = 1
	}
	data[t.ThreadIdx().X] = float32(flags[1])
	if flags[0] == 1 {
		t.Barrier()
	}
}

// MinTripCount bounds a loop by min of the thread index and a parameter.
//
// verdict: divergent
// launch: block=64 grid=1 n=8
//
//gpu:kernel grid=1
func MinTripCount(t gpu.Thread, n int, data []float32) {
	lim := min(t.ThreadIdx().X, n)
	for k := 0; k < lim; k++ {
		t.Barrier()
	}
}

// HalvingWhile halves a thread-dependent value until it reaches zero,
// waiting each time.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func HalvingWhile(t gpu.Thread, data []float32) {
	x := t.ThreadIdx().X
	for x > 0 {
		x /= 2
		t.Barrier()
	}
}

// CompareAndSwapLeader elects a leader with a compare-and-swap and waits
// in the leader only.
//
// verdict: divergent
// launch: block=64 grid=1 fill=zero
//
//gpu:kernel grid=1
func CompareAndSwapLeader(t gpu.Thread, lock []int32, data []float32) {
	if gpu.AtomicCompareAndSwap(&lock[0], 0, 1) == 0 {
		data[0] = 1
		t.Barrier()
	}
}

// StagedThenDivergent stages a tile through a device function (all threads
// wait there), then waits again only where the staged value is large.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func StagedThenDivergent(t gpu.Thread, in []float32) {
	s := gpu.Shared[[256]float32](t)
	stage(t, s, in, 0)
	if s[t.ThreadIdx().X] > 31 {
		t.Barrier()
	}
}

// DeviceLeaderSync calls, from every thread, a device function whose own
// barrier only thread 0 reaches.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DeviceLeaderSync(t gpu.Thread, data []float32) {
	data[t.ThreadIdx().X] = 1
	leaderSync(t)
}

// ElseReturn returns in the else arm of a thread-dependent if.
//
// verdict: divergent
// launch: block=64 grid=1 n=20
//
//gpu:kernel grid=1
func ElseReturn(t gpu.Thread, n int, data []float32) {
	tid := t.ThreadIdx().X
	if tid < n {
		data[tid] = 1
	} else {
		return
	}
	t.Barrier()
}
