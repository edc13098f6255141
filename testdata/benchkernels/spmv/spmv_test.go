package spmv

import (
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestSpMV(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(17)
	rows, ncols := 300, 250
	rowPtr := []int32{0}
	var cols []int32
	var vals []float32
	for i := 0; i < rows; i++ {
		nnz := r.Intn(12)
		if i%50 == 0 {
			nnz = 150 // a long row for the vector kernel's stride loop
		}
		for k := 0; k < nnz; k++ {
			cols = append(cols, int32(r.Intn(ncols)))
			vals = append(vals, r.Float())
		}
		rowPtr = append(rowPtr, int32(len(cols)))
	}
	x := r.Floats(ncols)
	want := make([]float32, rows)
	for i := 0; i < rows; i++ {
		for k := rowPtr[i]; k < rowPtr[i+1]; k++ {
			want[i] += vals[k] * x[cols[k]]
		}
	}
	br, bc, bv, bx := bt.Up(t, d, rowPtr), bt.Up(t, d, cols), bt.Up(t, d, vals), bt.Up(t, d, x)
	y1, y2 := bt.Zeros[float32](t, d, rows), bt.Zeros[float32](t, d, rows)
	bt.Run(t, d, CSR, bt.Dim(bt.Blocks(rows, 128)), bt.Dim(128), br, bc, bv, bx, y1)
	bt.Run(t, d, CSRVector, bt.Dim(rows), bt.Dim(64), br, bc, bv, bx, y2)
	bt.Near(t, "csr", bt.Down(t, y1), want, 1e-5)
	bt.Near(t, "csr vector", bt.Down(t, y2), want, 1e-4)
}
