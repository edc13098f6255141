// Package lib is the corpus's other package: constructors, functions that
// take or free buffers, and a struct that owns buffers.
package lib

import (
	"errors"

	"github.com/gpukvet/gpukvet/device"
)

// NewBuf returns a new buffer that the caller must free.
func NewBuf(d *device.Device, n int) (*device.Buffer[float32], error) {
	return device.Alloc[float32](d, n)
}

// Release frees b.
func Release(b *device.Buffer[float32]) {
	if err := b.Free(); err != nil {
		panic(err)
	}
}

var registry = map[string]*device.Buffer[float32]{}

// Register keeps b; the registry frees it later.
func Register(name string, b *device.Buffer[float32]) {
	registry[name] = b
}

// Sum reads b and keeps nothing.
func Sum(b *device.Buffer[float32]) float32 {
	xs, err := b.Download()
	if err != nil {
		return 0
	}
	var s float32
	for _, x := range xs {
		s += x
	}
	return s
}

// Pair owns two buffers.
type Pair struct {
	X, Y *device.Buffer[float32]
}

// Close frees both buffers.
func (p *Pair) Close() error {
	return errors.Join(p.X.Free(), p.Y.Free())
}

// NewPair allocates both buffers of a Pair.
func NewPair(d *device.Device, n int) (*Pair, error) {
	x, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	y, err := device.Alloc[float32](d, n)
	if err != nil {
		x.Free()
		return nil, err
	}
	return &Pair{X: x, Y: y}, nil
}
