package constructs

import (
	"github.com/gpukvet/gpukvet/gpu"
)

// SharedTile uses a 2D shared tile and barriers in a device function.
//
//gpu:kernel block=16,16
func SharedTile(t gpu.Thread, in, out []float32, w int) {
	tile := gpu.Shared[[16][17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx
	y := t.BlockIdx().Y*16 + ty
	if x < w && y*w+x < len(in) {
		tile[ty][tx] = in[y*w+x]
	}
	sync(t)
	x = t.BlockIdx().Y*16 + tx
	y = t.BlockIdx().X*16 + ty
	if x < w && y*w+x < len(out) {
		out[y*w+x] = tile[tx][ty]
	}
}

func sync(t gpu.Thread) { t.Barrier() }

// Atomics uses every atomic on global and shared memory.
//
//gpu:kernel block=128
func Atomics(t gpu.Thread, i32 []int32, u32 []uint32, i64 []int64, u64 []uint64, f32 []float32, f64 []float64) {
	hist := gpu.Shared[[4]uint32](t)
	tid := t.ThreadIdx().X
	if tid < 4 {
		hist[tid] = 0
	}
	t.Barrier()
	gpu.AtomicAdd(&hist[tid%4], 1)
	t.Barrier()
	if tid == 0 && len(u32) > 0 && len(i32) > 3 && len(i64) > 0 && len(u64) > 2 && len(f32) > 1 && len(f64) > 1 {
		gpu.AtomicAdd(&u32[0], hist[0])
		gpu.AtomicAdd(&i32[0], 5)
		gpu.AtomicMin(&i32[1], -3)
		gpu.AtomicMax(&i32[2], 7)
		gpu.AtomicExchange(&i32[3], 9)
		gpu.AtomicCompareAndSwap(&i32[0], 5, 6)
		gpu.AtomicAdd(&i64[0], -1)
		gpu.AtomicMin(&u64[0], 3)
		gpu.AtomicMax(&u64[1], 4)
		gpu.AtomicCompareAndSwap(&u64[2], 0, 1)
		gpu.AtomicAdd(&f32[0], 1.5)
		gpu.AtomicExchange(&f32[1], 2.5)
		gpu.AtomicAdd(&f64[0], 0.25)
		gpu.AtomicExchange(&f64[1], 0.5)
		gpu.AtomicMin(&i64[0], 7)
	}
}

// LocalAtomics applies atomics to a thread's own local variables.
//
//gpu:kernel
func LocalAtomics(t gpu.Thread, out []int64) {
	i := t.GlobalIdx().X
	if i >= len(out) {
		return
	}
	var n int64 = 5
	var f float32 = 1
	gpu.AtomicAdd(&n, 3)
	gpu.AtomicMax(&n, 7)
	gpu.AtomicCompareAndSwap(&n, 8, 9)
	gpu.AtomicExchange(&f, 2)
	old := gpu.AtomicAdd(&f, 0.5)
	out[i] = n + int64(old) + int64(f)
}
