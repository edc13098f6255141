package divergence

// Held-out kernels, fourth set (testdata/corpus/HELDOUT.md, "round 7"):
// hand translations of public kernels the corpus did not cover (the CUDA
// Handbook's shared-memory N-body and its log-step reduction for any block
// size, Rodinia particlefilter's normalize_weights_kernel, moderngpu's
// CTAScan called from a kernel, AMD APP SDK's DCT), each with a near-twin of
// the other verdict, written and scored before any analyzer ran on them.

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
)

// NbodyGridStrideBarrier is the CUDA Handbook's
// ComputeNBodyGravitation_Shared as written: the tile loop and its barriers
// sit inside a grid-stride loop over bodies, so when n is not a multiple of
// the grid's size the threads past n leave while the others wait at the
// tile barriers.
//
// verdict: divergent
// launch: block=64 grid=2 n=100 softeningSquared=0.01 len=512
//
//gpu:kernel block=64
func NbodyGridStrideBarrier(t gpu.Thread, force, posMass []float32, softeningSquared float32, n int) {
	shPosMass := gpu.Shared[[4 * 64]float32](t)
	tx := t.ThreadIdx().X
	for i := t.BlockIdx().X*t.BlockDim().X + tx; i < n; i += t.BlockDim().X * t.GridDim().X {
		var acc [3]float32
		for j := 0; j < n; j += t.BlockDim().X {
			for c := 0; c < 4; c++ {
				shPosMass[4*tx+c] = posMass[4*(j+tx)+c]
			}
			t.Barrier()
			for k := 0; k < t.BlockDim().X; k++ {
				bodyForce(&acc, posMass[4*i:4*i+4], shPosMass[4*k:4*k+4], softeningSquared)
			}
			t.Barrier()
		}
		force[3*i+0] = acc[0]
		force[3*i+1] = acc[1]
		force[3*i+2] = acc[2]
	}
}

// bodyForce is the Handbook's bodyBodyInteraction, accumulated.
func bodyForce(acc *[3]float32, my, body []float32, softeningSquared float32) {
	dx := body[0] - my[0]
	dy := body[1] - my[1]
	dz := body[2] - my[2]
	invDist := 1 / float32(math.Sqrt(float64(dx*dx+dy*dy+dz*dz+softeningSquared)))
	s := body[3] * invDist * invDist * invDist
	acc[0] += dx * s
	acc[1] += dy * s
	acc[2] += dz * s
}

// NbodyUniformTiles: the same N-body with the grid-stride loop run over
// block bases (uniform) and the per-body work guarded inside: every thread
// of a block takes the same iterations and barriers; the tile load pads with
// zero mass past n.
//
// verdict: clean
// launch: block=64 grid=2 n=100 softeningSquared=0.01 len=512
//
//gpu:kernel block=64
func NbodyUniformTiles(t gpu.Thread, force, posMass []float32, softeningSquared float32, n int) {
	shPosMass := gpu.Shared[[4 * 64]float32](t)
	tx := t.ThreadIdx().X
	for base := t.BlockIdx().X * t.BlockDim().X; base < n; base += t.BlockDim().X * t.GridDim().X {
		i := base + tx
		var acc [3]float32
		for j := 0; j < n; j += t.BlockDim().X {
			for c := 0; c < 4; c++ {
				var v float32
				if j+tx < n {
					v = posMass[4*(j+tx)+c]
				}
				shPosMass[4*tx+c] = v
			}
			t.Barrier()
			if i < n {
				for k := 0; k < t.BlockDim().X; k++ {
					bodyForce(&acc, posMass[4*i:4*i+4], shPosMass[4*k:4*k+4], softeningSquared)
				}
			}
			t.Barrier()
		}
		if i < n {
			force[3*i+0] = acc[0]
			force[3*i+1] = acc[1]
			force[3*i+2] = acc[2]
		}
	}
}

