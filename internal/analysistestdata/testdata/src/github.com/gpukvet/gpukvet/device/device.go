// Package device is a stub of github.com/gpukvet/gpukvet/device for
// analysistest: the same exported names and signatures, no behavior
// (TestStubsMatch in internal/analysistestdata keeps them equal; the names
// whose types come from device/backend are left out).
package device

import (
	"context"
	"time"

	"github.com/gpukvet/gpukvet/gpu"
)

type Device struct{ n int }

// The sentinel errors, for errors.Is.
var (
	ErrInvalid error
	ErrClosed  error
	ErrFreed   error
	ErrLaunch  error
	ErrTrap    error
	ErrTimeout error
)

type Option func(*Device) error

func Open(opts ...Option) (*Device, error)                     { return &Device{}, nil }
func OpenBackend(name string, opts ...Option) (*Device, error) { return &Device{}, nil }
func Backends() []string                                       { return nil }
func WithTimeout(d time.Duration) Option                       { return nil }

type Validation struct {
	ULPs  uint64
	Every int
}

const DefaultULPs = 4

func WithValidation(v Validation) Option                { return nil }
func Compare(want, got any, ulps uint64) error          { return nil }
func (d *Device) Close() error                          { return nil }
func (d *Device) Backend() string                       { return "cpu" }
func (d *Device) Sync() error                           { return nil }
func (d *Device) SyncContext(ctx context.Context) error { return nil }

type Buffer[T any] struct{ data []T }

func Alloc[T any](d *Device, n int) (*Buffer[T], error) { return &Buffer[T]{data: make([]T, n)}, nil }
func Upload[T any](d *Device, src []T) (*Buffer[T], error) {
	return &Buffer[T]{data: append([]T(nil), src...)}, nil
}
func (b *Buffer[T]) Len() int               { return len(b.data) }
func (b *Buffer[T]) Download() ([]T, error) { return append([]T(nil), b.data...), nil }
func (b *Buffer[T]) DownloadContext(ctx context.Context) ([]T, error) {
	return append([]T(nil), b.data...), nil
}
func (b *Buffer[T]) Free() error { return nil }

func (d *Device) Launch(kernel any, grid, block gpu.Dim3, args ...any) error { return nil }
func (d *Device) LaunchWithin(ulps uint64, kernel any, grid, block gpu.Dim3, args ...any) error {
	return nil
}

// KernelSpec lacks the real one's Code and CPU fields, of device/backend's
// types.
type KernelSpec struct {
	Params      []string
	Dims        int
	Block, Grid gpu.Dim3
}

func RegisterKernel(fn any, spec KernelSpec) error { return nil }
