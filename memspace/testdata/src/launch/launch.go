package launch

import (
	"launchdep"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

type Params struct {
	N     int
	Scale float32
}

type Idx int32

//gpu:kernel
func Saxpy(t gpu.Thread, p Params, x, y []float32) {
	i := t.GlobalIdx().X
	if i < p.N {
		y[i] += p.Scale * x[i]
	}
}

//gpu:kernel
func Scale(t gpu.Thread, a float32, n int32, k Idx, out []float32) {
	out[t.GlobalIdx().X] *= a
}

//gpu:kernel
func Grid2D(t gpu.Thread, out []float32) {
	i := t.GlobalIdx()
	out[i.Y*t.GridDim().X*t.BlockDim().X+i.X] = 0
}

func notKernel(t gpu.Thread, out []float32) {}

var one = gpu.Dim3{X: 1, Y: 1, Z: 1}

func Bad(d *device.Device, host []float32, xb, yb *device.Buffer[float32], ib *device.Buffer[int], n int, f64 float64) {
	_ = d.Launch(notKernel, one, one, xb)                                           // want `Launch of notKernel, which is not a //gpu:kernel function`
	_ = d.Launch(launchdep.NotKernel, one, one, xb)                                 // want `Launch of launchdep.NotKernel, which is not a //gpu:kernel function`
	_ = d.Launch(42, one, one)                                                      // want `Launch of 42, which is not a function`
	_ = d.Launch(Saxpy, one, one, Params{N: 4}, host, yb)                           // want `argument for parameter x \[\]float32 is the host slice host \(\[\]float32\); pass a \*device.Buffer\[float32\] \(device.Upload copies`
	_ = d.LaunchWithin(8, Saxpy, one, one, Params{N: 4}, host, yb)                  // want `argument for parameter x \[\]float32 is the host slice host \(\[\]float32\); pass a \*device.Buffer\[float32\] \(device.Upload copies`
	_ = d.LaunchWithin(8, notKernel, one, one, xb)                                  // want `Launch of notKernel, which is not a //gpu:kernel function`
	_ = d.LaunchWithin(4, Scale, one, one, f64, int32(1), Idx(1), yb)               // want `argument for parameter a float32 has type float64; the types must match`
	_ = d.Launch(Saxpy, one, one, Params{N: 4}, ib, yb)                             // want `argument for parameter x \[\]float32 is a \*device.Buffer\[int\]; it needs a \*device.Buffer\[float32\]`
	_ = d.Launch(Saxpy, one, one, Params{N: 4}, xb)                                 // want `Launch of Saxpy with 2 arguments after the shapes, but the kernel takes 3 \(p Params, x \[\]float32, y \[\]float32\)`
	_ = d.Launch(Saxpy, one, one, Params{N: 4}, xb, yb, yb)                         // want `Launch of Saxpy with 4 arguments after the shapes, but the kernel takes 3`
	_ = d.Launch(Saxpy, one, one, 4, xb, yb)                                        // want `argument for parameter p Params is the constant 4, which Launch receives as int and cannot convert to Params$`
	_ = d.Launch(Saxpy, one, one, Params{N: 4}, nil, yb)                            // want `argument for parameter x \[\]float32 is nil`
	_ = d.Launch(Saxpy, one, one, xb, xb, yb)                                       // want `argument for parameter p Params is a device buffer, but the parameter is not a slice`
	_ = d.Launch(Scale, one, one, f64, int32(1), Idx(1), yb)                        // want `argument for parameter a float32 has type float64; the types must match`
	_ = d.Launch(Scale, one, one, float32(1), n, Idx(1), yb)                        // want `argument for parameter n int32 has type int; the types must match`
	_ = d.Launch(Scale, one, one, 2.5, int32(1), 1.5, yb)                           // want `argument for parameter k Idx is the constant 1.5, which Launch receives as float64 and cannot convert to Idx$`
	_ = d.Launch(Scale, one, one, 1, 1<<40, 1, yb)                                  // want `argument for parameter n int32 is the constant 1099511627776, which Launch receives as int and cannot convert to int32`
	_ = d.Launch(Scale, one, one, 'a', int32(1), Idx(1), yb)                        // want `argument for parameter a float32 is the constant 97, which Launch receives as rune and cannot convert to float32; write float32\('a'\)`
	_ = d.Launch(launchdep.Fill, one, gpu.Dim3{X: 256, Y: 1, Z: 1}, float32(1), yb) // want `Launch of Fill: block has extent 256 in X, but the kernel's //gpu:kernel directive fixes block=128,1,1`
	_ = d.Launch(Saxpy, one, gpu.Dim3{X: 256, Y: 2, Z: 1}, Params{}, xb, yb)        // want `Launch of Saxpy: block has extent 2 in Y, but Saxpy is 1-dimensional \(it never reads Y of an index or extent\), so the extent must be 1`
	_ = d.Launch(Saxpy, gpu.Dim3{X: n}, gpu.Dim3{X: 256}, Params{}, xb, yb)         // want `Launch of Saxpy: grid has extent 0 in Y, and Launch refuses extents below 1` `Launch of Saxpy: block has extent 0 in Y`
	_ = d.Launch(Grid2D, gpu.Dim3{4, 4, 2}, one, yb)                                // want `grid has extent 2 in Z, but Grid2D is 2-dimensional`
	block := gpu.Dim3{X: 64, Y: 4, Z: 1}
	_ = d.Launch(Saxpy, one, block, Params{}, xb, yb) // want `Launch of Saxpy: block has extent 4 in Y, but Saxpy is 1-dimensional`
	grid := gpu.Dim3{X: 64, Y: 4, Z: 1}
	grid.Y = 1
	_ = d.Launch(Saxpy, grid, one, Params{}, xb, yb)
}

func Good(d *device.Device, xb, yb *device.Buffer[float32], n int, args []any) error {
	grid := gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1}
	block := gpu.Dim3{X: 256, Y: 1, Z: 1}
	if err := d.Launch(Saxpy, grid, block, Params{N: n, Scale: 2}, xb, yb); err != nil {
		return err
	}
	// Untyped constants that the run time converts exactly.
	if err := d.Launch(Scale, grid, block, 2, 3, 4, yb); err != nil {
		return err
	}
	if err := d.Launch(Scale, grid, block, 0.5, 3.0, Idx(4), yb); err != nil {
		return err
	}
	if err := d.Launch(launchdep.Fill, gpu.Dim3{X: n / 128, Y: 1, Z: 1}, gpu.Dim3{X: 128, Y: 1, Z: 1}, float32(1), yb); err != nil {
		return err
	}
	if err := d.Launch(Grid2D, gpu.Dim3{X: 4, Y: 4, Z: 1}, gpu.Dim3{16, 16, 1}, yb); err != nil {
		return err
	}
	var k any = Saxpy
	if err := d.Launch(k, grid, block, args...); err != nil {
		return err
	}
	return d.Launch(Saxpy, grid, block, args...)
}
