package racecorpus

import "github.com/gpukvet/gpukvet/gpu"

// ReduceSequential is the CUDA SDK's reduction #3: sequential addressing,
// a barrier per step.
// verdict: clean
//
//gpu:kernel
func ReduceSequential(t gpu.Thread, in, out []float32) {
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

// ReduceInterleaved is the SDK's reduction #2: interleaved addressing with
// a strided index 2*s*tid.
// verdict: clean
//
//gpu:kernel
func ReduceInterleaved(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	bd := t.BlockDim().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := 1; s < bd; s *= 2 {
		idx := 2 * s * tid
		if idx+s < bd {
			sh[idx] += sh[idx+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceModulo is the SDK's reduction #1: interleaved addressing selected
// by tid % (2*s) == 0.
// verdict: clean
//
//gpu:kernel block=256
func ReduceModulo(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := 1; s < 256; s *= 2 {
		if tid%(2*s) == 0 {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceTwoLoads is the SDK's reduction #4: each thread adds two inputs
// on load, then sequential addressing.
// verdict: clean
//
//gpu:kernel block=256
func ReduceTwoLoads(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	i := t.BlockIdx().X*512 + tid
	sh[tid] = in[i] + in[i+256]
	t.Barrier()
	for s := 128; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceNoBarrierInLoop forgets the barrier of each step.
// verdict: race
//
//gpu:kernel
func ReduceNoBarrierInLoop(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := t.BlockDim().X / 2; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceNoInitialBarrier loads and reduces with no barrier in between.
// verdict: race
//
//gpu:kernel
func ReduceNoInitialBarrier(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
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

// ReduceOffByOne guards with tid <= s, so thread s writes sh[s] while
// thread 0 reads it.
// verdict: race
//
//gpu:kernel block=256
func ReduceOffByOne(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := 128; s > 0; s >>= 1 {
		if tid <= s {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceInterleavedNoBarrier is reduction #2 without its step barrier.
// verdict: race
//
//gpu:kernel
func ReduceInterleavedNoBarrier(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	bd := t.BlockDim().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := 1; s < bd; s *= 2 {
		idx := 2 * s * tid
		if idx+s < bd {
			sh[idx] += sh[idx+s]
		}
	}
	t.Barrier()
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceAllThreadsWriteResult lets every thread of a block write the
// block's result.
// verdict: race
//
//gpu:kernel
func ReduceAllThreadsWriteResult(t gpu.Thread, in, out []float32) {
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
	out[t.BlockIdx().X] = sh[0]
}

// ReduceWarpUnrolledNoSync unrolls the last steps without barriers, which
// Go's memory model (and independent thread scheduling) does not allow.
// verdict: race
//
//gpu:kernel block=256
func ReduceWarpUnrolledNoSync(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := 128; s > 32; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.Barrier()
	}
	if tid < 32 {
		sh[tid] += sh[tid+32]
		sh[tid] += sh[tid+16]
		sh[tid] += sh[tid+8]
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceTwoArrays reduces values and counts in two shared arrays.
// verdict: clean
//
//gpu:kernel block=128
func ReduceTwoArrays(t gpu.Thread, in []float32, out []float32, cnt []int32) {
	vals := gpu.Shared[[128]float32](t)
	cnts := gpu.Shared[[128]int32](t)
	tid := t.ThreadIdx().X
	vals[tid] = in[t.GlobalIdx().X]
	cnts[tid] = 1
	t.Barrier()
	for s := 64; s > 0; s /= 2 {
		if tid < s {
			vals[tid] += vals[tid+s]
			cnts[tid] += cnts[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = vals[0]
		cnt[t.BlockIdx().X] = cnts[0]
	}
}
