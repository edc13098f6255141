package histogram

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestHist256(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(18)
	data := make([]uint32, 5000)
	for i := range data {
		data[i] = uint32(r.Intn(1<<31)) * 2
	}
	want := make([]uint32, Bins)
	for _, v := range data {
		want[v&0xff]++
		want[(v>>8)&0xff]++
		want[(v>>16)&0xff]++
		want[v>>24]++
	}
	hist := bt.Zeros[uint32](t, d, Bins)
	bt.Run(t, d, Hist256, bt.Dim(6), bt.Dim(Bins), bt.Up(t, d, data), hist)
	bt.Equal(t, "hist", bt.Down(t, hist), want)
}
