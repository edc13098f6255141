package divergence

// Held-out kernels, seventh set (testdata/corpus/HELDOUT.md, "round 11"):
// hand translations of public kernels the corpus did not cover (llm.c's
// softmax_forward_kernel2, Rodinia backprop's bpnn_layerforward_CUDA,
// cuda-samples FDTD3d's FiniteDifferencesKernel), each with a near-twin of
// the other verdict, written and scored before any analyzer ran on them.
// The corpus's loader has no math32, so the softmax writes expf(v) as its
// first-order term 1 + v (the control flow is the source's).

import "github.com/gpukvet/gpukvet/gpu"

// SoftmaxRowsAsWritten is llm.c's softmax_forward_kernel2 (dev/cuda/
// softmax_forward.cu): block idx normalises row idx; strided loops over
// the row's c columns (a thread past c runs them zero times) and tree
// reductions whose step count halves the uniform block size, every
// barrier reached by the whole block.
//
// verdict: clean
// launch: block=256 grid=2 c=100 len=4096
//
//gpu:kernel block=256
func SoftmaxRowsAsWritten(t gpu.Thread, out, inp []float32, c int) {
	shared := gpu.Shared[[256]float32](t)
	idx := t.BlockIdx().X
	tid := t.ThreadIdx().X
	blockSize := t.BlockDim().X
	x := inp[idx*c:]
	maxval := float32(-3.4028235e38)
	for i := tid; i < c; i += blockSize {
		maxval = max(maxval, x[i])
	}
	shared[tid] = maxval
	t.Barrier()
	for stride := blockSize / 2; stride >= 1; stride /= 2 {
		t.Barrier()
		if tid < stride {
			shared[tid] = max(shared[tid], shared[tid+stride])
		}
	}
	t.Barrier()
	offset := shared[0]
	for i := tid; i < c; i += blockSize {
		out[idx*c+i] = 1 + (x[i] - offset)
	}
	t.Barrier()
	x = out[idx*c:]
	sumval := float32(0)
	for i := tid; i < c; i += blockSize {
		sumval += x[i]
	}
	shared[tid] = sumval
	t.Barrier()
	for stride := blockSize / 2; stride >= 1; stride /= 2 {
		t.Barrier()
		if tid < stride {
			shared[tid] += shared[tid+stride]
		}
	}
	t.Barrier()
	sum := shared[0]
	for i := tid; i < c; i += blockSize {
		out[idx*c+i] = x[i] / sum
	}
}

// SoftmaxShortRowReturn is softmax_forward_kernel2 with the threads that
// own no column of a short row (tid ≥ c) sent home first, as one does in
// an elementwise kernel: they skip every barrier of the reductions.
//
// verdict: divergent
// launch: block=256 grid=2 c=100 len=4096
//
//gpu:kernel block=256
func SoftmaxShortRowReturn(t gpu.Thread, out, inp []float32, c int) {
	shared := gpu.Shared[[256]float32](t)
	idx := t.BlockIdx().X
	tid := t.ThreadIdx().X
	blockSize := t.BlockDim().X
	if tid >= c {
		return
	}
	x := inp[idx*c:]
	maxval := float32(-3.4028235e38)
	for i := tid; i < c; i += blockSize {
		maxval = max(maxval, x[i])
	}
	shared[tid] = maxval
	t.Barrier()
	for stride := blockSize / 2; stride >= 1; stride /= 2 {
		t.Barrier()
		if tid < stride {
			shared[tid] = max(shared[tid], shared[tid+stride])
		}
	}
	t.Barrier()
	offset := shared[0]
	for i := tid; i < c; i += blockSize {
		out[idx*c+i] = 1 + (x[i] - offset)
	}
}

