package nw

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestTile(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(16)
	tiles := 4
	n := tiles * B
	w := n + 1
	const penalty = 10
	ref := make([]int32, w*w)
	for i := range ref {
		ref[i] = int32(r.Intn(21) - 10)
	}
	score := make([]int32, w*w)
	for i := 0; i < w; i++ {
		score[i*w] = int32(-i * penalty)
		score[i] = int32(-i * penalty)
	}
	want := append([]int32(nil), score...)
	for i := 1; i < w; i++ {
		for j := 1; j < w; j++ {
			want[i*w+j] = max(want[(i-1)*w+j-1]+ref[i*w+j], want[i*w+j-1]-penalty, want[(i-1)*w+j]-penalty)
		}
	}
	bs := bt.Up(t, d, score)
	br := bt.Up(t, d, ref)
	for diag := 0; diag < 2*tiles-1; diag++ {
		count := min(diag, tiles-1) - max(0, diag-tiles+1) + 1
		bt.Run(t, d, Tile, bt.Dim(count), bt.Dim(B), tiles, diag, int32(penalty), br, bs)
	}
	bt.Equal(t, "score", bt.Down(t, bs), want)
}
