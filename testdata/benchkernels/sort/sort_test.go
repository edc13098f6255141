package sort

import (
	"slices"
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestBitonicGlobal(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(23)
	n := 1024
	a := make([]int32, n)
	for i := range a {
		a[i] = int32(r.Intn(10000))
	}
	b := bt.Up(t, d, a)
	for k := 2; k <= n; k <<= 1 {
		for j := k >> 1; j > 0; j >>= 1 {
			bt.Run(t, d, Step, bt.Dim(n/256), bt.Dim(256), j, k, b)
		}
	}
	want := slices.Clone(a)
	slices.Sort(want)
	bt.Equal(t, "sorted", bt.Down(t, b), want)
}

func TestBitonicShared(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(24)
	n := 600 // the last block is padded
	a := r.Floats(n)
	b := bt.Up(t, d, a)
	bt.Run(t, d, Shared, bt.Dim(bt.Blocks(n, Block)), bt.Dim(Block), b)
	want := slices.Clone(a)
	for s := 0; s < n; s += Block {
		slices.Sort(want[s:min(s+Block, n)])
	}
	bt.Equal(t, "block-sorted", bt.Down(t, b), want)
}
