package histogram

import (
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/internal/testdevice"
	"github.com/gpukvet/gpukvet/gpu"
)

func TestHistogram(t *testing.T) {
	d := testdevice.Open(t)
	data := make([]uint8, 100_003)
	x := uint32(1)
	for i := range data {
		x = x*1664525 + 1013904223
		data[i] = uint8(x >> 24)
		if i%5 == 0 {
			data[i] = 42 // one tall bin
		}
	}
	var want [Bins]uint32
	for _, v := range data {
		want[v]++
	}
	db, err := device.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	hb, err := device.Alloc[uint32](d, Bins)
	if err != nil {
		t.Fatal(err)
	}
	defer hb.Free()
	if err := d.Launch(Histogram, gpu.Dim3{X: 13, Y: 1, Z: 1}, gpu.Dim3{X: Bins, Y: 1, Z: 1}, db, hb); err != nil {
		t.Fatal(err)
	}
	hist, err := hb.Download()
	if err != nil {
		t.Fatal(err)
	}
	for v := range want {
		if hist[v] != want[v] {
			t.Errorf("bin %d = %d, want %d", v, hist[v], want[v])
		}
	}
}
