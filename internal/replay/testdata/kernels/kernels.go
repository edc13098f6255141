// Package kernels holds the kernels the replay tests run.
package kernels

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Neighbour(t gpu.Thread, out []float32) {
	tile := gpu.Shared[[257]float32](t)
	i := t.ThreadIdx().X
	tile[i] = float32(i)
	out[t.GlobalIdx().X] = tile[i+1]
}

//gpu:kernel
func NeighbourBarrier(t gpu.Thread, out []float32) {
	tile := gpu.Shared[[257]float32](t)
	i := t.ThreadIdx().X
	tile[i] = float32(i)
	t.Barrier()
	out[t.GlobalIdx().X] = tile[i+1]
}

//gpu:kernel
func Row(t gpu.Thread, m []int32, w int) {
	i := t.GlobalIdx().X
	m[w*i-44] = 1
}

//gpu:kernel
func PastTheEnd(t gpu.Thread, m []int32, w int) {
	i := t.GlobalIdx().X
	m[len(m)+w*i] = 5
}

//gpu:kernel
func Flagged(t gpu.Thread, in []float32, flag []int32) {
	if in[t.GlobalIdx().X] > 0 {
		flag[0] = 1
	}
}

type pair struct{ a, b int32 }

// store is a device function holding the access.
func store(s *[64]pair, i int, v int32) { s[i].b = v }

//gpu:kernel
func Helper(t gpu.Thread, out []int32) {
	s := gpu.Shared[[64]pair](t)
	i := t.ThreadIdx().X
	store(s, i/2, int32(i))
	out[i] = s[i/2].b
}

//gpu:kernel
func Wrap(t gpu.Thread, out []int32) {
	var x uint8 = 250
	x += uint8(t.ThreadIdx().X) * 3
	out[x] = 1
}

//gpu:kernel
func Spin(t gpu.Thread, out []int32, n int) {
	for i := 0; i != n; i++ {
		out[0] += 1
	}
}

// HugeShared declares a shared array no device has (the checks report it;
// replay must not try to hold it).
//
//gpu:kernel
func HugeShared(t gpu.Thread, out []int32) {
	s := gpu.Shared[[1 << 36]int32](t)
	s[0] = 1
	out[0] = s[t.ThreadIdx().X]
}

// HugeLocal keeps a local array of 2^26 elements, and 64 of 2^20 in a loop.
//
//gpu:kernel
func HugeLocal(t gpu.Thread, out []int32) {
	var a [1 << 26]int32
	for i := range 64 {
		var b [1 << 20]int32
		b[i] = int32(i)
		a[i] = b[i]
	}
	out[0] = a[t.ThreadIdx().X]
}

// NegShift indexes by tid >> s: for a negative s every thread traps (Go
// panics on a negative signed shift count) before its store.
//
//gpu:kernel
func NegShift(t gpu.Thread, out []int32, s int) {
	out[t.ThreadIdx().X>>s] = 1
}

// CopyThenRead copies each thread's pair of elements into shared memory
// with the builtin copy, then reads its right neighbour's first one with
// no barrier between (lavaMD's particle copies).
//
//gpu:kernel
func CopyThenRead(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[16]float32](t)
	x := t.ThreadIdx().X
	copy(s[2*x:2*x+2], in[2*x:2*x+2])
	out[x] = s[2*x+2]
}
