package dims

import (
	"dimsdep"

	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func OneD(t gpu.Thread, out []float32) { // want OneD:"gpu kernel dims=1$"
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel block=16,16
func TwoD(t gpu.Thread, out []float32) { // want TwoD:"gpu kernel dims=2 block=16,16,1$"
	i := t.GlobalIdx()
	out[i.Y*t.GridDim().X+i.X] = 1
}

//gpu:kernel grid=1
func ThreeDViaHelper(t gpu.Thread, out []float32) { // want ThreeDViaHelper:"gpu kernel dims=3 grid=1,1,1$"
	out[z(t)] = 1
}

func z(t gpu.Thread) int { return t.ThreadIdx().Z }

//gpu:kernel
func TwoDViaOtherPackage(t gpu.Thread, out []float32) { // want TwoDViaOtherPackage:"gpu kernel dims=2$"
	out[dimsdep.Row(t)+dimsdep.Col(t)] = 1
}

//gpu:kernel
func ThreeDViaOtherPackage(t gpu.Thread, out []float32) { // want ThreeDViaOtherPackage:"gpu kernel dims=3$"
	out[dimsdep.Depth(t)] = 1
}

// A Y field of another struct is not a dimension.
type pair struct{ X, Y int }

//gpu:kernel
func NotADim3(t gpu.Thread, out []float32) { // want NotADim3:"gpu kernel dims=1$"
	p := pair{1, 2}
	out[t.GlobalIdx().X+p.Y] = 1
}

// Recursion must not hang discovery.
func ping(t gpu.Thread, n int) int {
	if n == 0 {
		return t.ThreadIdx().Y
	}
	return pong(t, n-1)
}

func pong(t gpu.Thread, n int) int { return ping(t, n) }

//gpu:kernel
func Cyclic(t gpu.Thread, out []int) { // want Cyclic:"gpu kernel dims=2$"
	out[0] = ping(t, 3)
}

// SharedAcross declares 20000 bytes itself and 32768 through dimsdep.Tile:
// the sum overflows at the call of Tile.
//
//gpu:kernel
func SharedAcross(t gpu.Thread, out []float32) { // want SharedAcross:"gpu kernel dims=1$"
	s := gpu.Shared[[5000]float32](t)
	out[t.GlobalIdx().X] = s[0] + dimsdep.Tile(t)
}

// A gpu.Dim3 argument is launch data: its Y is no dimension of the kernel.
//
//gpu:kernel
func Dim3Argument(t gpu.Thread, d gpu.Dim3, out []int) { // want Dim3Argument:"gpu kernel dims=1$"
	out[t.GlobalIdx().X] = d.Y + d.Z
}

// A Dim3 argument that the kernel overwrites with a thread's index is one.
//
//gpu:kernel
func Dim3ArgumentOverwritten(t gpu.Thread, d gpu.Dim3, out []int) { // want Dim3ArgumentOverwritten:"gpu kernel dims=2$"
	d = t.ThreadIdx()
	out[t.GlobalIdx().X] = d.Y
}

// A device function's Dim3 parameter may be a thread's index.
func row(d gpu.Dim3) int { return d.Y }

//gpu:kernel
func Dim3ThroughHelper(t gpu.Thread, out []int) { // want Dim3ThroughHelper:"gpu kernel dims=2$"
	out[t.GlobalIdx().X] = row(t.ThreadIdx())
}

// A kernel that another kernel calls is a device function there: what it
// reads of its Dim3 argument counts for the caller, which passes a
// thread's index.
//
//gpu:kernel
func Dim3ArgumentCalled(t gpu.Thread, d gpu.Dim3, out []int) { // want Dim3ArgumentCalled:"gpu kernel dims=1$"
	out[t.GlobalIdx().X] = d.Y
}

//gpu:kernel
func Dim3ThroughKernel(t gpu.Thread, out []int) { // want Dim3ThroughKernel:"gpu kernel dims=2$"
	Dim3ArgumentCalled(t, t.ThreadIdx(), out)
}
