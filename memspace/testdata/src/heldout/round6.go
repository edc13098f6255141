package heldout

// Round 9 of issue 20 (testdata/corpus/HELDOUT.md): kernel-side memory
// spaces in code translated from NVIDIA cuda-samples binomialOptions (its
// __constant__ option records and __device__ result array),
// quasirandomGenerator (its __constant__ direction table), histogram64
// (the uint view of a byte array in shared memory) and MonteCarloMultiGPU
// (a per-thread generator state copied from a slice), each bug next to a
// correct twin, written before memspace ran on them.

import (
	"unsafe"

	"github.com/gpukvet/gpukvet/gpu"
)

// binomialOptions' __constant__ d_OptionData and __device__ d_CallValue
// translated as package-level arrays: host memory.
var (
	binOptionData [5 * 64]float32
	binCallValue  [64]float32
)

//gpu:kernel
func BinomialOptionsGlobals(t gpu.Thread) {
	bx := t.BlockIdx().X
	if bx < 64 && t.ThreadIdx().X == 0 {
		binCallValue[bx] = binOptionData[5*bx] - binOptionData[5*bx+1] // want `package-level variable binCallValue` `package-level variable binOptionData` `package-level variable binOptionData`
	}
}

// The records and results as slice arguments, device global memory.
//
//gpu:kernel
func BinomialOptionsArgs(t gpu.Thread, optionData, callValue []float32) {
	bx := t.BlockIdx().X
	if bx < len(callValue) && 5*bx+1 < len(optionData) && t.ThreadIdx().X == 0 {
		callValue[bx] = optionData[5*bx] - optionData[5*bx+1]
	}
}

// quasirandomGenerator's __constant__ c_Table as a package-level table.
var qrngTable [3][31]uint32

//gpu:kernel
func QrngTableGlobal(t gpu.Thread, out []uint32, seed uint32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		var result uint32
		data := seed + uint32(i)
		for bit := 0; bit < 31; bit++ {
			if data&1 != 0 {
				result ^= qrngTable[0][bit] // want `package-level variable qrngTable`
			}
			data >>= 1
		}
		out[i] = result
	}
}

// The table copied into a local array from a slice argument first: the
// copy is the thread's private memory.
//
//gpu:kernel
func QrngTableLocalCopy(t gpu.Thread, out, table []uint32, seed uint32) {
	i := t.GlobalIdx().X
	var dimBase [31]uint32
	for bit := 0; bit < 31 && bit < len(table); bit++ {
		dimBase[bit] = table[bit]
	}
	if i < len(out) {
		var result uint32
		data := seed + uint32(i)
		for bit := 0; bit < 31; bit++ {
			if data&1 != 0 {
				result ^= dimBase[bit]
			}
			data >>= 1
		}
		out[i] = result
	}
}

// histogram64 clears its byte matrix through a uint view of it,
// ((uint *)s_Hist)[...] = 0: unsafe in Go.
//
//gpu:kernel block=64
func Histogram64ClearUnsafe(t gpu.Thread, out []uint32) {
	sHist := gpu.Shared[[64 * 64]uint8](t)
	words := (*[64 * 16]uint32)(unsafe.Pointer(sHist)) // want `unsafe`
	tid := t.ThreadIdx().X
	for i := 0; i < 16; i++ {
		words[tid+i*64] = 0
	}
	t.Barrier()
	if tid < len(out) {
		out[tid] = uint32(sHist[tid*64])
	}
}

// The same clear written byte by byte.
//
//gpu:kernel block=64
func Histogram64ClearBytes(t gpu.Thread, out []uint32) {
	sHist := gpu.Shared[[64 * 64]uint8](t)
	tid := t.ThreadIdx().X
	for i := 0; i < 16; i++ {
		w := 4 * (tid + i*64)
		sHist[w], sHist[w+1], sHist[w+2], sHist[w+3] = 0, 0, 0, 0
	}
	t.Barrier()
	if tid < len(out) {
		out[tid] = uint32(sHist[tid*64])
	}
}

// mcRngState stands in for curandState: a struct of the generator's words.
type mcRngState struct {
	d, v0, v1, v2 uint32
}

// MonteCarloOneBlockPerOption copies its generator state from global
// memory into a local variable (`curandState localState =
// rngStates[tid]`), advances it, and stores it back: private memory.
//
//gpu:kernel
func MonteCarloStateCopy(t gpu.Thread, rngStates []mcRngState, out []float32) {
	tid := t.GlobalIdx().X
	if tid < len(rngStates) && tid < len(out) {
		localState := rngStates[tid]
		localState.d += 362437
		localState.v0 ^= localState.v0 >> 2
		out[tid] = float32(localState.d+localState.v0) * (1.0 / 4294967296.0)
		rngStates[tid] = localState
	}
}

// A port that keeps a pointer to a package-level state for every thread
// (a host-side generator): host memory.
var mcHostState mcRngState

//gpu:kernel
func MonteCarloStateGlobal(t gpu.Thread, out []float32) {
	tid := t.GlobalIdx().X
	if tid < len(out) {
		st := &mcHostState // want `package-level variable mcHostState`
		st.d += 362437
		out[tid] = float32(st.d) * (1.0 / 4294967296.0)
	}
}
