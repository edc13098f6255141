// Package genpkg is a kernel package for gen's tests.
package genpkg

import (
	"time"

	"github.com/gpukvet/gpukvet/gpu"
)

//go:generate go tool gpukvet gen

// Point is a struct parameter.
type Point struct {
	X, Y float32
	N    int
}

// Saxpy computes y = a*x + y.
//
//gpu:kernel
func Saxpy(t gpu.Thread, a float32, x, y []float32) {
	i := t.GlobalIdx().X
	if i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

// Move takes a struct, a slice of structs from another package's type, and
// parameters named like the launch function's own.
//
//gpu:kernel block=64
func Move(t gpu.Thread, p Point, d []time.Duration, grid int, _ []Point, block bool) {
	i := t.GlobalIdx().X
	if i < len(d) && block {
		d[i] += time.Duration(p.N + grid)
	}
}

// Rotate calls a barrier through a device function, so that its cpu entry
// says it has barriers.
//
//gpu:kernel block=64 grid=1
func Rotate(t gpu.Thread, xs []int32) {
	tmp := gpu.Shared[[64]int32](t)
	i := t.ThreadIdx().X
	tmp[i] = xs[i]
	sync(t)
	xs[i] = tmp[(i+1)%64]
}

func sync(t gpu.Thread) { t.Barrier() }

// SwitchBarrier calls a barrier inside a switch, a shape gen does not
// split (the checks would refuse the divergence; gen's tests compile
// without them).
//
//gpu:kernel block=64
func SwitchBarrier(t gpu.Thread, xs []int32) {
	switch xs[0] {
	case 1:
		t.Barrier()
	}
}

// SplitLoop has a loop around a barrier and a struct local across it:
// gen splits it into per-phase loops.
//
//gpu:kernel block=64
func SplitLoop(t gpu.Thread, xs []int32) {
	p := Point{N: t.ThreadIdx().X}
	for s := 1; s < 64; s *= 2 {
		t.Barrier()
		p.N += s
	}
	xs[t.GlobalIdx().X] = int32(p.N)
}

// Deferred defers a call, which gen does not copy: its block loop calls
// the kernel per thread (the checks would refuse defer; gen's tests
// compile without them).
//
//gpu:kernel
func Deferred(t gpu.Thread, xs []int32) {
	defer done()
	xs[t.GlobalIdx().X] = 1
}

func done() {}
