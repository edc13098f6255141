package alloc

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Bad(t gpu.Thread, out []float32) {
	tmp := make([]float32, 4) // want `make allocates memory: kernel code cannot allocate`
	p := new(float32)         // want `new allocates memory`
	tmp = append(tmp, *p)     // want `append allocates memory`
	lit := []float32{1, 2}    // want `slice literal: kernel code cannot allocate memory; use a fixed-size array`
	out[0] = tmp[0] + lit[0]
}

type pt struct{ x, y float32 }

//gpu:kernel
func Good(t gpu.Thread, out []float32) {
	var tmp [4]float32
	lit := [2]float32{1, 2}
	p := &tmp[1]
	*p = lit[0]
	q := pt{1, 2}
	r := &q
	r.x = 3
	copy(out, tmp[:])
	out[0] = tmp[0] + lit[1] + q.x
}