// BackpropTreeAsWritten is Rodinia backprop's bpnn_layerforward_CUDA: the
// input units loaded by tx == 0, the scaling, and the tree over ty whose
// add is under `ty % power_two == 0` while its barrier is not.
//
// verdict: clean
// launch: block=16,16 grid=1,2 hid=16 len=4096
//
//gpu:kernel block=16,16
func BackpropTreeAsWritten(t gpu.Thread, inputCuda, inputHiddenCuda, hiddenPartialSum []float32, hid int) {
	by := t.BlockIdx().Y
	tx := t.ThreadIdx().X
	ty := t.ThreadIdx().Y
	index := (hid+1)*16*by + (hid+1)*ty + tx + 1 + (hid + 1)
	indexIn := 16*by + ty + 1
	inputNode := gpu.Shared[[16]float32](t)
	weightMatrix := gpu.Shared[[16][16]float32](t)
	if tx == 0 {
		inputNode[ty] = inputCuda[indexIn]
	}
	t.Barrier()
	weightMatrix[ty][tx] = inputHiddenCuda[index]
	t.Barrier()
	weightMatrix[ty][tx] = weightMatrix[ty][tx] * inputNode[ty]
	t.Barrier()
	for i := 1; i <= 4; i++ {
		powerTwo := 1 << i
		if ty%powerTwo == 0 {
			weightMatrix[ty][tx] = weightMatrix[ty][tx] + weightMatrix[ty+powerTwo/2][tx]
		}
		t.Barrier()
	}
	inputHiddenCuda[index] = weightMatrix[ty][tx]
	t.Barrier()
	if tx == 0 {
		hiddenPartialSum[by*hid+ty] = weightMatrix[tx][ty]
	}
}

// BackpropTreeBarrierInGuard is bpnn_layerforward_CUDA with the tree's
// barrier moved inside `if ty % power_two == 0` (only the adding rows
// "need" to wait): the other rows skip it.
//
// verdict: divergent
// launch: block=16,16 grid=1,2 hid=16 len=4096
//
//gpu:kernel block=16,16
func BackpropTreeBarrierInGuard(t gpu.Thread, inputCuda, inputHiddenCuda, hiddenPartialSum []float32, hid int) {
	by := t.BlockIdx().Y
	tx := t.ThreadIdx().X
	ty := t.ThreadIdx().Y
	index := (hid+1)*16*by + (hid+1)*ty + tx + 1 + (hid + 1)
	indexIn := 16*by + ty + 1
	inputNode := gpu.Shared[[16]float32](t)
	weightMatrix := gpu.Shared[[16][16]float32](t)
	if tx == 0 {
		inputNode[ty] = inputCuda[indexIn]
	}
	t.Barrier()
	weightMatrix[ty][tx] = inputHiddenCuda[index]
	t.Barrier()
	weightMatrix[ty][tx] = weightMatrix[ty][tx] * inputNode[ty]
	t.Barrier()
	for i := 1; i <= 4; i++ {
		powerTwo := 1 << i
		if ty%powerTwo == 0 {
			weightMatrix[ty][tx] = weightMatrix[ty][tx] + weightMatrix[ty+powerTwo/2][tx]
			t.Barrier()
		}
	}
	inputHiddenCuda[index] = weightMatrix[ty][tx]
	t.Barrier()
	if tx == 0 {
		hiddenPartialSum[by*hid+ty] = weightMatrix[tx][ty]
	}
}

// FdtdPlanesAsWritten is cuda-samples FDTD3d's FiniteDifferencesKernel:
// the flags validr and validw computed from the thread's position, the
// plane loop over the uniform dimz with two barriers per plane, and the
// flags guarding only the loads and the store.
//
// verdict: clean
// launch: block=32,16 grid=2,2 dimx=40 dimy=20 dimz=2 len=16384
//
//gpu:kernel block=32,16
func FdtdPlanesAsWritten(t gpu.Thread, output, input, stencil []float32, dimx, dimy, dimz int) {
	const radius = 4
	validr, validw := true, true
	gtidx := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	gtidy := t.BlockIdx().Y*t.BlockDim().Y + t.ThreadIdx().Y
	ltidx := t.ThreadIdx().X
	ltidy := t.ThreadIdx().Y
	workx := t.BlockDim().X
	worky := t.BlockDim().Y
	tile := gpu.Shared[[16 + 2*radius][32 + 2*radius]float32](t)
	strideY := dimx + 2*radius
	strideZ := strideY * (dimy + 2*radius)
	inputIndex := radius*strideY + radius + gtidy*strideY + gtidx
	var infront, behind [radius]float32
	var current float32
	tx := ltidx + radius
	ty := ltidy + radius
	if gtidx >= dimx+radius || gtidy >= dimy+radius {
		validr = false
	}
	if gtidx >= dimx || gtidy >= dimy {
		validw = false
	}
	for i := radius - 2; i >= 0; i-- {
		if validr {
			behind[i] = input[inputIndex]
		}
		inputIndex += strideZ
	}
	if validr {
		current = input[inputIndex]
	}
	outputIndex := inputIndex
	inputIndex += strideZ
	for i := 0; i < radius; i++ {
		if validr {
			infront[i] = input[inputIndex]
		}
		inputIndex += strideZ
	}
	for iz := 0; iz < dimz; iz++ {
		for i := radius - 1; i > 0; i-- {
			behind[i] = behind[i-1]
		}
		behind[0] = current
		current = infront[0]
		for i := 0; i < radius-1; i++ {
			infront[i] = infront[i+1]
		}
		if validr {
			infront[radius-1] = input[inputIndex]
		}
		inputIndex += strideZ
		outputIndex += strideZ
		t.Barrier()
		if ltidy < radius {
			tile[ltidy][tx] = input[outputIndex-radius*strideY]
			tile[ltidy+worky+radius][tx] = input[outputIndex+worky*strideY]
		}
		if ltidx < radius {
			tile[ty][ltidx] = input[outputIndex-radius]
			tile[ty][ltidx+workx+radius] = input[outputIndex+workx]
		}
		tile[ty][tx] = current
		t.Barrier()
		value := stencil[0] * current
		for i := 1; i <= radius; i++ {
			value += stencil[i] * (infront[i-1] + behind[i-1] + tile[ty-i][tx] + tile[ty+i][tx] + tile[ty][tx-i] + tile[ty][tx+i])
		}
		if validw {
			output[outputIndex] = value
		}
	}
}

