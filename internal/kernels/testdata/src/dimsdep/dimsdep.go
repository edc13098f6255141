package dimsdep

import "github.com/gpukvet/gpukvet/gpu"

// Row reads the Y index.
//
//gpu:device
func Row(t gpu.Thread) int { // want Row:"gpu device function dims=2"
	return t.GlobalIdx().Y
}

// Col reads only X.
//
//gpu:device
func Col(t gpu.Thread) int { // want Col:"gpu device function dims=0"
	return t.GlobalIdx().X
}

// Depth reads Z through a helper of its own package.
//
//gpu:device
func Depth(t gpu.Thread) int { // want Depth:"gpu device function dims=3"
	return depth(t)
}

func depth(t gpu.Thread) int { return t.BlockDim().Z }

// Tile declares 32768 bytes of shared memory through a helper of its own
// package; kernels of other packages that call it count them.
//
//gpu:device
func Tile(t gpu.Thread) float32 { // want Tile:"gpu device function dims=0 shared=32768$"
	return tile(t)[t.ThreadIdx().X]
}

func tile(t gpu.Thread) *[8192]float32 { return gpu.Shared[[8192]float32](t) }
