package escape

import "github.com/gpukvet/gpukvet/gpu"

func addr(x int) *int {
	return &x // want `the address of local variable x does not outlive device function addr`
}

func sliceOf() []int {
	var a [4]int
	return a[1:] // want `a slice of local array a does not outlive device function sliceOf`
}

type pair struct{ a, b [2]int }

func field() *int {
	var p pair
	q := &p.b[1]
	return q // want `the address of local variable p \(through q\) does not outlive`
}

//gpu:kernel
func Bad(t gpu.Thread, out []int) {
	out[0] = *addr(1) + sliceOf()[0] + *field()
}

// Pointers into device memory outlive the function.
func elem(s []int, i int) *int { return &s[i] }

func tile(t gpu.Thread) *[16]int { return gpu.Shared[[16]int](t) }

func row(t gpu.Thread) []int {
	sh := tile(t)
	return sh[4:8]
}

func local() int {
	var a [4]int
	p := &a[2]
	*p = 3
	return a[2]
}

//gpu:kernel
func Good(t gpu.Thread, out []int) {
	*elem(out, 0) = local()
	row(t)[0] = 1
}
