// Package device is a stub of github.com/gpukvet/gpukvet/device for the
// ownership tests: the exported names and signatures of DIALECT.md, no
// behavior.
package device

import "github.com/gpukvet/gpukvet/gpu"

type Device struct{ n int }

func Open() (*Device, error)      { return &Device{}, nil }
func (d *Device) Close() error    { return nil }
func (d *Device) Backend() string { return "cpu" }

type Buffer[T any] struct{ data []T }

func Alloc[T any](d *Device, n int) (*Buffer[T], error) { return &Buffer[T]{data: make([]T, n)}, nil }
func Upload[T any](d *Device, src []T) (*Buffer[T], error) {
	return &Buffer[T]{data: append([]T(nil), src...)}, nil
}
func (b *Buffer[T]) Len() int               { return len(b.data) }
func (b *Buffer[T]) Download() ([]T, error) { return append([]T(nil), b.data...), nil }
func (b *Buffer[T]) Free() error            { return nil }

func (d *Device) Launch(kernel any, grid, block gpu.Dim3, args ...any) error { return nil }
func (d *Device) Sync() error                                                { return nil }
