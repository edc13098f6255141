package heldout

import (
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

var block256 = gpu.Dim3{X: 256, Y: 1, Z: 1}

type runner struct {
	d *device.Device
}

func (r *runner) step(t gpu.Thread, out []float32) {}

func HostBad(d *device.Device, host []float32, xb, yb *device.Buffer[float32], ib *device.Buffer[int32], n int, scale float64) {
	grid := gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1}
	_ = d.Launch(Saxpy, grid, block256, float32(2), host, yb)              // want `host slice`
	_ = d.Launch(Saxpy, grid, block256, float32(2), xb)                    // want `2 arguments`
	_ = d.Launch(Saxpy, grid, block256, float32(2), xb, yb, n)             // want `4 arguments`
	_ = d.Launch(Saxpy, grid, block256, scale, xb, yb)                     // want `float64`
	_ = d.Launch(Saxpy, grid, block256, float32(2), ib, yb)                // want `Buffer\[int32\]`
	_ = d.Launch(Saxpy, grid, block256, xb, xb, yb)                        // want `not a slice`
	_ = d.Launch(Saxpy, grid, block256, float32(2), &xb, yb)               // want `parameter x`
	_ = d.Launch(notKernel, grid, block256, yb)                            // want `not a //gpu:kernel`
	_ = d.Launch(func(t gpu.Thread, out []float32) {}, grid, block256, yb) // want `not a //gpu:kernel|function literal`
	r := &runner{d: d}
	_ = d.Launch(r.step, grid, block256, yb)                                                   // want `not a //gpu:kernel|method`
	_ = d.Launch(Fixed64, grid, gpu.Dim3{X: 128, Y: 1, Z: 1}, yb)                              // want `block=64`
	_ = d.Launch(Fixed64, grid, block256, yb)                                                  // want `block=64`
	_ = d.Launch(OneBlock, gpu.Dim3{X: 4, Y: 1, Z: 1}, block256, yb)                           // want `grid=1`
	_ = d.Launch(Saxpy, grid, gpu.Dim3{X: 16, Y: 16, Z: 1}, float32(1), xb, yb)                // want `extent 16 in Y`
	_ = d.Launch(TwoD, gpu.Dim3{X: 4, Y: 4, Z: 1}, gpu.Dim3{X: 16}, n, yb)                     // want `extent 0 in Y`
	_ = d.Launch(TwoD, gpu.Dim3{X: 4, Y: 4, Z: 1}, gpu.Dim3{X: 16, Y: 16, Z: 1}, int32(n), yb) // want `int32`
	_ = d.Launch(StructParam, grid, block256, &vec2{1, 2}, yb)                                 // want `vec2`
	_ = d.Launch(StructParam, grid, block256, vec2{1, 2}, host)                                // want `host slice`
	_ = d.Launch(Saxpy, grid, block256, 1e40, xb, yb)                                          // want `1e\+40|cannot convert`
}

func HostGood(d *device.Device, xb, yb *device.Buffer[float32], n int) error {
	grid := gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1}
	if err := d.Launch(Saxpy, grid, block256, float32(2), xb, yb); err != nil {
		return err
	}
	if err := d.Launch(Saxpy, grid, block256, 2, xb, yb); err != nil {
		return err
	}
	if err := d.Launch(Fixed64, gpu.Dim3{X: n / 64, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}, yb); err != nil {
		return err
	}
	if err := d.Launch(OneBlock, gpu.Dim3{X: 1, Y: 1, Z: 1}, block256, yb); err != nil {
		return err
	}
	if err := d.Launch(TwoD, gpu.Dim3{X: 4, Y: 4, Z: 1}, gpu.Dim3{X: 16, Y: 16, Z: 1}, n, yb); err != nil {
		return err
	}
	if err := d.Launch(StructParam, grid, block256, vec2{1, 2}, yb); err != nil {
		return err
	}
	k := Saxpy
	return d.Launch(k, grid, block256, float32(2), xb, yb)
}
