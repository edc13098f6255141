package pathfinder

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func ref(rows, cols int, wall []int32) []int32 {
	prev := append([]int32(nil), wall[:cols]...)
	for r := 1; r < rows; r++ {
		cur := make([]int32, cols)
		for c := range cur {
			best := prev[c]
			if c > 0 {
				best = min(best, prev[c-1])
			}
			if c < cols-1 {
				best = min(best, prev[c+1])
			}
			cur[c] = best + wall[r*cols+c]
		}
		prev = cur
	}
	return prev
}

func TestSweep(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(14)
	rows, cols := 50, 200
	wall := make([]int32, rows*cols)
	for i := range wall {
		wall[i] = int32(r.Intn(10))
	}
	res := bt.Zeros[int32](t, d, cols)
	bt.Run(t, d, Sweep, bt.Dim(1), bt.Dim(Width), rows, cols, bt.Up(t, d, wall), res)
	bt.Equal(t, "sweep", bt.Down(t, res), ref(rows, cols, wall))
}

func TestStep(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(15)
	rows, cols := 12, 700 // three blocks, the last partial
	wall := make([]int32, rows*cols)
	for i := range wall {
		wall[i] = int32(r.Intn(10))
	}
	prev := bt.Up(t, d, wall[:cols])
	for row := 1; row < rows; row++ {
		next := bt.Zeros[int32](t, d, cols)
		bt.Run(t, d, Step, bt.Dim(bt.Blocks(cols, Width)), bt.Dim(Width), cols, prev, bt.Up(t, d, wall[row*cols:(row+1)*cols]), next)
		prev = next
	}
	bt.Equal(t, "step", bt.Down(t, prev), ref(rows, cols, wall))
}
