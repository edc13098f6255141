package divergence

// Held-out kernels: translations of GPUVerify-style barrier-divergence tests
// written without reading the analyzer, to measure it on code it was not
// tuned on (see testdata/corpus/HELDOUT.md).

import "github.com/gpukvet/gpukvet/gpu"

// NestedInnerThreadBound: the inner loop of a uniform outer loop runs
// tid%3 times around its barrier.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func NestedInnerThreadBound(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	for i := 0; i < 4; i++ {
		for j := 0; j < tid%3; j++ {
			data[tid] += 1
			t.Barrier()
		}
	}
}

// TriangularUniformLoops: the inner bound depends on the outer counter,
// which every thread shares.
//
// verdict: clean
// launch: block=64 grid=1 n=3 m=5
//
//gpu:kernel grid=1
func TriangularUniformLoops(t gpu.Thread, n, m int, data []float32) {
	tid := t.ThreadIdx().X
	for i := 0; i < n; i++ {
		for j := i; j < m; j++ {
			data[tid] += float32(j)
			t.Barrier()
		}
	}
}

// SwitchOnBlock: the cases differ in their barriers, but the tag is the
// block index.
//
// verdict: clean
// launch: block=32 grid=3
//
//gpu:kernel
func SwitchOnBlock(t gpu.Thread, data []float32) {
	switch t.BlockIdx().X % 3 {
	case 0:
		t.Barrier()
	case 1:
		t.Barrier()
		t.Barrier()
	default:
	}
	data[t.GlobalIdx().X] = 1
}

// SwitchOnHalfBlock waits only in the first half-block's case.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func SwitchOnHalfBlock(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	switch tid / 32 {
	case 0:
		data[tid] = 1
		t.Barrier()
	default:
		data[tid] = 2
	}
}

func syncStep(t gpu.Thread, data []float32, k int) {
	data[t.GlobalIdx().X] += float32(k)
	t.Barrier()
}

// DeviceSyncInUniformLoop calls a barrier-reaching device function in a
// loop bounded by a parameter.
//
// verdict: clean
// launch: block=64 grid=2 n=4
//
//gpu:kernel
func DeviceSyncInUniformLoop(t gpu.Thread, n int, data []float32) {
	for k := 0; k < n; k++ {
		syncStep(t, data, k)
	}
}

// DeviceSyncUnderBoundsGuard calls it under a global-index bounds guard.
//
// verdict: divergent
// launch: block=64 grid=2 n=100
//
//gpu:kernel
func DeviceSyncUnderBoundsGuard(t gpu.Thread, n int, data []float32) {
	if t.GlobalIdx().X < n {
		syncStep(t, data, 1)
	}
}

// BreakOnUniformSquare leaves the loop on a condition of the counter and a
// parameter only.
//
// verdict: clean
// launch: block=64 grid=1 n=20
//
//gpu:kernel grid=1
func BreakOnUniformSquare(t gpu.Thread, n int, data []float32) {
	for k := 0; k < 100; k++ {
		if k*k > n {
			break
		}
		data[t.ThreadIdx().X] += 1
		t.Barrier()
	}
}

// BreakOnSharedFlag: thread 0 decides, a barrier publishes the decision, and
// every thread breaks on the same shared value.
//
// verdict: clean
// launch: block=64 grid=1 n=3
//
//gpu:kernel grid=1
func BreakOnSharedFlag(t gpu.Thread, n int, data []float32) {
	flag := gpu.Shared[[1]int32](t)
	tid := t.ThreadIdx().X
	for it := 0; it < 10; it++ {
		if tid == 0 {
			flag[0] = 0
			if it >= n {
				flag[0] = 1
			}
		}
		t.Barrier()
		if flag[0] != 0 {
			break
		}
		data[tid] += 1
		t.Barrier()
	}
}

// BreakOnOwnElement breaks out of an inner loop on the thread's own input.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func BreakOnOwnElement(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	for i := 0; i < 2; i++ {
		for j := 0; j < 4; j++ {
			if data[tid] < float32(j) {
				break
			}
			t.Barrier()
		}
	}
}

// ReturnOnBlock: whole blocks return early; a block's threads agree.
//
// verdict: clean
// launch: block=32 grid=4 n=2
//
//gpu:kernel
func ReturnOnBlock(t gpu.Thread, n int, data []float32) {
	if t.BlockIdx().X >= n {
		return
	}
	data[t.GlobalIdx().X] = 1
	t.Barrier()
	data[t.GlobalIdx().X] += 1
}

