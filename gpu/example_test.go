package gpu_test

import (
	"fmt"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// square squares each element: thread GlobalIdx().X handles element X.
//
//gpu:kernel
func square(t gpu.Thread, xs []int32) {
	if i := t.GlobalIdx().X; i < len(xs) {
		xs[i] *= xs[i]
	}
}

// A kernel is a function of a gpu.Thread; package device launches it on a
// grid of blocks of threads. Here 2 blocks of 4 threads cover 6 elements,
// and the two threads past the end return.
func Example() {
	d, err := device.OpenBackend("cpu")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	xs, err := device.Upload(d, []int32{1, 2, 3, 4, 5, 6})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer xs.Free()
	if err := d.Launch(square, gpu.Dim3{X: 2, Y: 1, Z: 1}, gpu.Dim3{X: 4, Y: 1, Z: 1}, xs); err != nil {
		fmt.Println(err)
		return
	}
	out, err := xs.Download()
	fmt.Println(out, err)
	// Output: [1 4 9 16 25 36] <nil>
}

// histogram counts the values of data in hist: threads that meet the same
// value add to one counter, so they add atomically.
//
//gpu:kernel
func histogram(t gpu.Thread, data []int32, hist []uint32) {
	if i := t.GlobalIdx().X; i < len(data) {
		gpu.AtomicAdd(&hist[data[i]], 1)
	}
}

func ExampleAtomicAdd() {
	d, _ := device.OpenBackend("cpu")
	defer d.Close()
	data, _ := device.Upload(d, []int32{0, 1, 1, 3, 1, 0, 3, 3, 3})
	defer data.Free()
	hist, _ := device.Alloc[uint32](d, 4)
	defer hist.Free()
	if err := d.Launch(histogram, gpu.Dim3{X: 3, Y: 1, Z: 1}, gpu.Dim3{X: 4, Y: 1, Z: 1}, data, hist); err != nil {
		fmt.Println(err)
		return
	}
	counts, err := hist.Download()
	fmt.Println(counts, err)
	// Output: [2 3 0 4] <nil>
}
