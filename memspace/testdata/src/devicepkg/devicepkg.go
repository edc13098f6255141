package devicepkg

import (
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Bad(t gpu.Thread, out []int) {
	d, _ := device.Open() // want `device.Open: kernel code cannot use package device`
	_ = d
}

//gpu:kernel
func Good(t gpu.Thread, out []int) {
	out[t.GlobalIdx().X] = 1
}

// Host code launches it.
func Host(d *device.Device, b *device.Buffer[int]) error {
	return d.Launch(Good, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}, b)
}
