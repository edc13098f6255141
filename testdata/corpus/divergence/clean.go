package divergence

import "github.com/gpukvet/gpukvet/gpu"

// TreeReduction halves the active threads each step; the barrier is outside
// the thread-dependent if, in a loop bounded by BlockDim.
//
// verdict: clean
// launch: block=64 grid=2
//
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

// GuardAroundWork is the corrected early return: the work is guarded, the
// barriers are not.
//
// verdict: clean
// launch: block=64 grid=2 n=100
//
//gpu:kernel
func GuardAroundWork(t gpu.Thread, n int, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	if i < n {
		s[tid] = in[i]
	}
	t.Barrier()
	if i < n {
		out[i] = s[(tid+1)%t.BlockDim().X]
	}
}

// WholeBlockReturns returns early on a condition of the block index only:
// whole blocks leave together.
//
// verdict: clean
// launch: block=64 grid=2 nblocks=1
//
//gpu:kernel
func WholeBlockReturns(t gpu.Thread, nblocks int, data []float32) {
	if t.BlockIdx().X >= nblocks {
		return
	}
	data[t.GlobalIdx().X] = 1
	t.Barrier()
}

// RotatingWriter lets one thread per iteration write; the barrier after the
// if is reached by all.
//
// verdict: clean
// launch: block=64 grid=1 n=8
//
//gpu:kernel grid=1
func RotatingWriter(t gpu.Thread, n int, data []float32) {
	tid := t.ThreadIdx().X
	for k := 0; k < n; k++ {
		if tid == k%t.BlockDim().X {
			data[k] += 1
		}
		t.Barrier()
	}
}

// BroadcastCount: thread 0 loads a count into shared memory; after the
// barrier every thread reads the same count and loops that often.
//
// verdict: clean
// launch: block=64 grid=2
//
//gpu:kernel
func BroadcastCount(t gpu.Thread, counts []int32, data []float32) {
	s := gpu.Shared[[1]int32](t)
	if t.ThreadIdx().X == 0 {
		s[0] = counts[t.BlockIdx().X] % 4
	}
	t.Barrier()
	for k := int32(0); k < s[0]; k++ {
		data[t.GlobalIdx().X] += 1
		t.Barrier()
	}
}

// HillisSteeleScan is an inclusive scan with a thread-dependent read
// guarded between two barriers per step.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func HillisSteeleScan(t gpu.Thread, data []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = data[tid]
	t.Barrier()
	for off := 1; off < t.BlockDim().X; off *= 2 {
		var v float32
		if tid >= off {
			v = s[tid-off]
		}
		t.Barrier()
		if tid >= off {
			s[tid] += v
		}
		t.Barrier()
	}
	data[tid] = s[tid]
}

// TiledDot walks tiles of a uniform count with two barriers per tile.
//
// verdict: clean
// launch: block=64 grid=1 n=256
//
//gpu:kernel grid=1
func TiledDot(t gpu.Thread, n int, a, b, out []float32) {
	ta := gpu.Shared[[64]float32](t)
	tb := gpu.Shared[[64]float32](t)
	tid := t.ThreadIdx().X
	bd := t.BlockDim().X
	var acc float32
	for base := 0; base < n; base += bd {
		ta[tid] = a[base+tid]
		tb[tid] = b[base+tid]
		t.Barrier()
		for k := 0; k < bd; k++ {
			acc += ta[k] * tb[(k+tid)%bd]
		}
		t.Barrier()
	}
	out[tid] = acc
}

// IfElseRejoins assigns in both arms of a thread-dependent if; they meet
// before the barrier.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func IfElseRejoins(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	var v float32
	if tid%2 == 0 {
		v = data[tid] * 2
	} else {
		v = data[tid] + 1
	}
	t.Barrier()
	data[tid] = v
}

// BlockDimCondition waits under a condition on the block's extent.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func BlockDimCondition(t gpu.Thread, data []float32) {
	if t.BlockDim().X >= 64 {
		data[t.ThreadIdx().X] = 1
		t.Barrier()
	}
}

// FlatBlockY reads the Y index of a kernel whose block= fixes Y to 1: the
// global Y index is the block's, the same for all threads of the block.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel block=64 grid=1
func FlatBlockY(t gpu.Thread, data []float32) {
	if t.GlobalIdx().Y == 0 {
		data[t.ThreadIdx().X] = 1
		t.Barrier()
	}
}

// DeviceBarriersUniform calls waiting device functions unconditionally and
// with uniform arguments.
//
// verdict: clean
// launch: block=64 grid=2 n=3
//
//gpu:kernel
func DeviceBarriersUniform(t gpu.Thread, n int, data []float32) {
	syncAll(t)
	syncIf(t, n > 0)
	guarded(t, t.BlockIdx().X, n)
	data[t.GlobalIdx().X] = 1
}

// UniformDeviceResult waits under a condition on a device function's
// result that depends only on the block size and a parameter.
//
// verdict: clean
// launch: block=64 grid=1 n=1000
//
//gpu:kernel grid=1
func UniformDeviceResult(t gpu.Thread, n int, data []float32) {
	if blocksFor(t, n) > 2 {
		t.Barrier()
	}
	data[t.ThreadIdx().X] = 1
}

// ExchangeNeighbours computes thread-dependent values but never branches
// on them.
//
// verdict: clean
// launch: block=64 grid=2
//
//gpu:kernel
func ExchangeNeighbours(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	s[tid] = in[gid] * 2
	t.Barrier()
	out[gid] = s[(tid+1)%t.BlockDim().X]
}