// ReturnInLoopAfterBarrier: threads leave one by one between barriers.
//
// verdict: divergent
// launch: block=64 grid=1 n=62
//
//gpu:kernel grid=1
func ReturnInLoopAfterBarrier(t gpu.Thread, n int, data []float32) {
	for k := 0; k < 4; k++ {
		t.Barrier()
		if t.GlobalIdx().X+k >= n {
			return
		}
		data[t.GlobalIdx().X] += 1
	}
}

// BlockDimHalving is the tree-reduction loop bounded by BlockDim.
//
// verdict: clean
// launch: block=64 grid=2
//
//gpu:kernel
func BlockDimHalving(t gpu.Thread, data []float32) {
	s := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = data[t.GlobalIdx().X]
	t.Barrier()
	for h := t.BlockDim().X / 2; h > 0; h >>= 1 {
		if tid < h {
			s[tid] += s[tid+h]
		}
		t.Barrier()
	}
	if tid == 0 {
		data[t.GlobalIdx().X] = s[0]
	}
}

// BarrierFirstWhile waits first and tests a per-thread countdown after.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func BarrierFirstWhile(t gpu.Thread, data []float32) {
	x := t.ThreadIdx().X%3 + 1
	for {
		t.Barrier()
		data[t.ThreadIdx().X] += 1
		x--
		if x <= 0 {
			break
		}
	}
}

// ModeGuard: a barrier under a condition on an int parameter.
//
// verdict: clean
// launch: block=64 grid=1 mode=1
//
//gpu:kernel grid=1
func ModeGuard(t gpu.Thread, mode int, data []float32) {
	data[t.ThreadIdx().X] = 1
	if mode == 1 {
		t.Barrier()
		data[t.ThreadIdx().X] *= 2
	}
}

func repeatSync(t gpu.Thread, count int) {
	for i := 0; i < count; i++ {
		t.Barrier()
	}
}

// DeviceLoopParity passes tid&1 as the trip count of a device function's
// barrier loop.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DeviceLoopParity(t gpu.Thread, data []float32) {
	data[t.ThreadIdx().X] = 1
	repeatSync(t, t.ThreadIdx().X&1)
}

// DeviceLoopUniformCount passes a parameter as the trip count.
//
// verdict: clean
// launch: block=64 grid=1 n=3
//
//gpu:kernel grid=1
func DeviceLoopUniformCount(t gpu.Thread, n int, data []float32) {
	data[t.ThreadIdx().X] = 1
	repeatSync(t, n)
}

// WarpBitCondition: bit 5 of tid is the same within a warp but not within
// the block.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func WarpBitCondition(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	if (tid>>5)&1 == 0 {
		data[tid] = 1
		t.Barrier()
	}
}

// ClampedUniformLoop clamps a parameter before looping.
//
// verdict: clean
// launch: block=64 grid=1 n=20
//
//gpu:kernel grid=1
func ClampedUniformLoop(t gpu.Thread, n int, data []float32) {
	lim := n
	if lim > 8 {
		lim = 8
	}
	for k := 0; k < lim; k++ {
		data[t.ThreadIdx().X] += 1
		t.Barrier()
	}
}

// ContinueSkipsBarrier: in iteration k thread k skips the barrier.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func ContinueSkipsBarrier(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	for k := 0; k < 4; k++ {
		if tid == k {
			continue
		}
		data[tid] += 1
		t.Barrier()
	}
}

// GridDimLoop loops over the blocks of the grid, a uniform bound.
//
// verdict: clean
// launch: block=64 grid=2
//
//gpu:kernel
func GridDimLoop(t gpu.Thread, data []float32) {
	for b := 0; b < t.GridDim().X; b++ {
		data[t.GlobalIdx().X] += float32(b)
		t.Barrier()
	}
}

// DivergentFlagThenUniformBarrier: a thread-dependent flag is set in a
// branch, but the barrier after the rejoin does not depend on it.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DivergentFlagThenUniformBarrier(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	ok := false
	if data[tid] > 3 {
		ok = true
	}
	t.Barrier()
	if ok {
		data[tid] = 0
	}
	t.Barrier()
}

// LoopBoundFromOwnElement loops as often as the thread's own element says.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func LoopBoundFromOwnElement(t gpu.Thread, counts []int32, data []float32) {
	tid := t.ThreadIdx().X
	for k := int32(0); k < counts[tid]%3; k++ {
		data[tid] += 1
		t.Barrier()
	}
}

