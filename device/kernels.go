package device

import (
	"errors"
	"reflect"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// TODO(cpu backend): kernel metadata (registered, or parsed from the
// kernel's source), argument checks, element type checks.

func lookupKernel(fn any) (*backend.Kernel, error) {
	return nil, errors.New("device.Launch: not implemented")
}

func checkLaunch(k *backend.Kernel, grid, block gpu.Dim3, args []any) ([]backend.Arg, error) {
	return nil, errors.New("device.Launch: not implemented")
}

func checkElem[T any](op string) error {
	_ = reflect.TypeFor[T]()
	return nil
}

// Open opens the backend that GPUKVET_DEVICE names, or the first working
// GPU backend, else cpu.
func Open() (*Device, error) {
	return nil, errors.New("device.Open: not implemented")
}
