package divergence

// Held-out kernels, fifth set (testdata/corpus/HELDOUT.md, "round 8"):
// hand translations of public kernels the corpus did not cover (Rodinia
// lavaMD and srad, cuda-samples scalarProd, HeCBench reverse, cub's
// BlockDiscontinuity, AMD APP SDK QuasiRandomSequence), each with a
// near-twin of the other verdict, written and scored before any analyzer
// ran on them.

import "github.com/gpukvet/gpukvet/gpu"

// lavaPar and lavaThreads are lavaMD's NUMBER_PAR_PER_BOX and
// NUMBER_THREADS.
const (
	lavaPar     = 100
	lavaThreads = 128
)

// LavaMdNeighbourLoop is Rodinia lavaMD's box loop: the number of
// neighbour boxes is read from global memory at the block's own box, so
// every thread of the block runs the same iterations and barriers; the
// per-particle loops inside run no barrier.
//
// verdict: clean
// launch: block=128 grid=2 numberBoxes=2 len=4096 fill=zero
//
//gpu:kernel block=128
func LavaMdNeighbourLoop(t gpu.Thread, rv, fv []float32, boxNn, boxNei []int32, numberBoxes int) {
	rB := gpu.Shared[[lavaPar]float32](t)
	bx := t.BlockIdx().X
	tx := t.ThreadIdx().X
	if bx >= numberBoxes {
		return
	}
	for k := 0; k < 1+int(boxNn[bx]); k++ {
		pointer := bx
		if k > 0 {
			pointer = int(boxNei[bx*26+k-1])
		}
		for wtx := tx; wtx < lavaPar; wtx += lavaThreads {
			rB[wtx] = rv[pointer*lavaPar+wtx]
		}
		t.Barrier()
		for wtx := tx; wtx < lavaPar; wtx += lavaThreads {
			for j := 0; j < lavaPar; j++ {
				fv[bx*lavaPar+wtx] += rB[j]
			}
		}
		t.Barrier()
	}
}

// LavaMdBarrierPerParticle moves the neighbour loop, barriers and all,
// inside the per-particle loop: the 28 threads with tx ≥ 100 never enter
// it, while the others wait at its barriers.
//
// verdict: divergent
// launch: block=128 grid=2 numberBoxes=2 len=4096 fill=zero
//
//gpu:kernel block=128
func LavaMdBarrierPerParticle(t gpu.Thread, rv, fv []float32, boxNn, boxNei []int32, numberBoxes int) {
	rB := gpu.Shared[[lavaPar]float32](t)
	bx := t.BlockIdx().X
	tx := t.ThreadIdx().X
	if bx >= numberBoxes {
		return
	}
	for wtx := tx; wtx < lavaPar; wtx += lavaThreads {
		for k := 0; k < 1+int(boxNn[bx]); k++ {
			pointer := bx
			if k > 0 {
				pointer = int(boxNei[bx*26+k-1])
			}
			rB[wtx] = rv[pointer*lavaPar+wtx]
			t.Barrier()
			for j := 0; j < lavaPar; j++ {
				fv[bx*lavaPar+wtx] += rB[j]
			}
			t.Barrier()
		}
	}
}

// ScalarProdVectors is cuda-samples scalarProdGPU's block loop: vectors
// blockIdx, blockIdx+gridDim, … (uniform in the block), with the tree's
// barriers inside.
//
// verdict: clean
// launch: block=256 grid=2 n=5 elementN=4 len=4096
//
//gpu:kernel block=256
func ScalarProdVectors(t gpu.Thread, c, a, b []float32, n, elementN int) {
	accum := gpu.Shared[[1024]float32](t)
	for vec := t.BlockIdx().X; vec < n; vec += t.GridDim().X {
		for iAccum := t.ThreadIdx().X; iAccum < 1024; iAccum += t.BlockDim().X {
			var sum float32
			for pos := elementN*vec + iAccum; pos < elementN*vec+elementN; pos += 1024 {
				sum += a[pos] * b[pos]
			}
			accum[iAccum] = sum
		}
		for stride := 512; stride > 0; stride >>= 1 {
			t.Barrier()
			for iAccum := t.ThreadIdx().X; iAccum < stride; iAccum += t.BlockDim().X {
				accum[iAccum] += accum[stride+iAccum]
			}
		}
		t.Barrier()
		if t.ThreadIdx().X == 0 {
			c[vec] = accum[0]
		}
	}
}

