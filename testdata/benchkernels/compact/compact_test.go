package compact

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestCompact(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(26)
	n := 1500
	in := r.Floats(n)
	const threshold = 0.3
	var want []float32
	for _, v := range in {
		if v > threshold {
			want = append(want, v)
		}
	}
	blocks := bt.Blocks(n, Block)
	bin := bt.Up(t, d, in)
	pos, counts := bt.Zeros[int32](t, d, n), bt.Zeros[int32](t, d, blocks)
	bt.Run(t, d, Scan, bt.Dim(blocks), bt.Dim(Block), float32(threshold), bin, pos, counts)
	c := bt.Down(t, counts)
	offsets := make([]int32, blocks)
	for b := 1; b < blocks; b++ {
		offsets[b] = offsets[b-1] + c[b-1]
	}
	total := int(offsets[blocks-1] + c[blocks-1])
	if total != len(want) {
		t.Fatalf("kept %d elements, want %d", total, len(want))
	}
	out := bt.Zeros[float32](t, d, total)
	bt.Run(t, d, Scatter, bt.Dim(blocks), bt.Dim(Block), float32(threshold), bin, pos, bt.Up(t, d, offsets), out)
	bt.Equal(t, "compacted", bt.Down(t, out), want)
}