// GridStrideBarrier puts a barrier in a grid-stride loop: threads past the
// last full stride run one iteration fewer.
//
// verdict: divergent
// launch: block=64 grid=1 n=100
//
//gpu:kernel grid=1
func GridStrideBarrier(t gpu.Thread, n int, data []float32) {
	for i := t.GlobalIdx().X; i < n; i += t.GridDim().X * t.BlockDim().X {
		data[i] += 1
		t.Barrier()
	}
}

// TiledStrideBarrier is the correct form: the loop runs over tiles, the
// bounds check guards only the work.
//
// verdict: clean
// launch: block=64 grid=1 n=100
//
//gpu:kernel grid=1
func TiledStrideBarrier(t gpu.Thread, n int, data []float32) {
	s := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	for base := 0; base < n; base += t.BlockDim().X {
		if i := base + tid; i < n {
			s[tid] = data[i]
		}
		t.Barrier()
		if i := base + tid; i < n {
			data[i] = s[(tid+1)%64]
		}
		t.Barrier()
	}
}

// BreakAfterBarrier: threads leave after the loop's barrier on their own
// data, and the ones that stay wait again in the next iteration.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func BreakAfterBarrier(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	for k := 0; k < 4; k++ {
		t.Barrier()
		if data[tid] < float32(k) {
			break
		}
	}
}

func skipNegative(t gpu.Thread, data []float32, x float32) {
	if x < 0 {
		return
	}
	data[t.GlobalIdx().X] = x
}

// DeviceEarlyReturnThenBarrier: a return under a thread-dependent
// condition inside a device function ends only that call; every thread
// reaches the kernel's barrier after it.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DeviceEarlyReturnThenBarrier(t gpu.Thread, data []float32) {
	skipNegative(t, data, data[t.ThreadIdx().X]-8)
	t.Barrier()
	data[t.ThreadIdx().X] += 1
}

// DivergentIncrement: thread 0 advances the loop counter twice per
// iteration.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DivergentIncrement(t gpu.Thread, data []float32) {
	k := 0
	for k < 4 {
		if t.ThreadIdx().X == 0 {
			k++
		}
		k++
		t.Barrier()
	}
	data[t.ThreadIdx().X] = float32(k)
}

// LenGuard: a condition on the length of a slice parameter.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func LenGuard(t gpu.Thread, data []float32) {
	if len(data) > 64 {
		data[t.ThreadIdx().X] = 1
		t.Barrier()
	}
}

// ConfigLoad: the trip count comes from a read-only configuration array
// at a fixed index, the same for every thread.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func ConfigLoad(t gpu.Thread, cfg []int32, data []float32) {
	for k := int32(0); k < cfg[3]; k++ {
		data[t.ThreadIdx().X] += 1
		t.Barrier()
	}
}

const debugSync, traceSync = false, true

// DeadDebugBarrier: a debugging barrier under a constant-false flag never
// runs.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DeadDebugBarrier(t gpu.Thread, data []float32) {
	if debugSync && t.ThreadIdx().X == 0 {
		t.Barrier()
	}
	data[t.ThreadIdx().X] = 1
}

// LiveTraceBarrier: under a constant-true flag the thread condition decides.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func LiveTraceBarrier(t gpu.Thread, data []float32) {
	if traceSync && t.ThreadIdx().X == 0 {
		t.Barrier()
	}
	data[t.ThreadIdx().X] = 1
}

// LocalArrayBound: the trip count goes through a thread-local array that
// holds a parameter.
//
// verdict: clean
// launch: block=64 grid=1 n=3
//
//gpu:kernel grid=1
func LocalArrayBound(t gpu.Thread, n int, data []float32) {
	var arr [4]int
	arr[0] = n
	for k := 0; k < arr[0]; k++ {
		data[t.ThreadIdx().X] += 1
		t.Barrier()
	}
}

// LocalArrayDivergent: every fourth thread zeroes the element that bounds
// the loop.
//
// verdict: divergent
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func LocalArrayDivergent(t gpu.Thread, data []float32) {
	arr := [4]int{1, 2, 3, 4}
	arr[t.ThreadIdx().X%4] = 0
	for k := 0; k < arr[0]; k++ {
		data[t.ThreadIdx().X] += 1
		t.Barrier()
	}
}
