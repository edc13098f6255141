package vecadd

import (
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/internal/testdevice"
	"github.com/gpukvet/gpukvet/gpu"
)

func TestVecAdd(t *testing.T) {
	d := testdevice.Open(t)
	const n, block = 5000, 128
	a, b := make([]float32, n), make([]float32, n)
	for i := range a {
		a[i] = float32(i) * 0.5
		b[i] = float32(n - 2*i)
	}
	ab, err := device.Upload(d, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ab.Free()
	bb, err := device.Upload(d, b)
	if err != nil {
		t.Fatal(err)
	}
	defer bb.Free()
	cb, err := device.Alloc[float32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Free()
	grid := gpu.Dim3{X: (n + block - 1) / block, Y: 1, Z: 1}
	if err := d.Launch(VecAdd, grid, gpu.Dim3{X: block, Y: 1, Z: 1}, ab, bb, cb); err != nil {
		t.Fatal(err)
	}
	c, err := cb.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i := range c {
		if want := a[i] + b[i]; c[i] != want {
			t.Fatalf("c[%d] = %v, want %v", i, c[i], want)
		}
	}
}
