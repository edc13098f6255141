package heldout

import (
	"errors"
	"math"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// Second round of the held-out set.

type withSlice struct {
	N    int
	Data []float32
}

type withString struct {
	N    int
	Name string
}

type nested struct {
	A vec2
	K int32
}

type Scalar float32

//gpu:kernel
func SliceFieldParam(t gpu.Thread, p withSlice, out []float32) { // want `withSlice`
	out[t.GlobalIdx().X] = float32(p.N)
}

//gpu:kernel
func StringFieldParam(t gpu.Thread, p withString, out []float32) { // want `withString`
	out[t.GlobalIdx().X] = float32(p.N)
}

//gpu:kernel
func NestedParam(t gpu.Thread, p nested, out []float32) {
	out[t.GlobalIdx().X] = p.A.X + float32(p.K)
}

//gpu:kernel
func ArrayParam(t gpu.Thread, w [4]float32, out []float32) { // want `\[4\]float32`
	out[t.GlobalIdx().X] = w[0]
}

//gpu:kernel
func ComplexParam(t gpu.Thread, c complex64, out []float32) { // want `complex64`
	out[t.GlobalIdx().X] = real(c)
}

//gpu:kernel
func FuncParam(t gpu.Thread, f func(float32) float32, out []float32) { // want `func`
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel
func NamedScalarParam(t gpu.Thread, s Scalar, out []float32) {
	out[t.GlobalIdx().X] = float32(s)
}

// apply takes a function value: device code cannot call one.
func apply(f func(float32) float32, x float32) float32 { // want `func`
	return f(x) // want `function value`
}

//gpu:kernel
func ApplyHelper(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	out[i] = apply(sq, out[i]) // want `sq`
}

//gpu:kernel
func ErrorsInKernel(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	if out[i] < 0 {
		panic(errors.New("negative")) // want `errors.New`
	}
}

//gpu:kernel block=256
func SharedTile(t gpu.Thread, out []float32) {
	tile := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	tile[i] = out[t.GlobalIdx().X]
	t.Barrier()
	row := tile[0:128]
	out[t.GlobalIdx().X] = row[i%128] + float32(math.MaxFloat32/1e38)
}

// tileRow returns a slice of the block's shared array: shared memory
// outlives the call.
func tileRow(t gpu.Thread) []float32 {
	tile := gpu.Shared[[256]float32](t)
	return tile[0:128]
}

// elem returns a pointer into device memory.
func elem(xs []float32, i int) *float32 { return &xs[i] }

//gpu:kernel block=256
func SharedThroughHelper(t gpu.Thread, out []float32) {
	row := tileRow(t)
	row[t.ThreadIdx().X%128] = 1
	t.Barrier()
	*elem(out, t.GlobalIdx().X) = row[0]
}

// acc is a device method with a pointer receiver on a local variable.
type acc struct{ sum float32 }

func (a *acc) add(x float32) { a.sum += x }

//gpu:kernel
func MethodOnLocal(t gpu.Thread, xs []float32, out []float32) {
	var a acc
	for _, x := range xs {
		a.add(x)
	}
	out[t.GlobalIdx().X] = a.sum
}

//gpu:kernel
func ClearAndCopy(t gpu.Thread, xs []float32, out []float32) {
	var tmp [8]float32
	clear(tmp[:])
	copy(tmp[:], xs)
	out[t.GlobalIdx().X] = tmp[0]
}

//gpu:kernel
func NamedScalarKernel(t gpu.Thread, s Scalar, n uint32, out []float32) {
	out[t.GlobalIdx().X] = float32(s) + float32(n)
}

func HostBad2(d *device.Device, xb *device.Buffer[float32], f float32, n int) {
	one := gpu.Dim3{X: 1, Y: 1, Z: 1}
	_ = d.Launch(NamedScalarKernel, one, one, f, uint32(1), xb)                                 // want `parameter s Scalar has type float32`
	_ = d.Launch(NamedScalarKernel, one, one, Scalar(1), -1, xb)                                // want `constant -1`
	_ = d.Launch(NamedScalarKernel, one, gpu.Dim3{X: -4, Y: 1, Z: 1}, Scalar(1), uint32(1), xb) // want `extent -4`
	_ = d.Launch(NestedParam, one, one, vec2{1, 2}, xb)                                         // want `vec2`
	_ = d.Launch(SharedTile, one, gpu.Dim3{X: 128, Y: 1, Z: 1}, xb)                             // want `block=256`
	var buf *device.Buffer[float64]
	_ = d.Launch(NamedScalarKernel, one, one, Scalar(1), uint32(1), buf) // want `Buffer\[float64\]`
}

func HostGood2(d *device.Device, xb *device.Buffer[float32], n int, args []any) error {
	one := gpu.Dim3{X: 1, Y: 1, Z: 1}
	if err := d.Launch(NamedScalarKernel, one, one, Scalar(1), uint32(1), xb); err != nil {
		return err
	}
	if err := d.Launch(NamedScalarKernel, one, one, 1.5, 3, xb); err != nil {
		return err
	}
	if err := d.Launch(NestedParam, one, one, nested{A: vec2{1, 2}, K: 3}, xb); err != nil {
		return err
	}
	if err := d.Launch(SharedTile, gpu.Dim3{X: n / 256, Y: 1, Z: 1}, gpu.Dim3{X: 256, Y: 1, Z: 1}, xb); err != nil {
		return err
	}
	return d.Launch(NamedScalarKernel, one, one, args...)
}