// ReduceFoldAnyBlock is the CUDA Handbook's log-step reduction for any
// block size: the fold of the threads above the largest power of two and
// its barrier run only when blockDim is not a power of two, a condition
// every thread of the block evaluates alike (floorPow2 is computed from
// blockDim by a uniform loop).
//
// verdict: clean
// launch: block=200 grid=2 n=400
//
//gpu:kernel
func ReduceFoldAnyBlock(t gpu.Thread, out, in []int32, n int) {
	sPartials := gpu.Shared[[1024]int32](t)
	tid := t.ThreadIdx().X
	var sum int32
	for i := t.BlockIdx().X*t.BlockDim().X + tid; i < n; i += t.BlockDim().X * t.GridDim().X {
		sum += in[i]
	}
	sPartials[tid] = sum
	t.Barrier()
	floorPow2 := t.BlockDim().X
	if floorPow2&(floorPow2-1) != 0 {
		for floorPow2&(floorPow2-1) != 0 {
			floorPow2 &= floorPow2 - 1
		}
		if tid >= floorPow2 {
			sPartials[tid-floorPow2] += sPartials[tid]
		}
		t.Barrier()
	}
	for activeThreads := floorPow2 >> 1; activeThreads != 0; activeThreads >>= 1 {
		if tid < activeThreads {
			sPartials[tid] += sPartials[tid+activeThreads]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sPartials[0]
	}
}

// ReduceFoldBarrierInside: the fold's barrier moved inside `if tid >=
// floorPow2`: only the folding threads reach it.
//
// verdict: divergent
// launch: block=200 grid=2 n=400
//
//gpu:kernel
func ReduceFoldBarrierInside(t gpu.Thread, out, in []int32, n int) {
	sPartials := gpu.Shared[[1024]int32](t)
	tid := t.ThreadIdx().X
	var sum int32
	for i := t.BlockIdx().X*t.BlockDim().X + tid; i < n; i += t.BlockDim().X * t.GridDim().X {
		sum += in[i]
	}
	sPartials[tid] = sum
	t.Barrier()
	floorPow2 := t.BlockDim().X
	if floorPow2&(floorPow2-1) != 0 {
		for floorPow2&(floorPow2-1) != 0 {
			floorPow2 &= floorPow2 - 1
		}
		if tid >= floorPow2 {
			sPartials[tid-floorPow2] += sPartials[tid]
			t.Barrier()
		}
	}
	for activeThreads := floorPow2 >> 1; activeThreads != 0; activeThreads >>= 1 {
		if tid < activeThreads {
			sPartials[tid] += sPartials[tid+activeThreads]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sPartials[0]
	}
}

// ParticleNormalizeGuarded is Rodinia particlefilter's
// normalize_weights_kernel as written (one block here, n particles): every
// step guarded by `i < n` or `i == 0`, the barriers between them outside
// the guards.
//
// verdict: clean
// launch: block=64 grid=1 n=40
//
//gpu:kernel grid=1
func ParticleNormalizeGuarded(t gpu.Thread, weights []float32, n int, partialSums, cdf, u []float32) {
	shared := gpu.Shared[[2]float32](t) // u1, sumWeights
	i := t.BlockDim().X*t.BlockIdx().X + t.ThreadIdx().X
	if t.ThreadIdx().X == 0 {
		shared[1] = partialSums[0] + 1
	}
	t.Barrier()
	if i < n {
		weights[i] = weights[i] / shared[1]
	}
	t.Barrier()
	if i == 0 {
		cdf[0] = weights[0]
		for x := 1; x < n; x++ {
			cdf[x] = weights[x] + cdf[x-1]
		}
		u[0] = 1 / float32(n)
	}
	t.Barrier()
	if t.ThreadIdx().X == 0 {
		shared[0] = u[0]
	}
	t.Barrier()
	if i < n {
		u[i] = shared[0] + float32(i)/float32(n)
	}
}

// ParticleNormalizeEarlyExit: the guards folded into one early return
// `if i >= n { return }` at the top: the threads past n skip the barriers.
//
// verdict: divergent
// launch: block=64 grid=1 n=40
//
//gpu:kernel grid=1
func ParticleNormalizeEarlyExit(t gpu.Thread, weights []float32, n int, partialSums, cdf, u []float32) {
	shared := gpu.Shared[[2]float32](t) // u1, sumWeights
	i := t.BlockDim().X*t.BlockIdx().X + t.ThreadIdx().X
	if i >= n {
		return
	}
	if t.ThreadIdx().X == 0 {
		shared[1] = partialSums[0] + 1
	}
	t.Barrier()
	weights[i] = weights[i] / shared[1]
	t.Barrier()
	if i == 0 {
		cdf[0] = weights[0]
		for x := 1; x < n; x++ {
			cdf[x] = weights[x] + cdf[x-1]
		}
		u[0] = 1 / float32(n)
	}
	t.Barrier()
	if t.ThreadIdx().X == 0 {
		shared[0] = u[0]
	}
	t.Barrier()
	u[i] = shared[0] + float32(i)/float32(n)
}

// ctaScan is moderngpu's CTAScan::Scan over 128 threads (two halves of
// storage, one barrier per step).
func ctaScan(t gpu.Thread, x float32) float32 {
	storage := gpu.Shared[[2 * 128]float32](t)
	tid := t.ThreadIdx().X
	storage[tid] = x
	first := 0
	t.Barrier()
	for offset := 1; offset < 128; offset += offset {
		if tid >= offset {
			x = storage[first+tid-offset] + x
		}
		first = 128 - first
		storage[first+tid] = x
		t.Barrier()
	}
	return x
}

// ScanTilesUniformCount: moderngpu-style tile loop: the block scans each tile of 128
// while `tile*128 < count` (count a parameter, so every thread of the
// block runs the same tiles), loading zero past count (each tile scanned on its own).
//
// verdict: clean
// launch: block=128 grid=1 count=300
//
//gpu:kernel block=128 grid=1
func ScanTilesUniformCount(t gpu.Thread, in, out []float32, count int) {
	tid := t.ThreadIdx().X
	for tile := 0; tile*128 < count; tile++ {
		i := tile*128 + tid
		var x float32
		if i < count {
			x = in[i]
		}
		x = ctaScan(t, x)
		if i < count {
			out[i] = x
		}
	}
}

// ScanTilesPerThreadCount: the tile loop written per thread, `for i := tid;
// i < count; i += 128`: in the last tile the threads past count leave the
// loop while the others scan.
//
// verdict: divergent
// launch: block=128 grid=1 count=300
//
//gpu:kernel block=128 grid=1
func ScanTilesPerThreadCount(t gpu.Thread, in, out []float32, count int) {
	for i := t.ThreadIdx().X; i < count; i += 128 {
		out[i] = ctaScan(t, in[i])
	}
}

// DctGuardedStoreOnly is AMD APP SDK's DCT8x8 with the image edge handled
// at the store: both passes and the barrier between them run in every
// thread; only the store is guarded by `x < width`.
//
// verdict: clean
// launch: block=8,8 grid=2,2 width=12 len=4096
//
//gpu:kernel block=8,8
func DctGuardedStoreOnly(t gpu.Thread, output, input, dct8x8 []float32, width int) {
	inter := gpu.Shared[[64]float32](t)
	i := t.ThreadIdx().X
	j := t.ThreadIdx().Y
	var acc float32
	for k := 0; k < 8; k++ {
		acc += dct8x8[k*8+i] * input[(t.BlockIdx().Y*8+k)*16+t.BlockIdx().X*8+j]
	}
	inter[j*8+i] = acc
	t.Barrier()
	acc = 0
	for k := 0; k < 8; k++ {
		acc += inter[i*8+k] * dct8x8[k*8+j]
	}
	if x := t.GlobalIdx().X; x < width {
		output[t.GlobalIdx().Y*width+x] = acc
	}
}

// DctGuardedWhole: the edge handled by wrapping the whole body in `if x <
// width`: in the last column of blocks the threads past width skip the
// barrier between the passes.
//
// verdict: divergent
// launch: block=8,8 grid=2,2 width=12 len=4096
//
//gpu:kernel block=8,8
func DctGuardedWhole(t gpu.Thread, output, input, dct8x8 []float32, width int) {
	inter := gpu.Shared[[64]float32](t)
	i := t.ThreadIdx().X
	j := t.ThreadIdx().Y
	if x := t.GlobalIdx().X; x < width {
		var acc float32
		for k := 0; k < 8; k++ {
			acc += dct8x8[k*8+i] * input[(t.BlockIdx().Y*8+k)*16+t.BlockIdx().X*8+j]
		}
		inter[j*8+i] = acc
		t.Barrier()
		acc = 0
		for k := 0; k < 8; k++ {
			acc += inter[i*8+k] * dct8x8[k*8+j]
		}
		output[t.GlobalIdx().Y*width+x] = acc
	}
}
