package matmul

import (
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/internal/testdevice"
	"github.com/gpukvet/gpukvet/gpu"
)

func TestMatMul(t *testing.T) {
	d := testdevice.Open(t)
	const n, m, p = 37, 50, 21 // not multiples of the tile
	a, b := make([]float32, n*m), make([]float32, m*p)
	for i := range a {
		a[i] = float32(i%13) - 6
	}
	for i := range b {
		b[i] = float32(i%7)*0.5 - 1
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
	cb, err := device.Alloc[float32](d, n*p)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Free()
	grid := gpu.Dim3{X: (p + Tile - 1) / Tile, Y: (n + Tile - 1) / Tile, Z: 1}
	if err := d.Launch(MatMul, grid, gpu.Dim3{X: Tile, Y: Tile, Z: 1}, n, m, p, ab, bb, cb); err != nil {
		t.Fatal(err)
	}
	c, err := cb.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range p {
			var want float32
			for k := range m {
				want += a[i*m+k] * b[k*p+j]
			}
			// The inputs are small multiples of 0.5, so every product and
			// partial sum is exact in float32 in any order.
			if got := c[i*p+j]; got != want {
				t.Fatalf("c[%d][%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}
