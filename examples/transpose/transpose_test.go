package transpose

import (
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/internal/testdevice"
	"github.com/gpukvet/gpukvet/gpu"
)

func TestTranspose(t *testing.T) {
	d := testdevice.Open(t)
	const width, height = 70, 45 // not multiples of the tile
	in := make([]float32, width*height)
	for i := range in {
		in[i] = float32(i)
	}
	inb, err := device.Upload(d, in)
	if err != nil {
		t.Fatal(err)
	}
	defer inb.Free()
	outb, err := device.Alloc[float32](d, width*height)
	if err != nil {
		t.Fatal(err)
	}
	defer outb.Free()
	grid := gpu.Dim3{X: (width + TileDim - 1) / TileDim, Y: (height + TileDim - 1) / TileDim, Z: 1}
	if err := d.Launch(Transpose, grid, gpu.Dim3{X: TileDim, Y: BlockRows, Z: 1}, width, height, inb, outb); err != nil {
		t.Fatal(err)
	}
	out, err := outb.Download()
	if err != nil {
		t.Fatal(err)
	}
	for y := range height {
		for x := range width {
			if got, want := out[x*height+y], in[y*width+x]; got != want {
				t.Fatalf("out[%d][%d] = %v, want %v", x, y, got, want)
			}
		}
	}
}
