package kernels

import "github.com/gpukvet/gpukvet/gpu"

// AtomicAddAll: AtomicAdd on every type into global counters (values that
// sum exactly in any order, so floats compare exactly too).
//
//gpu:kernel
func AtomicAddAll(t gpu.Thread, n int, i32 []int32, u32 []uint32, i64 []int64, u64 []uint64, f32 []float32, f64 []float64) {
	i := t.GlobalIdx().X
	if i < n {
		gpu.AtomicAdd(&i32[0], int32(i%7)-3)
		gpu.AtomicAdd(&u32[0], uint32(i))
		gpu.AtomicAdd(&i64[0], int64(i)*1000003)
		gpu.AtomicAdd(&u64[0], uint64(i)<<20)
		gpu.AtomicAdd(&f32[0], float32(i%16)*0.25)
		gpu.AtomicAdd(&f64[0], float64(i)*0.5)
	}
}

// AtomicMinMax: AtomicMin and AtomicMax on signed and unsigned values.
//
//gpu:kernel
func AtomicMinMax(t gpu.Thread, x []int64, i32 []int32, u32 []uint32, i64 []int64, u64 []uint64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		v := x[i]
		gpu.AtomicMin(&i32[0], int32(v))
		gpu.AtomicMax(&i32[1], int32(v))
		gpu.AtomicMin(&u32[0], uint32(v))
		gpu.AtomicMax(&u32[1], uint32(v))
		gpu.AtomicMin(&i64[0], v)
		gpu.AtomicMax(&i64[1], v)
		gpu.AtomicMin(&u64[0], uint64(v))
		gpu.AtomicMax(&u64[1], uint64(v))
	}
}

// AtomicCAS: every thread claims the slot its key hashes to with a
// compare-and-swap; each slot ends with one claimant, and the number of
// claims per slot is counted. The winners differ between runs, so only the
// counts are compared (ownerOf is checked for consistency by the test).
//
//gpu:kernel
func AtomicCAS(t gpu.Thread, keys []int32, slots []int32, claims []uint32, won []int32) {
	i := t.GlobalIdx().X
	if i < len(keys) {
		s := int(keys[i]) % len(slots)
		old := gpu.AtomicCompareAndSwap(&slots[s], -1, int32(i))
		if old == -1 {
			gpu.AtomicAdd(&claims[s], 1)
			won[i] = 1
		}
	}
}

// AtomicExchangeAll: exchanges on every type; each location ends holding
// one thread's value and every old value is returned exactly once, so the
// test compares the multiset of results.
//
//gpu:kernel
func AtomicExchangeAll(t gpu.Thread, n int, cell32 []int32, cellf []float64, old32 []int32, oldf []float64) {
	i := t.GlobalIdx().X
	if i < n {
		old32[i] = gpu.AtomicExchange(&cell32[0], int32(i+1))
		oldf[i] = gpu.AtomicExchange(&cellf[0], float64(i)+0.5)
	}
}

// SharedHistogram: a 64-bin histogram with shared-memory atomics, merged
// into global memory with global atomics.
//
//gpu:kernel block=256
func SharedHistogram(t gpu.Thread, data []uint32, hist []uint32) {
	bins := gpu.Shared[[64]uint32](t)
	tid := t.ThreadIdx().X
	if tid < 64 {
		bins[tid] = 0
	}
	t.Barrier()
	for i := t.GlobalIdx().X; i < len(data); i += t.GridDim().X * 256 {
		gpu.AtomicAdd(&bins[data[i]%64], 1)
	}
	t.Barrier()
	if tid < 64 && tid < len(hist) {
		gpu.AtomicAdd(&hist[tid], bins[tid])
	}
}

// AtomicPerThread: exchange and compare-and-swap on every type they take,
// each thread on its own element (deterministic results), including a CAS
// that fails.
//
//gpu:kernel
func AtomicPerThread(t gpu.Thread, i32 []int32, u32 []uint32, i64 []int64, u64 []uint64, f32 []float32, f64 []float64, old []int64) {
	i := t.GlobalIdx().X
	if i < len(i32) {
		o := old[8*i : 8*i+8]
		o[0] = int64(gpu.AtomicExchange(&i32[i], int32(-i)))
		o[1] = int64(gpu.AtomicExchange(&u32[i], uint32(i)*3))
		o[2] = gpu.AtomicExchange(&i64[i], int64(i)<<40)
		o[3] = int64(gpu.AtomicExchange(&u64[i], uint64(i)<<50))
		o[4] = int64(gpu.AtomicExchange(&f32[i], float32(i)+0.25))
		o[5] = int64(gpu.AtomicExchange(&f64[i], float64(i)*1.5))
		o[6] = int64(gpu.AtomicCompareAndSwap(&u32[i], uint32(i)*3, 7)) + int64(gpu.AtomicCompareAndSwap(&i64[i], 12345, 1))
		o[7] = int64(gpu.AtomicCompareAndSwap(&u64[i], uint64(i)<<50, 9)) + int64(gpu.AtomicCompareAndSwap(&i32[i], int32(-i), 5))
	}
}
