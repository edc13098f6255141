package fix

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Scale(t gpu.Thread, n int, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	if i >= n {
		return
	}
	s[tid] = in[i]
	t.Barrier() // want "some threads return"
	out[i] = s[(tid+1)%256]
	t.Barrier() // want "some threads return"
	out[i] += 1
}

// Not mechanical: v is declared before the barrier and used after it.
//
//gpu:kernel
func Declares(t gpu.Thread, n int, in, out []float32) {
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	v := in[i]
	t.Barrier() // want "some threads return"
	out[i] = v
}
