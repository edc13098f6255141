package device_test

import (
	"errors"
	"fmt"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// axpy computes y = a·x + y, one element per thread.
//
//gpu:kernel
func axpy(t gpu.Thread, a float32, x, y []float32) {
	if i := t.GlobalIdx().X; i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

// A program opens a device, copies its data there, launches a kernel and
// copies the result back. The cpu backend runs anywhere; device.Open
// picks a GPU where there is one.
func Example() {
	d, err := device.OpenBackend("cpu")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	x, err := device.Upload(d, []float32{1, 2, 3, 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer x.Free()
	y, err := device.Upload(d, []float32{10, 20, 30, 40})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer y.Free()
	// One block of 4 threads; 2 is an untyped constant, converted to the
	// parameter's float32 as Go converts constants.
	if err := d.Launch(axpy, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 4, Y: 1, Z: 1}, 2, x, y); err != nil {
		fmt.Println(err)
		return
	}
	out, err := y.Download()
	fmt.Println(out, err)
	// Output: [12 24 36 48] <nil>
}

// Errors say what went wrong in words; errors.Is tells their kinds
// apart, and errors.As gives a trap's details.
func Example_errors() {
	d, _ := device.OpenBackend("cpu")
	x, _ := device.Upload(d, []float32{1, 2})
	y, _ := device.Alloc[float32](d, 1) // shorter than x: the kernel traps
	d.Launch(axpy, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 2, Y: 1, Z: 1}, 2, y, x)
	err := d.Sync()
	var trap *backend.Trap
	fmt.Println(errors.Is(err, device.ErrTrap), errors.As(err, &trap) && trap.Msg != "")
	fmt.Println(trap.Msg)

	err = d.Launch(axpy, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 2, Y: 1, Z: 1}, 2, []float32{1, 2}, x)
	fmt.Println(errors.Is(err, device.ErrLaunch))

	y.Free()
	_, err = y.Download()
	fmt.Println(errors.Is(err, device.ErrFreed))

	x.Free()
	d.Close()
	_, err = device.Alloc[float32](d, 1)
	fmt.Println(errors.Is(err, device.ErrClosed))
	// Output:
	// true true
	// index out of range [1] with length 1
	// true
	// true
	// true
}
