// Package patterns holds the kernels the races check must stay silent on
// (tree reductions, transpose, matmul, scans, stencils, histogram, private
// slots, broadcast) and a racy twin of each.
package patterns

import "github.com/gpukvet/gpukvet/gpu"

// ReduceSequential is the CUDA SDK's reduction #3: sequential addressing,
// a barrier per step.
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

// ReduceNoBarrierInLoop forgets the barrier of each step.
//
//gpu:kernel
func ReduceNoBarrierInLoop(t gpu.Thread, in, out []float32) {
	sh := gpu.Shared[[1024]float32](t)
	tid := t.ThreadIdx().X
	sh[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for s := t.BlockDim().X / 2; s > 0; s >>= 1 {
		if tid < s {
			sh[tid] += sh[tid+s] // want `data race on shared sh: thread 1 writes sh\[1\] \(line 38\) while thread 0 reads sh\[1\]`
		}
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// ReduceInterleaved is the SDK's reduction #2: interleaved addressing with
// a strided index 2*s*tid.
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

// ReduceInterleavedNoBarrier is reduction #2 without its step barrier.
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
			sh[idx] += sh[idx+s] // want `data race on shared sh`
		}
	}
	t.Barrier()
	if tid == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

// TransposePadded is the SDK's transposeNoBankConflicts: a 16×17 padded
// tile, written by rows and read by columns after a barrier.
//
//gpu:kernel block=16,16
func TransposePadded(t gpu.Thread, in, out []float32, w, h int) {
	tile := gpu.Shared[[16][17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx
	y := t.BlockIdx().Y*16 + ty
	if x < w && y < h {
		tile[ty][tx] = in[y*w+x]
	}
	t.Barrier()
	x = t.BlockIdx().Y*16 + tx
	y = t.BlockIdx().X*16 + ty
	if x < h && y < w {
		out[y*h+x] = tile[tx][ty]
	}
}

// TransposeNoBarrier reads the transposed element before its writer has
// stored it.
//
//gpu:kernel block=16,16
func TransposeNoBarrier(t gpu.Thread, in, out []float32, w, h int) {
	tile := gpu.Shared[[16][17]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx
	y := t.BlockIdx().Y*16 + ty
	if x < w && y < h {
		tile[ty][tx] = in[y*w+x]
	}
	x = t.BlockIdx().Y*16 + tx
	y = t.BlockIdx().X*16 + ty
	if x < h && y < w {
		out[y*h+x] = tile[tx][ty] // want `data race on shared tile: thread \(0,1\) writes tile\[1\]\[0\] \(line 119\) while thread \(1,0\) reads tile\[1\]\[0\] \(line 124\)`
	}
}

// MatMulTiled is the SDK's matrixMul: As and Bs loaded per tile, a barrier
// before the products and one after, so the next load waits for readers.
//
//gpu:kernel block=16,16
func MatMulTiled(t gpu.Thread, a, b, c []float32, w int) {
	as := gpu.Shared[[16][16]float32](t)
	bs := gpu.Shared[[16][16]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*16 + ty
	col := t.BlockIdx().X*16 + tx
	var sum float32
	for m := 0; m < w/16; m++ {
		as[ty][tx] = a[row*w+m*16+tx]
		bs[ty][tx] = b[(m*16+ty)*w+col]
		t.Barrier()
		for k := 0; k < 16; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	if row < w && col < w {
		c[row*w+col] = sum
	}
}

// MatMulNoSecondBarrier lets fast threads load the next tile while slow
// ones still read the current one (the race crosses the loop's back edge).
//
//gpu:kernel block=16,16
func MatMulNoSecondBarrier(t gpu.Thread, a, b, c []float32, w int) {
	as := gpu.Shared[[16][16]float32](t)
	bs := gpu.Shared[[16][16]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*16 + ty
	col := t.BlockIdx().X*16 + tx
	var sum float32
	for m := 0; m < w/16; m++ {
		as[ty][tx] = a[row*w+m*16+tx]
		bs[ty][tx] = b[(m*16+ty)*w+col]
		t.Barrier()
		for k := 0; k < 16; k++ {
			sum += as[ty][k] * bs[k][tx] // want `data race on shared as` `data race on shared bs`
		}
	}
	if row < w && col < w {
		c[row*w+col] = sum
	}
}

// ScanHillisSteeleDouble is the naive inclusive scan of GPU Gems 3 ch. 39
// with double buffering: each step reads one half and writes the other.
//
//gpu:kernel block=256
func ScanHillisSteeleDouble(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	pout, pin := 0, 1
	temp[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for off := 1; off < 256; off *= 2 {
		pout = 1 - pout
		pin = 1 - pout
		if tid >= off {
			temp[pout*256+tid] = temp[pin*256+tid] + temp[pin*256+tid-off]
		} else {
			temp[pout*256+tid] = temp[pin*256+tid]
		}
		t.Barrier()
	}
	out[t.GlobalIdx().X] = temp[pout*256+tid]
}

// ScanDoubleNoBarrier double-buffers but has no barrier per step, so the
// next step reads a half that neighbours are still writing.
//
//gpu:kernel block=256
func ScanDoubleNoBarrier(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	pout, pin := 0, 1
	temp[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for off := 1; off < 256; off *= 2 {
		pout = 1 - pout
		pin = 1 - pout
		if tid >= off {
			temp[pout*256+tid] = temp[pin*256+tid] + temp[pin*256+tid-off] // want `data race on shared temp`
		} else {
			temp[pout*256+tid] = temp[pin*256+tid] // want `data race on shared temp`
		}
	}
	t.Barrier()
	out[t.GlobalIdx().X] = temp[pout*256+tid]
}

// ScanBlelloch is the work-efficient exclusive scan (GPU Gems 3 ch. 39,
// the SDK's scan): up-sweep and down-sweep over a tree with offsets.
//
//gpu:kernel block=128
func ScanBlelloch(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	base := t.BlockIdx().X * 256
	temp[2*tid] = in[base+2*tid]
	temp[2*tid+1] = in[base+2*tid+1]
	offset := 1
	for d := 128; d > 0; d >>= 1 {
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			temp[bi] += temp[ai]
		}
		offset *= 2
	}
	if tid == 0 {
		temp[255] = 0
	}
	for d := 1; d < 256; d *= 2 {
		offset >>= 1
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			x := temp[ai]
			temp[ai] = temp[bi]
			temp[bi] += x
		}
	}
	t.Barrier()
	out[base+2*tid] = temp[2*tid]
	out[base+2*tid+1] = temp[2*tid+1]
}

// ScanBlellochNoUpBarrier drops the barrier of the up-sweep.
//
//gpu:kernel block=128
func ScanBlellochNoUpBarrier(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	base := t.BlockIdx().X * 256
	temp[2*tid] = in[base+2*tid]
	temp[2*tid+1] = in[base+2*tid+1]
	t.Barrier()
	offset := 1
	for d := 128; d > 0; d >>= 1 {
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			temp[bi] += temp[ai] // want `data race on shared temp`
		}
		offset *= 2
	}
	t.Barrier()
	out[base+2*tid] = temp[2*tid]
	out[base+2*tid+1] = temp[2*tid+1]
}

// Stencil1D is the textbook 1-D stencil with a halo of radius 3: the first
// three threads also load the halo on both sides.
//
//gpu:kernel block=256
func Stencil1D(t gpu.Thread, in, out []float32) {
	const r = 3
	temp := gpu.Shared[[256 + 2*r]float32](t)
	g := t.GlobalIdx().X + r
	l := t.ThreadIdx().X + r
	temp[l] = in[g]
	if t.ThreadIdx().X < r {
		temp[l-r] = in[g-r]
		temp[l+256] = in[g+256]
	}
	t.Barrier()
	var s float32
	for off := -r; off <= r; off++ {
		s += temp[l+off]
	}
	out[g-r] = s
}

// Stencil1DNoBarrier reads neighbours' slots without waiting.
//
//gpu:kernel block=256
func Stencil1DNoBarrier(t gpu.Thread, in, out []float32) {
	const r = 3
	temp := gpu.Shared[[256 + 2*r]float32](t)
	g := t.GlobalIdx().X + r
	l := t.ThreadIdx().X + r
	temp[l] = in[g]
	if t.ThreadIdx().X < r {
		temp[l-r] = in[g-r]
		temp[l+256] = in[g+256]
	}
	var s float32
	for off := -r; off <= r; off++ {
		s += temp[l+off] // want `data race on shared temp`
	}
	out[g-r] = s
}

// Stencil2D loads a 16×16 tile with a one-element halo on each side
// (18×18), the edge threads loading the halo, then averages the 5-point
// neighbourhood.
//
//gpu:kernel block=16,16
func Stencil2D(t gpu.Thread, in, out []float32, w int) {
	tile := gpu.Shared[[18][18]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx + 1
	y := t.BlockIdx().Y*16 + ty + 1
	tile[ty+1][tx+1] = in[y*w+x]
	if tx == 0 {
		tile[ty+1][0] = in[y*w+x-1]
	}
	if tx == 15 {
		tile[ty+1][17] = in[y*w+x+1]
	}
	if ty == 0 {
		tile[0][tx+1] = in[(y-1)*w+x]
	}
	if ty == 15 {
		tile[17][tx+1] = in[(y+1)*w+x]
	}
	t.Barrier()
	s := tile[ty+1][tx+1] + tile[ty][tx+1] + tile[ty+2][tx+1] + tile[ty+1][tx] + tile[ty+1][tx+2]
	if x < w {
		out[y*w+x] = s / 5
	}
}

// Stencil2DNoBarrier is Stencil2D without its barrier.
//
//gpu:kernel block=16,16
func Stencil2DNoBarrier(t gpu.Thread, in, out []float32, w int) {
	tile := gpu.Shared[[18][18]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x := t.BlockIdx().X*16 + tx + 1
	y := t.BlockIdx().Y*16 + ty + 1
	tile[ty+1][tx+1] = in[y*w+x]
	if tx == 0 {
		tile[ty+1][0] = in[y*w+x-1]
	}
	if tx == 15 {
		tile[ty+1][17] = in[y*w+x+1]
	}
	if ty == 0 {
		tile[0][tx+1] = in[(y-1)*w+x]
	}
	if ty == 15 {
		tile[17][tx+1] = in[(y+1)*w+x]
	}
	s := tile[ty+1][tx+1] + tile[ty][tx+1] + tile[ty+2][tx+1] + tile[ty+1][tx] + tile[ty+1][tx+2] // want `data race on shared tile`
	if x < w {
		out[y*w+x] = s / 5
	}
}

// HistogramShared is the SDK's histogram256 pattern: per-block bins in
// shared memory cleared, filled with shared atomics, then merged into the
// global histogram with global atomics, with barriers in between.
//
//gpu:kernel block=256
func HistogramShared(t gpu.Thread, data []uint32, hist []uint32) {
	bins := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	bins[tid] = 0
	t.Barrier()
	v := data[t.GlobalIdx().X]
	gpu.AtomicAdd(&bins[v&255], 1)
	t.Barrier()
	gpu.AtomicAdd(&hist[tid], bins[tid])
}

// HistogramNonAtomic increments shared bins with a plain read-modify-write.
//
//gpu:kernel block=256
func HistogramNonAtomic(t gpu.Thread, data []uint32, hist []uint32) {
	bins := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	bins[tid] = 0
	t.Barrier()
	v := data[t.GlobalIdx().X]
	bins[v&255]++ // want `possible data race on shared bins`
	t.Barrier()
	gpu.AtomicAdd(&hist[tid], bins[tid])
}

// PrivateSlots gives each thread four private slots a[tid*4+k].
//
//gpu:kernel block=64
func PrivateSlots(t gpu.Thread, in, out []float32) {
	a := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	for k := 0; k < 4; k++ {
		a[tid*4+k] = in[t.GlobalIdx().X*4+k]
	}
	var s float32
	for k := 0; k < 4; k++ {
		s += a[tid*4+k]
	}
	out[t.GlobalIdx().X] = s
}

// PrivateSlotsOverlap writes five slots per thread with a stride of four.
//
//gpu:kernel block=64
func PrivateSlotsOverlap(t gpu.Thread, in, out []float32) {
	a := gpu.Shared[[260]float32](t)
	tid := t.ThreadIdx().X
	for k := 0; k <= 4; k++ {
		a[tid*4+k] = in[t.GlobalIdx().X] // want `data race on shared a: thread 0 and thread 1 both write a\[4\]`
	}
	t.Barrier()
	out[t.GlobalIdx().X] = a[tid*4]
}

// BroadcastGuarded: thread 0 writes, a barrier, everyone reads.
//
//gpu:kernel
func BroadcastGuarded(t gpu.Thread, in, out []float32) {
	v := gpu.Shared[[1]float32](t)
	if t.ThreadIdx().X == 0 {
		v[0] = in[t.BlockIdx().X]
	}
	t.Barrier()
	out[t.GlobalIdx().X] = v[0]
}

// BroadcastNoBarrier: thread 0 writes while everyone reads.
//
//gpu:kernel
func BroadcastNoBarrier(t gpu.Thread, in, out []float32) {
	v := gpu.Shared[[1]float32](t)
	if t.ThreadIdx().X == 0 {
		v[0] = in[t.BlockIdx().X]
	}
	out[t.GlobalIdx().X] = v[0] // want `data race on shared v: thread 0 writes v\[0\] \(line 462\) while thread 1 reads v\[0\] \(line 464\)`
}
