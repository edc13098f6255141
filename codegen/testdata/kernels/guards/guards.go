// Package guards holds kernels that state their preconditions in a
// uniform guard at their top, for the tests of what the optimizer makes
// of those guards (codegen/guards_test.go): a guard that dominates an
// access is a fact, and a wrong guard must leave the access's check.
package guards

import "github.com/gpukvet/gpukvet/gpu"

// T is the edge of the matmul tile.
const T = 32

// MatMulGuarded is the 32×32 shared-tile matmul with the guard of issue
// 22: n a multiple of 32 and one block column per 32 columns. Its loop's
// checks are hoisted into one uniform test before the loop.
//
//gpu:kernel block=32,32
func MatMulGuarded(t gpu.Thread, n int, a, b, c []float32) {
	if n%T != 0 || t.GridDim().X*T != n {
		panic("n must be a multiple of 32 and the grid n/32 blocks wide")
	}
	as := gpu.Shared[[T][T]float32](t)
	bs := gpu.Shared[[T][T]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*T + ty
	col := t.BlockIdx().X*T + tx
	var sum float32
	for k0 := 0; k0 < n; k0 += T {
		as[ty][tx] = a[row*n+k0+tx]
		bs[ty][tx] = b[(k0+ty)*n+col]
		t.Barrier()
		for k := 0; k < T; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	if row < n {
		c[row*n+col] = sum
	}
}

// MatMulFullGuard states every size it assumes: the grid n/32 blocks on
// each side and every matrix n×n. No bounds check is left in it.
//
//gpu:kernel block=32,32
func MatMulFullGuard(t gpu.Thread, n int, a, b, c []float32) {
	if n%T != 0 || t.GridDim().X*T != n || t.GridDim().Y*T != n {
		panic("n must be a multiple of 32 and the grid n/32 × n/32 blocks")
	}
	if len(a) < n*n || len(b) < n*n || len(c) < n*n {
		return
	}
	as := gpu.Shared[[T][T]float32](t)
	bs := gpu.Shared[[T][T]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*T + ty
	col := t.BlockIdx().X*T + tx
	var sum float32
	for k0 := 0; k0 < n; k0 += T {
		as[ty][tx] = a[row*n+k0+tx]
		bs[ty][tx] = b[(k0+ty)*n+col]
		t.Barrier()
		for k := 0; k < T; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	c[row*n+col] = sum
}

// MatMulWrongGuard guards the wrong multiple: with n a multiple of 16
// only, the last tile reads past the row, so its checks stay in the
// plain entry's loop, behind a test that n is a multiple of 32.
//
//gpu:kernel block=32,32
func MatMulWrongGuard(t gpu.Thread, n int, a, b, c []float32) {
	if n%16 != 0 || t.GridDim().X*T < n {
		panic("n must be a multiple of 16, the grid as wide as n")
	}
	as := gpu.Shared[[T][T]float32](t)
	bs := gpu.Shared[[T][T]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*T + ty
	col := t.BlockIdx().X*T + tx
	var sum float32
	for k0 := 0; k0 < n; k0 += T {
		as[ty][tx] = a[row*n+k0+tx]
		bs[ty][tx] = b[(k0+ty)*n+col]
		t.Barrier()
		for k := 0; k < T; k++ {
			sum += as[ty][k] * bs[k][tx]
		}
		t.Barrier()
	}
	if row < n && col < n {
		c[row*n+col] = sum
	}
}

// Ring reads a ring buffer whose length is a power of two, as its guard
// requires: i&(n-1) lies in [0, n).
//
//gpu:kernel
func Ring(t gpu.Thread, n int, ring, out []float32) {
	if n <= 0 || n&(n-1) != 0 || len(ring) < n {
		panic("the ring's length must be a power of two")
	}
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = ring[i&(n-1)]
	}
}

// BlockSum sums 256 elements per block through a shared array sized for
// the block its guard requires.
//
//gpu:kernel
func BlockSum(t gpu.Thread, in, out []float32) {
	if t.BlockDim().X != 256 {
		panic("BlockSum needs 256 threads per block")
	}
	tile := gpu.Shared[[256]float32](t)
	tx := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var v float32
	if i < len(in) {
		v = in[i]
	}
	tile[tx] = v
	t.Barrier()
	for s := 128; s > 0; s /= 2 {
		if tx < s {
			tile[tx] += tile[tx+s]
		}
		t.Barrier()
	}
	if tx == 0 && t.BlockIdx().X < len(out) {
		out[t.BlockIdx().X] = tile[0]
	}
}

// Columns sums, per thread, columns r%4 to cols-1 of a column-major
// matrix from column k0 on, in the thread's row: a[r+(k0+j)*ld] has a
// coefficient of j that is no constant, and the loop starts at a thread
// value, so no guard bounds it; the loop is versioned on the index at
// its first and last j (kir/looplinear.go).
//
//gpu:kernel block=64
func Columns(t gpu.Thread, a []float32, ld, k0, cols int, out []float32) {
	r := t.GlobalIdx().X
	var s float32
	for j := r & 3; j < cols; j++ {
		s += a[r+(k0+j)*ld]
	}
	out[r] = s
}

// Panels sums, per thread, column m of panels of 4 rows from every 4th
// row below k, w rows each: the inner loop's index m+(i+j)*ld is bounded
// through the guards (m < ld, k%4 == 0) and both counters' ranges, the
// outer one's included, by tests of uniform values: the launch-facts
// variant has no check left in its loops.
//
//gpu:kernel block=64
func Panels(t gpu.Thread, a []float32, ld, k, w int, out []float32) {
	if t.GridDim().X*64 != ld || k%4 != 0 {
		panic("the grid must be ld/64 blocks and k a multiple of 4")
	}
	m := t.GlobalIdx().X
	var s float32
	for i := 0; i < k; i += 4 {
		for j := 0; j < w; j++ {
			s += a[m+(i+j)*ld]
		}
	}
	out[m] = s
}
