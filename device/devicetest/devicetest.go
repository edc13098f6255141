// Package devicetest lets a test assert in one line that a kernel computes
// the same on every backend available where the test runs as on the cpu
// backend:
//
//	devicetest.Agree(t, saxpy.Saxpy, grid, block, float32(2), xs, ys)
//
// Slice arguments are host slices ([]T), uploaded to each backend; the other
// arguments are passed as they are. Each GPU backend that opens runs the
// launch under validation (device.WithValidation), which repeats it on the
// cpu backend from the same inputs and compares every buffer; without a GPU
// the kernel runs on the cpu backend alone, which still catches a trap or a
// broken barrier, and the test logs that no GPU backend was available.
package devicetest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// ULPs is the float bound Agree uses: floats may differ from the cpu
// backend's by this many units in the last place (fused multiply-adds and
// faster math functions on GPUs round differently).
var ULPs uint64 = device.DefaultULPs

// Agree launches kernel on every available backend and fails t (with
// t.Errorf) for each one whose results differ from the cpu backend's, or
// that reports an error.
func Agree(t testing.TB, kernel any, grid, block gpu.Dim3, args ...any) {
	t.Helper()
	gpus := 0
	for _, name := range device.Backends() {
		opts := []device.Option{device.WithValidation(device.Validation{ULPs: ULPs})}
		if name == "cpu" {
			if gpus > 0 {
				continue // the GPU runs compared with the cpu backend already
			}
			opts = nil
		}
		d, err := device.OpenBackend(name, opts...)
		if err != nil {
			continue // not available here
		}
		if name != "cpu" {
			gpus++
		}
		if err := run(d, kernel, grid, block, args); err != nil {
			t.Errorf("devicetest.Agree on the %s backend: %v", name, err)
		}
		if err := d.Close(); err != nil {
			t.Errorf("devicetest.Agree: closing the %s backend: %v", name, err)
		}
	}
	if gpus == 0 {
		t.Logf("devicetest.Agree: no GPU backend is available here; the kernel ran on the cpu backend only")
	}
}

// run uploads the slice arguments, launches, and syncs.
func run(d *device.Device, kernel any, grid, block gpu.Dim3, args []any) error {
	dargs := make([]any, len(args))
	var frees []func() error
	defer func() {
		for _, f := range frees {
			f()
		}
	}()
	for i, a := range args {
		v := reflect.ValueOf(a)
		if a == nil || v.Kind() != reflect.Slice {
			dargs[i] = a
			continue
		}
		b, free, err := upload(d, v)
		if err != nil {
			return fmt.Errorf("argument %d: %w", i+1, err)
		}
		frees = append(frees, free)
		dargs[i] = b
	}
	if err := d.Launch(kernel, grid, block, dargs...); err != nil {
		return err
	}
	return d.Sync()
}

// upload copies the host slice v to d as a *device.Buffer of its element
// type, through device.Upload's instantiation for that type.
func upload(d *device.Device, v reflect.Value) (any, func() error, error) {
	up, ok := uploaders[v.Type().Elem().Kind()]
	if !ok || v.Type().Elem().Kind() == reflect.Struct || v.Type().Elem().Name() != v.Type().Elem().Kind().String() {
		return nil, nil, fmt.Errorf("devicetest uploads slices of bool, integers, float32 and float64; upload a %v yourself and pass the *device.Buffer", v.Type())
	}
	return up(d, v)
}

func uploader[T any](d *device.Device, v reflect.Value) (any, func() error, error) {
	b, err := device.Upload(d, v.Interface().([]T))
	if err != nil {
		return nil, nil, err
	}
	return b, b.Free, nil
}

var uploaders = map[reflect.Kind]func(*device.Device, reflect.Value) (any, func() error, error){
	reflect.Bool: uploader[bool], reflect.Int: uploader[int], reflect.Int8: uploader[int8],
	reflect.Int16: uploader[int16], reflect.Int32: uploader[int32], reflect.Int64: uploader[int64],
	reflect.Uint: uploader[uint], reflect.Uint8: uploader[uint8], reflect.Uint16: uploader[uint16],
	reflect.Uint32: uploader[uint32], reflect.Uint64: uploader[uint64],
	reflect.Float32: uploader[float32], reflect.Float64: uploader[float64],
}