// UniformBreak leaves an endless loop on a parameter condition.
//
// verdict: clean
// launch: block=64 grid=1 n=5
//
//gpu:kernel grid=1
func UniformBreak(t gpu.Thread, n int, data []float32) {
	for k := 0; ; k++ {
		if k >= n {
			break
		}
		data[t.ThreadIdx().X] += 1
		t.Barrier()
	}
}

// ModeSwitch waits a mode-dependent number of times: the mode is a
// parameter.
//
// verdict: clean
// launch: block=64 grid=1 mode=1
//
//gpu:kernel grid=1
func ModeSwitch(t gpu.Thread, mode int, data []float32) {
	switch mode {
	case 0:
		t.Barrier()
	case 1:
		t.Barrier()
		t.Barrier()
	}
	data[t.ThreadIdx().X] = float32(mode)
}

// SharedHistogram counts with shared atomics between barriers; the atomics'
// results are not used.
//
// verdict: clean
// launch: block=64 grid=2
//
//gpu:kernel
func SharedHistogram(t gpu.Thread, in []int32, out []int32) {
	hist := gpu.Shared[[64]int32](t)
	tid := t.ThreadIdx().X
	hist[tid] = 0
	t.Barrier()
	gpu.AtomicAdd(&hist[in[t.GlobalIdx().X]%64], 1)
	t.Barrier()
	gpu.AtomicAdd(&out[tid], hist[tid])
}

// TotalAfterBarrier: every thread writes its own slot, then, after a
// barrier, all read slot 0 and loop on it.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func TotalAfterBarrier(t gpu.Thread, in []float32, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[tid]
	t.Barrier()
	total := int(s[3])
	for k := 0; k < total; k++ {
		t.Barrier()
	}
	out[tid] = float32(total)
}

// UniformContinue skips odd iterations for all threads alike.
//
// verdict: clean
// launch: block=64 grid=1 n=6
//
//gpu:kernel grid=1
func UniformContinue(t gpu.Thread, n int, data []float32) {
	for k := 0; k < n; k++ {
		if k%2 == 1 {
			continue
		}
		data[t.ThreadIdx().X] += 1
		t.Barrier()
	}
}

// NestedUniformLoops waits in an inner loop bounded by parameters.
//
// verdict: clean
// launch: block=64 grid=1 n=3 m=2
//
//gpu:kernel grid=1
func NestedUniformLoops(t gpu.Thread, n, m int, data []float32) {
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			data[t.ThreadIdx().X] += float32(i * j)
			t.Barrier()
		}
	}
}

// ReturnAfterLastBarrier returns early only after the last barrier.
//
// verdict: clean
// launch: block=64 grid=2 n=100
//
//gpu:kernel
func ReturnAfterLastBarrier(t gpu.Thread, n int, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	out[i] = s[(tid+1)%t.BlockDim().X]
}

// DivergentLoopThenBarrier runs a thread-dependent loop with no barrier in
// it, then waits once.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func DivergentLoopThenBarrier(t gpu.Thread, data []float32) {
	tid := t.ThreadIdx().X
	var acc float32
	for k := 0; k < tid; k++ {
		acc += data[k]
	}
	t.Barrier()
	data[tid] = acc
}

// InterleavedReduction uses the modulo test of the first CUDA reduction:
// thread-dependent work, uniform barriers.
//
// verdict: clean
// launch: block=64 grid=1
//
//gpu:kernel grid=1
func InterleavedReduction(t gpu.Thread, data []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	s[tid] = data[tid]
	t.Barrier()
	for st := 1; st < t.BlockDim().X; st *= 2 {
		if tid%(2*st) == 0 {
			s[tid] += s[tid+st]
		}
		t.Barrier()
	}
	if tid == 0 {
		data[0] = s[0]
	}
}

// MinOfUniforms bounds a loop by min of a parameter and the block size.
//
// verdict: clean
// launch: block=64 grid=1 n=5
//
//gpu:kernel grid=1
func MinOfUniforms(t gpu.Thread, n int, data []float32) {
	lim := min(n, t.BlockDim().X)
	for k := 0; k < lim; k++ {
		t.Barrier()
	}
	data[t.ThreadIdx().X] = float32(lim)
}

// StageTiles stages tiles through a device function that waits, in a loop
// over a uniform count.
//
// verdict: clean
// launch: block=64 grid=1 n=4
//
//gpu:kernel grid=1
func StageTiles(t gpu.Thread, n int, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	var acc float32
	for k := 0; k < n; k++ {
		stage(t, s, in, k*t.BlockDim().X)
		acc += s[(tid+1)%t.BlockDim().X]
		t.Barrier()
	}
	out[tid] = acc
}

// Transpose2D is the padded-tile transpose of a 16×16 block: 2-D indices,
// one unconditional barrier.
//
// verdict: clean
// launch: block=16,16 grid=1 width=16
//
//gpu:kernel block=16,16 grid=1
func Transpose2D(t gpu.Thread, width int, in, out []float32) {
	tile := gpu.Shared[[16][17]float32](t)
	x, y := t.ThreadIdx().X, t.ThreadIdx().Y
	tile[y][x] = in[y*width+x]
	t.Barrier()
	out[x*16+y] = tile[x][y]
}

// DeviceBoundLoop loops as many times as a uniform device function says.
//
// verdict: clean
// launch: block=64 grid=1 n=200
//
//gpu:kernel grid=1
func DeviceBoundLoop(t gpu.Thread, n int, data []float32) {
	for k := 0; k < blocksFor(t, n); k++ {
		data[t.ThreadIdx().X] += 1
		t.Barrier()
	}
}
