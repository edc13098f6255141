package basic

import "github.com/gpukvet/gpukvet/gpu"

// Dim3ArgY reads the Y of a gpu.Dim3 argument: launch data, so the kernel
// stays one-dimensional and no two threads share an index.
//
//gpu:kernel
func Dim3ArgY(t gpu.Thread, d gpu.Dim3, out []int32) {
	out[t.GlobalIdx().X] = int32(d.Y)
}

// Dim3BlockY reads the Y of the block's extent: the kernel is
// two-dimensional and threads (0,0) and (0,1) write one element.
//
//gpu:kernel
func Dim3BlockY(t gpu.Thread, out []int32) {
	d := t.BlockDim()
	out[t.GlobalIdx().X] = int32(d.Y) // want `data race on global out: thread \(0,0\) and thread \(0,1\) both write out\[0\]`
}