// FdtdSkipInvalidColumns is FiniteDifferencesKernel with the threads
// outside the readable volume sent home after the flags are computed (to
// spare their loads): the threads of the blocks on the volume's edge
// that stay skip the plane loop's barriers.
//
// verdict: divergent
// launch: block=32,16 grid=2,2 dimx=40 dimy=20 dimz=2 len=16384
//
//gpu:kernel block=32,16
func FdtdSkipInvalidColumns(t gpu.Thread, output, input, stencil []float32, dimx, dimy, dimz int) {
	const radius = 4
	validr, validw := true, true
	gtidx := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	gtidy := t.BlockIdx().Y*t.BlockDim().Y + t.ThreadIdx().Y
	ltidx := t.ThreadIdx().X
	ltidy := t.ThreadIdx().Y
	workx := t.BlockDim().X
	worky := t.BlockDim().Y
	tile := gpu.Shared[[16 + 2*radius][32 + 2*radius]float32](t)
	strideY := dimx + 2*radius
	strideZ := strideY * (dimy + 2*radius)
	inputIndex := radius*strideY + radius + gtidy*strideY + gtidx
	var infront, behind [radius]float32
	var current float32
	tx := ltidx + radius
	ty := ltidy + radius
	if gtidx >= dimx+radius || gtidy >= dimy+radius {
		validr = false
	}
	if gtidx >= dimx || gtidy >= dimy {
		validw = false
	}
	if !validr {
		return
	}
	for i := radius - 2; i >= 0; i-- {
		behind[i] = input[inputIndex]
		inputIndex += strideZ
	}
	current = input[inputIndex]
	outputIndex := inputIndex
	inputIndex += strideZ
	for i := 0; i < radius; i++ {
		infront[i] = input[inputIndex]
		inputIndex += strideZ
	}
	for iz := 0; iz < dimz; iz++ {
		for i := radius - 1; i > 0; i-- {
			behind[i] = behind[i-1]
		}
		behind[0] = current
		current = infront[0]
		for i := 0; i < radius-1; i++ {
			infront[i] = infront[i+1]
		}
		infront[radius-1] = input[inputIndex]
		inputIndex += strideZ
		outputIndex += strideZ
		t.Barrier()
		if ltidy < radius {
			tile[ltidy][tx] = input[outputIndex-radius*strideY]
			tile[ltidy+worky+radius][tx] = input[outputIndex+worky*strideY]
		}
		if ltidx < radius {
			tile[ty][ltidx] = input[outputIndex-radius]
			tile[ty][ltidx+workx+radius] = input[outputIndex+workx]
		}
		tile[ty][tx] = current
		t.Barrier()
		value := stencil[0] * current
		for i := 1; i <= radius; i++ {
			value += stencil[i] * (infront[i-1] + behind[i-1] + tile[ty-i][tx] + tile[ty+i][tx] + tile[ty][tx-i] + tile[ty][tx+i])
		}
		if validw {
			output[outputIndex] = value
		}
	}
}
