package heldout

// Round 3 (issue 13, HELDOUT-host.md): kernels translated from public suites
// (Parboil, SHOC, CUDA by Example, HeCBench) and host code in the style of
// cuda-samples' vectorAdd/simpleTemplates/matrixMul drivers, written and
// scored before memspace was changed for them.

import (
	"fmt"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// Parboil sgemm keeps the tile sizes in __constant__ memory; a Go
// package-level variable is host memory.
var tileParams = [2]int{16, 16}

//gpu:kernel
func SgemmConstTile(t gpu.Thread, a, b, c []float32, n int) {
	i := t.GlobalIdx().X
	if i < n {
		c[i] = a[i] * b[i] * float32(tileParams[0]) // want `package-level variable`
	}
}

//gpu:kernel
func SgemmLocalTile(t gpu.Thread, a, b, c []float32, n int) {
	tp := [2]int{16, 16}
	i := t.GlobalIdx().X
	if i < n {
		c[i] = a[i] * b[i] * float32(tp[0])
	}
}

// SHOC md: the neighbour-list cutoff table read through a map.
//
//gpu:kernel
func MdCutoffMap(t gpu.Thread, pos, force []float32) {
	cut := map[int]float32{0: 1.5, 1: 2.5} // want `map`
	i := t.GlobalIdx().X
	force[i] = pos[i] * cut[i%2]
}

//gpu:kernel
func MdCutoffSwitch(t gpu.Thread, pos, force []float32) {
	i := t.GlobalIdx().X
	var c float32
	switch i % 2 {
	case 0:
		c = 1.5
	default:
		c = 2.5
	}
	force[i] = pos[i] * c
}

// cuda-samples simplePrintf: printf from a kernel.
//
//gpu:kernel
func PrintfKernel(t gpu.Thread, val int, out []float32) {
	if t.GlobalIdx().X == 0 {
		panic(fmt.Sprintf("value %d", val)) // want `fmt.Sprintf`
	}
	out[t.GlobalIdx().X] = float32(val)
}

// CUDA by Example julia: a device function on a small value struct.
type complexF struct{ r, i float32 }

func mulC(a, b complexF) complexF { return complexF{a.r*b.r - a.i*b.i, a.i*b.r + a.r*b.i} }

//gpu:kernel block=16,16
func JuliaStep(t gpu.Thread, dim int, out []int32) {
	x, y := t.GlobalIdx().X, t.GlobalIdx().Y
	if x >= dim || y >= dim {
		return
	}
	z := complexF{1.5 * float32(dim/2-x) / float32(dim/2), 1.5 * float32(dim/2-y) / float32(dim/2)}
	c := complexF{-0.8, 0.156}
	k := int32(0)
	for ; k < 200; k++ {
		z = mulC(z, z)
		z = complexF{z.r + c.r, z.i + c.i}
		if z.r*z.r+z.i*z.i > 1000 {
			break
		}
	}
	out[y*dim+x] = k
}

// HeCBench-style stencil whose helper returns a pointer into a local array
// (the address of thread-local memory escaping its function).
func neighbour(vals [3]float32, k int) *float32 {
	return &vals[k] // want `local`
}

//gpu:kernel
func StencilEscape(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	v := [3]float32{in[i], in[i] * 2, in[i] * 3}
	out[i] = *neighbour(v, 1)
}

func neighbourVal(vals [3]float32, k int) float32 { return vals[k] }

//gpu:kernel
func StencilValue(t gpu.Thread, in, out []float32) {
	i := t.GlobalIdx().X
	v := [3]float32{in[i], in[i] * 2, in[i] * 3}
	out[i] = neighbourVal(v, 1)
}

//gpu:kernel
func VectorAdd(t gpu.Thread, a, b, c []float32, n int) {
	if i := t.GlobalIdx().X; i < n {
		c[i] = a[i] + b[i]
	}
}

//gpu:kernel
func ScaleInt(t gpu.Thread, k int32, out []int32) {
	if i := t.GlobalIdx().X; i < len(out) {
		out[i] *= k
	}
}

type kernelSet struct {
	add   func(gpu.Thread, []float32, []float32, []float32, int)
	scale any
}

// HostVectorAddBad is cuda-samples' vectorAdd driver with the mistakes the
// launch checks exist for, spelled the ways host code hides the kernel.
func HostVectorAddBad(d *device.Device, a, b, c *device.Buffer[float32], ib *device.Buffer[int32], n int) {
	grid := gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1}
	addLit := func(t gpu.Thread, a, b, c []float32, n int) {}
	_ = d.Launch(addLit, grid, block256, a, b, c, n) // want `function literal`
	var later func(gpu.Thread, []float32, []float32, []float32, int)
	later = func(t gpu.Thread, a, b, c []float32, n int) {}
	_ = d.Launch(later, grid, block256, a, b, c, n) // want `function literal`
	k := VectorAdd
	_ = d.Launch(k, grid, block256, a, b, c, 2.5) // want `constant 2.5`
	_ = d.Launch(k, grid, block256, a, b, ib, n)  // want `Buffer\[int32\]`
	_ = d.Launch(k, grid, block256, a, b, c)      // want `3 arguments`
	ks := map[string]any{"add": VectorAdd, "scale": ScaleInt}
	_ = d.Launch(ks["scale"], grid, block256, 1.5, ib) // want `constant 1.5`
	set := kernelSet{add: func(t gpu.Thread, a, b, c []float32, n int) {}, scale: ScaleInt}
	_ = d.Launch(set.add, grid, block256, a, b, c, n) // want `function literal`
	_ = d.Launch(set.scale, grid, block256, 'x', ib)  // a rune is an int32: fine
	r := &runner{d: d}
	step := r.step
	_ = d.Launch(step, grid, block256, c)             // want `method`
	_ = d.Launch(ScaleInt, grid, block256, 1<<40, ib) // want `constant 1099511627776`
	_ = d.Launch(ScaleInt, grid, block256, 3.0, ib)
}

// HostVectorAddGood is the same driver written right: every spelling of the
// kernel names a //gpu:kernel function and every constant converts.
func HostVectorAddGood(d *device.Device, a, b, c *device.Buffer[float32], ib *device.Buffer[int32], n int) error {
	grid := gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1}
	k := VectorAdd
	if err := d.Launch(k, grid, block256, a, b, c, n); err != nil {
		return err
	}
	ks := map[string]any{"add": VectorAdd, "scale": ScaleInt}
	if err := d.Launch(ks["scale"], grid, block256, 3, ib); err != nil {
		return err
	}
	set := kernelSet{add: VectorAdd, scale: ScaleInt}
	if err := d.Launch(set.add, grid, block256, a, b, c, 1024); err != nil {
		return err
	}
	var chosen func(gpu.Thread, []float32, []float32, []float32, int) = VectorAdd
	if n > 1<<20 {
		chosen = VectorAdd
	}
	return d.Launch(chosen, grid, block256, a, b, c, n)
}
