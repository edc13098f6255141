package heldout

// Round 8 of issue 20 (testdata/corpus/HELDOUT.md): kernel-side memory
// spaces in code translated from cuda-samples convolutionSeparable (its
// __constant__ c_Kernel), Rodinia lavaMD (its per-box neighbour records)
// and LonestarGPU (a per-thread local stack), each bug next to a correct
// twin, written before memspace ran on them.

import "github.com/gpukvet/gpukvet/gpu"

// convolutionSeparable keeps the filter in __constant__ memory, set by the
// host; translated as a package-level array it is host memory.
var cKernel = [17]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 2, 1}

//gpu:kernel
func ConvRowsConstantGlobal(t gpu.Thread, src, dst []float32) {
	i := t.GlobalIdx().X
	if i >= 8 && i < len(src)-8 && i < len(dst) {
		var sum float32
		for j := -8; j <= 8; j++ {
			sum += cKernel[8-j] * src[i+j] // want `package-level variable cKernel`
		}
		dst[i] = sum
	}
}

// The filter passed as a read-only slice argument, as the dialect's
// constant data is.
//
//gpu:kernel
func ConvRowsKernelArg(t gpu.Thread, src, dst, kern []float32) {
	i := t.GlobalIdx().X
	if i >= 8 && i < len(src)-8 && i < len(dst) && len(kern) == 17 {
		var sum float32
		for j := -8; j <= 8; j++ {
			sum += kern[8-j] * src[i+j]
		}
		dst[i] = sum
	}
}

// lavaMD's neighbour list as a local array of structs filled per thread:
// private memory, correct.
type lavaNei struct {
	box    int32
	offset int32
}

//gpu:kernel
func LavaNeighboursLocal(t gpu.Thread, nei []int32, out []int32) {
	i := t.GlobalIdx().X
	var list [26]lavaNei
	cnt := 0
	for k := 0; k < 26 && i*26+k < len(nei); k++ {
		list[cnt] = lavaNei{box: nei[i*26+k], offset: int32(k)}
		cnt++
	}
	if i < len(out) && cnt > 0 {
		out[i] = list[0].box + list[cnt-1].offset
	}
}

// LonestarGPU's per-thread DFS stack written as a slice grown with make:
// an allocation inside the kernel.
//
//gpu:kernel
func LonestarStackMake(t gpu.Thread, adj, out []int32) {
	i := t.GlobalIdx().X
	stack := make([]int32, 0, 8) // want `make`
	if i < len(adj) {
		stack = append(stack, adj[i]) // want `append`
	}
	if i < len(out) && len(stack) > 0 {
		out[i] = stack[len(stack)-1]
	}
}
