// Package outofbounds holds twins for "an index out of range is not an
// access": Go's bounds check traps before the access, so two threads that
// would meet only at a negative index, or past a slice's end, never race.
// Each clean kernel has a racy twin whose collision is in range.
package outofbounds

import "github.com/gpukvet/gpukvet/gpu"

// RowNegative: w*i-44 is one element for every thread only when w = 0,
// and that element, -44, traps.
//
//gpu:kernel
func RowNegative(t gpu.Thread, m []int32, w int) {
	i := t.GlobalIdx().X
	m[w*i-44] = 1
}

// RowInRange: with w = 0 every thread writes m[44].
//
//gpu:kernel
func RowInRange(t gpu.Thread, m []int32, w int) {
	i := t.GlobalIdx().X
	m[w*i+44] = 1 // want `data race on global m: thread \d+ and thread \d+ both write m\[44\]`
}

// LocalNegative spells the index through locals and a row offset.
//
//gpu:kernel
func LocalNegative(t gpu.Thread, m []float32, w, h int) {
	i := t.GlobalIdx().X
	row := i * w
	idx := row - h - 1
	if h < 0 {
		return
	}
	m[idx] = 2
}

// LocalInRange is its racy twin.
//
//gpu:kernel
func LocalInRange(t gpu.Thread, m []float32, w, h int) {
	i := t.GlobalIdx().X
	row := i * w
	idx := row + h + 1
	if h < 0 {
		return
	}
	m[idx] = 2 // want `data race on global m`
}

// at is a device function computing the index.
func at(i, w, off int) int { return w*i + off }

// HelperNegative computes the index in a device function.
//
//gpu:kernel
func HelperNegative(t gpu.Thread, m []int32, w int) {
	m[at(t.GlobalIdx().X, w, -7)] = 3
}

// HelperInRange is its racy twin.
//
//gpu:kernel
func HelperInRange(t gpu.Thread, m []int32, w int) {
	m[at(t.GlobalIdx().X, w, 7)] = 3 // want `data race on global m`
}

// ReadNegative: a write and a read that meet only at a negative index.
//
//gpu:kernel
func ReadNegative(t gpu.Thread, m, out []int32, w int) {
	i := t.GlobalIdx().X
	m[w*i-1] = 4
	out[i] = m[w*i-1]
}

// ReadInRange is its racy twin.
//
//gpu:kernel
func ReadInRange(t gpu.Thread, m, out []int32, w int) {
	i := t.GlobalIdx().X
	m[w*i] = 4      // want `data race on global m: thread 0 and thread 1 both write m\[0\]`
	out[i] = m[w*i] // want `data race on global m`
}

// PastTheEnd: len(m)+w*i is past the end for every thread when w = 0.
//
//gpu:kernel
func PastTheEnd(t gpu.Thread, m []int32, w int) {
	i := t.GlobalIdx().X
	m[len(m)+w*i] = 5
}

// SharedNegative: a shared array's index, w*i-1, repeats only at -1.
//
//gpu:kernel
func SharedNegative(t gpu.Thread, out []int32, w int) {
	s := gpu.Shared[[256]int32](t)
	i := t.ThreadIdx().X
	s[w*i-1] = 6
	t.Barrier()
	out[t.GlobalIdx().X] = s[i]
}

// ---- the end of a subslice ----

// RowSlice: row i of a w-wide matrix as a subslice: j past the row's end
// traps on row[j] instead of reaching row i+1.
//
//gpu:kernel
func RowSlice(t gpu.Thread, a []float32, w int) {
	j := t.GlobalIdx().X
	i := t.GlobalIdx().Y
	if (i+1)*w > len(a) {
		return
	}
	row := a[i*w : (i+1)*w]
	row[j] += 1
}

// RowSliceTwoRows: the subslice holds two rows, so thread (j+w, i)
// reaches thread (j, i+1)'s element.
//
//gpu:kernel
func RowSliceTwoRows(t gpu.Thread, a []float32, w int) {
	j := t.GlobalIdx().X
	i := t.GlobalIdx().Y
	if (i+2)*w > len(a) {
		return
	}
	row := a[i*w : (i+2)*w]
	row[j] += 1 // want `data race on global a`
}

// A subslice from a helper, its end a parameter's.
func tail(a []float32, from, n int) []float32 { return a[from : from+n] }

// TailSlice: block b's threads index the n elements from b*n.
//
//gpu:kernel
func TailSlice(t gpu.Thread, a []float32, n int) {
	s := tail(a, t.BlockIdx().X*n, n)
	s[t.ThreadIdx().X] = 0
}

// TailSliceLong: n+1 elements from b*n: the last thread of block b and
// the first of block b+1 meet.
//
//gpu:kernel
func TailSliceLong(t gpu.Thread, a []float32, n int) {
	s := tail(a, t.BlockIdx().X*n, n+1)
	s[t.ThreadIdx().X] = 0 // want `data race on global a`
}

// ---- the start of a subslice ----

// RowSliceDataColumn: the column comes from data; a negative one traps on
// row[c] instead of reaching row i-1 (Rodinia streamcluster's
// lower[center_table[…]]).
//
//gpu:kernel
func RowSliceDataColumn(t gpu.Thread, a []float32, col []int32, w int) {
	i := t.GlobalIdx().X
	if (i+1)*w > len(a) {
		return
	}
	row := a[i*w : (i+1)*w]
	row[col[i]] += 1
}

// RowSliceDataColumnTwoRows: rows i and i+1 in one subslice: thread i's
// second row is thread i+1's first.
//
//gpu:kernel
func RowSliceDataColumnTwoRows(t gpu.Thread, a []float32, col []int32, w int) {
	i := t.GlobalIdx().X
	if (i+2)*w > len(a) {
		return
	}
	row := a[i*w : (i+2)*w]
	row[col[i]] += 1 // want `data race on global a`
}

// NestedCells: a block's n elements, then a thread's four of them; the
// data-chosen cell is at or above the thread's first.
//
//gpu:kernel
func NestedCells(t gpu.Thread, a []float32, k []int32, n int) {
	blk := a[t.BlockIdx().X*n : (t.BlockIdx().X+1)*n]
	x := t.ThreadIdx().X
	cell := blk[4*x : 4*x+4]
	cell[k[t.GlobalIdx().X]] = 1
}

// NestedCellsFive: five elements a thread: its last is its neighbour's
// first.
//
//gpu:kernel
func NestedCellsFive(t gpu.Thread, a []float32, k []int32, n int) {
	blk := a[t.BlockIdx().X*n : (t.BlockIdx().X+1)*n]
	x := t.ThreadIdx().X
	cell := blk[4*x : 4*x+5]
	cell[k[t.GlobalIdx().X]] = 1 // want `data race on global a`
}

// TailSliceBehind: s[x-1] of block b's n elements: thread 0 traps on s[-1]
// instead of reaching block b-1's last element.
//
//gpu:kernel
func TailSliceBehind(t gpu.Thread, a []float32, n int) {
	s := tail(a, t.BlockIdx().X*n, n)
	s[t.ThreadIdx().X-1] = 0
}

// TailSliceBehindLong: n+1 elements from b*n: thread n+1 of block b
// reaches thread 1 of block b+1.
//
//gpu:kernel
func TailSliceBehindLong(t gpu.Thread, a []float32, n int) {
	s := tail(a, t.BlockIdx().X*n, n+1)
	s[t.ThreadIdx().X-1] = 0 // want `data race on global a`
}
