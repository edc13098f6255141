package kmeans

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestAssign(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(12)
	n, k, nf := 500, 5, 4
	features, centres := r.Floats(n*nf), r.Floats(k*nf)
	member := make([]int32, n)
	for i := range member {
		member[i] = int32(i % k)
	}
	want := make([]int32, n)
	var changed int32
	for i := 0; i < n; i++ {
		best, bestD := 0, float32(3.4e38)
		for c := 0; c < k; c++ {
			var dd float32
			for f := 0; f < nf; f++ {
				df := features[i*nf+f] - centres[c*nf+f]
				dd += df * df
			}
			if dd < bestD {
				best, bestD = c, dd
			}
		}
		want[i] = int32(best)
		if member[i] != want[i] {
			changed++
		}
	}
	bm, delta := bt.Up(t, d, member), bt.Zeros[int32](t, d, 1)
	bt.Run(t, d, Assign, bt.Dim(bt.Blocks(n, 256)), bt.Dim(256), n, k, nf, bt.Up(t, d, features), bt.Up(t, d, centres), bm, delta)
	bt.Equal(t, "member", bt.Down(t, bm), want)
	bt.Equal(t, "delta", bt.Down(t, delta), []int32{changed})
}
