package misc

import "github.com/gpukvet/gpukvet/gpu"

var limit = 10

type num int

func (n num) double() num { return 2 * n }

//gpu:kernel
func Bad(t gpu.Thread, out []int) {
	var x any = out[0] // want `variable x has type any: kernel code cannot use an interface`
	switch v := x.(type) {
	case int:
		out[1] = v
	}
	f := num.double // want `method value num.double: kernel code cannot use function values`
	_ = f
	var m map[int]bool // want `variable m has type map\[int\]bool`
	for k := range m {
		out[k] = 1
	}
	var s string // want `variable s has type string`
	for i, c := range s {
		out[i] = int(c)
	}
	r := recover() // want `recover: kernel code cannot recover from panics`
	_ = r
}

//gpu:kernel
func Good(t gpu.Thread, out []int) {
	limit := 4 // shadows the package-level variable
	for i := range limit {
		out[i] = int(num(i).double())
	}
	for i, c := range "const" {
		out[i] += int(c)
	}
	var p *int = &out[0]
	*p = min(*p, limit)
}
