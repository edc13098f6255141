// Package matmul multiplies matrices with shared-memory tiles: each block
// computes a Tile×Tile tile of the product, loading one tile of each operand
// into shared memory per step, so every element loaded from global memory is
// used Tile times.
package matmul

//go:generate go tool gpukvet gen

import "github.com/gpukvet/gpukvet/gpu"

// Tile is the side of a tile and of a block.
const Tile = 16

// MatMul computes c = a×b for row-major matrices a (n×m), b (m×p) and c (n×p).
// Launch it on a grid of ⌈p/Tile⌉ × ⌈n/Tile⌉ blocks.
//
//gpu:kernel block=16,16
func MatMul(t gpu.Thread, n, m, p int, a, b, c []float32) {
	as := gpu.Shared[[Tile][Tile]float32](t)
	bs := gpu.Shared[[Tile][Tile]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.GlobalIdx().Y
	col := t.GlobalIdx().X
	var sum float32
	for k0 := 0; k0 < m; k0 += Tile {
		var av, bv float32
		if row < n && k0+tx < m {
			av = a[row*m+k0+tx]
		}
		if k0+ty < m && col < p {
			bv = b[(k0+ty)*p+col]
		}
		as[ty][tx] = av
		bs[ty][tx] = bv
		t.Barrier()
		for k := 0; k < Tile; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	if row < n && col < p {
		c[row*p+col] = sum
	}
}
