// Package genlib holds generic device functions for kernels of other
// packages.
package genlib

// Number is what Clamp works on.
type Number interface {
	~int | ~int32 | ~float32 | ~float64
}

// Clamp limits x to [lo, hi].
//
//gpu:device
func Clamp[T Number](x, lo, hi T) T {
	return min(max(x, lo), hi)
}

// Pair is a generic struct.
type Pair[T Number] struct{ A, B T }

// Sum adds the pair.
//
//gpu:device
func (p Pair[T]) Sum() T { return p.A + p.B }