// ScalarProdThreadVectors starts the vector loop at the global thread
// index (a grid-stride loop per thread): with n = 300 the threads of block
// 1 past 43 take no vector and skip the tree's barriers.
//
// verdict: divergent
// launch: block=256 grid=2 n=300 elementN=4 len=4096
//
//gpu:kernel block=256
func ScalarProdThreadVectors(t gpu.Thread, c, a, b []float32, n, elementN int) {
	accum := gpu.Shared[[1024]float32](t)
	for vec := t.GlobalIdx().X; vec < n; vec += t.GridDim().X * t.BlockDim().X {
		var sum float32
		for pos := elementN * vec; pos < elementN*vec+elementN; pos++ {
			sum += a[pos] * b[pos]
		}
		accum[t.ThreadIdx().X] = sum
		for stride := 128; stride > 0; stride >>= 1 {
			t.Barrier()
			if t.ThreadIdx().X < stride {
				accum[t.ThreadIdx().X] += accum[stride+t.ThreadIdx().X]
			}
		}
		t.Barrier()
		if t.ThreadIdx().X == 0 {
			c[t.BlockIdx().X] += accum[0]
		}
	}
}

// ReverseGuardedLength is HeCBench reverse with the copy guarded to the
// length the host passes: with len = 200 and a block of 256, threads 200
// and up skip the barrier.
//
// verdict: divergent
// launch: block=256 grid=1 length=200 len=256
//
//gpu:kernel block=256 grid=1
func ReverseGuardedLength(t gpu.Thread, d []int32, length int) {
	s := gpu.Shared[[256]int32](t)
	tid := t.ThreadIdx().X
	if tid < length {
		s[tid] = d[tid]
		t.Barrier()
		d[tid] = s[length-tid-1]
	}
}

// ReverseGuardedAround keeps the guard around each access and the barrier
// outside it.
//
// verdict: clean
// launch: block=256 grid=1 length=200 len=256
//
//gpu:kernel block=256 grid=1
func ReverseGuardedAround(t gpu.Thread, d []int32, length int) {
	s := gpu.Shared[[256]int32](t)
	tid := t.ThreadIdx().X
	if tid < length {
		s[tid] = d[tid]
	}
	t.Barrier()
	if tid < length {
		d[tid] = s[length-tid-1]
	}
}

// FlagHeadsTail is cub's FlagHeads over a tile with a partial last block,
// the whole body under the tail guard: in the last block the threads past
// n skip the barrier.
//
// verdict: divergent
// launch: block=128 grid=2 n=200 len=256
//
//gpu:kernel block=128
func FlagHeadsTail(t gpu.Thread, flags, keys []int32, n int) {
	lastItems := gpu.Shared[[128]int32](t)
	tid := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	if gid < n {
		item := keys[gid]
		lastItems[tid] = item
		t.Barrier()
		var flag int32 = 1
		if tid > 0 && lastItems[tid-1] == item {
			flag = 0
		}
		flags[gid] = flag
	}
}

// FlagHeadsTailPadded pads the tail with the previous key (cub's
// FlagHeads with a tile_predecessor and out-of-bounds default), so every
// thread reaches the barrier.
//
// verdict: clean
// launch: block=128 grid=2 n=200 len=256
//
//gpu:kernel block=128
func FlagHeadsTailPadded(t gpu.Thread, flags, keys []int32, n int) {
	lastItems := gpu.Shared[[128]int32](t)
	tid := t.ThreadIdx().X
	gid := t.GlobalIdx().X
	item := keys[n-1]
	if gid < n {
		item = keys[gid]
	}
	lastItems[tid] = item
	t.Barrier()
	var flag int32 = 1
	if tid > 0 && lastItems[tid-1] == item {
		flag = 0
	}
	if gid < n {
		flags[gid] = flag
	}
}

// QuasiRandomCopyThenScan is AMD QuasiRandomSequence's direction-number
// copy by the first 32 work-items, the barrier after the guarded copy.
//
// verdict: clean
// launch: block=64 grid=2 n=100 len=4096
//
//gpu:kernel block=64
func QuasiRandomCopyThenScan(t gpu.Thread, output []float32, input []uint32, n int) {
	shared := gpu.Shared[[32]uint32](t)
	lid := t.ThreadIdx().X
	dim := t.BlockIdx().X
	if lid < 32 {
		shared[lid] = input[dim*32+lid]
	}
	t.Barrier()
	for v := lid; v < n; v += t.BlockDim().X {
		var temp uint32
		for k := 0; k < 32; k++ {
			if uint32(v)&(1<<k) != 0 {
				temp ^= shared[k]
			}
		}
		output[dim*n+v] = float32(temp)
	}
}

// QuasiRandomBarrierInCopy puts the barrier inside the copy's guard:
// work-items 32..63 skip it.
//
// verdict: divergent
// launch: block=64 grid=2 n=100 len=4096
//
//gpu:kernel block=64
func QuasiRandomBarrierInCopy(t gpu.Thread, output []float32, input []uint32, n int) {
	shared := gpu.Shared[[32]uint32](t)
	lid := t.ThreadIdx().X
	dim := t.BlockIdx().X
	if lid < 32 {
		shared[lid] = input[dim*32+lid]
		t.Barrier()
	}
	for v := lid; v < n; v += t.BlockDim().X {
		var temp uint32
		for k := 0; k < 32; k++ {
			if uint32(v)&(1<<k) != 0 {
				temp ^= shared[k]
			}
		}
		output[dim*n+v] = float32(temp)
	}
}
