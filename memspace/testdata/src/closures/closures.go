package closures

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Bad(t gpu.Thread, out []float32) {
	sq := func(x float32) float32 { return x * x } // want `function literal: kernel code cannot use closures`
	_ = sq
	f := square        // want `function square used as a value: kernel code cannot use function values`
	out[0] = f(out[0]) // want `call of a function value`
	g := t.ThreadIdx   // want `method value t.ThreadIdx: kernel code cannot use function values`
	_ = g
}

func square(x float32) float32 { return x * x }

//gpu:kernel
func Good(t gpu.Thread, out []float32) {
	out[0] = square(out[0])
	out[1] = float32(t.ThreadIdx().X)
}
