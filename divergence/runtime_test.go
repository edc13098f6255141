package divergence_test

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
	corpus "github.com/gpukvet/gpukvet/testdata/corpus/divergence"
)

// TestCorpusRuntime runs every corpus kernel on the cpu backend with the
// launch its doc comment gives, and checks the static verdict against
// execution: a divergent kernel must fail with the backend's error for a
// barrier not every thread reached (or, for expect=trap, with its trap), a
// clean kernel must run without error.
func TestCorpusRuntime(t *testing.T) {
	t.Setenv("GPUKVET_DEVICE", "cpu")
	d, err := device.Open()
	if err != nil {
		t.Fatalf("the cpu backend, which every build has, does not open: %v", err)
	}
	defer d.Close()
	kernels := readCorpus(t)
	if len(kernels) != len(corpus.Kernels) {
		t.Errorf("corpus.Kernels lists %d kernels, the sources hold %d: update testdata/corpus/divergence/kernels.go", len(corpus.Kernels), len(kernels))
	}
	for _, k := range kernels {
		t.Run(k.Name, func(t *testing.T) {
			fn, ok := corpus.Kernels[k.Name]
			if !ok {
				t.Fatalf("kernel %s is missing from corpus.Kernels", k.Name)
			}
			err := launch(d, fn, k)
			switch {
			case !k.Divergent && err != nil:
				t.Errorf("clean kernel failed at run time: %v", err)
			case k.Divergent && k.Launch["expect"] == "trap":
				if err == nil || !strings.Contains(err.Error(), "panic") {
					t.Errorf("want a trap (panic) at run time, got %v", err)
				}
			case k.Divergent:
				if err == nil || !strings.Contains(err.Error(), "barrier") {
					t.Errorf("want the run-time barrier error, got %v", err)
				}
			}
			if err != nil {
				t.Logf("run time: %v", err)
			}
		})
	}
}

// runtimeOutcomes runs every corpus kernel on the cpu backend and describes
// what happened, for the report.
func runtimeOutcomes(t *testing.T, kernels []*corpusKernel) map[string]string {
	out := map[string]string{}
	t.Setenv("GPUKVET_DEVICE", "cpu")
	d, err := device.Open()
	if err != nil {
		for _, k := range kernels {
			out[k.Name] = "not run: " + err.Error()
		}
		return out
	}
	defer d.Close()
	barrierAt := regexp.MustCompile(`barriers?,? (at )?(\S+/)?([^/\s]+\.go:\d+)`)
	for _, k := range kernels {
		fn, ok := corpus.Kernels[k.Name]
		if !ok {
			out[k.Name] = "not in corpus.Kernels"
			continue
		}
		switch err := launch(d, fn, k); {
		case err == nil:
			out[k.Name] = "ran without error"
		case strings.Contains(err.Error(), "panic"):
			out[k.Name] = "trapped (panic)"
		case strings.Contains(err.Error(), "barrier"):
			if m := barrierAt.FindStringSubmatch(err.Error()); m != nil {
				out[k.Name] = "barrier error (" + m[3] + ")"
			} else {
				out[k.Name] = "barrier error"
			}
		default:
			out[k.Name] = "other error: " + err.Error()
		}
	}
	return out
}

// launch runs kernel fn as its launch line says and returns the launch's or
// the run's error.
func launch(d *device.Device, fn any, k *corpusKernel) error {
	block, err := dim(k.Launch["block"], 64)
	if err != nil {
		return err
	}
	grid, err := dim(k.Launch["grid"], 1)
	if err != nil {
		return err
	}
	n := 1024
	if s := k.Launch["len"]; s != "" {
		if n, err = strconv.Atoi(s); err != nil {
			return err
		}
	}
	zero := k.Launch["fill"] == "zero"
	ft := reflect.TypeOf(fn)
	var args []any
	var frees []func() error
	defer func() {
		for _, f := range frees {
			f()
		}
	}()
	for i := 1; i < ft.NumIn(); i++ {
		pt := ft.In(i)
		name := k.Params[i-1]
		if pt.Kind() == reflect.Slice {
			buf, free, err := upload(d, pt.Elem(), n, zero)
			if err != nil {
				return err
			}
			frees = append(frees, free)
			args = append(args, buf)
			continue
		}
		s, ok := k.Launch[name]
		if !ok {
			return fmt.Errorf("launch line of %s gives no value for parameter %s", k.Name, name)
		}
		v := reflect.New(pt).Elem()
		switch pt.Kind() {
		case reflect.Int, reflect.Int32, reflect.Int64:
			x, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return err
			}
			v.SetInt(x)
		case reflect.Bool:
			x, err := strconv.ParseBool(s)
			if err != nil {
				return err
			}
			v.SetBool(x)
		case reflect.Float32, reflect.Float64:
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return err
			}
			v.SetFloat(x)
		default:
			return fmt.Errorf("parameter %s of %s: type %v not supported by the corpus launcher", name, k.Name, pt)
		}
		args = append(args, v.Interface())
	}
	if err := d.Launch(fn, grid, block, args...); err != nil {
		return err
	}
	return d.Sync()
}

// upload makes a buffer of n elements of type elem, zero or holding 0, 1,
// 2, ...
func upload(d *device.Device, elem reflect.Type, n int, zero bool) (any, func() error, error) {
	switch elem.Kind() {
	case reflect.Float32:
		return fill[float32](d, n, zero)
	case reflect.Float64:
		return fill[float64](d, n, zero)
	case reflect.Int32:
		return fill[int32](d, n, zero)
	case reflect.Int:
		return fill[int](d, n, zero)
	case reflect.Uint32:
		return fill[uint32](d, n, zero)
	case reflect.Int64:
		return fill[int64](d, n, zero)
	}
	return nil, nil, fmt.Errorf("slice of %v not supported by the corpus launcher", elem)
}

func fill[T float32 | float64 | int32 | int | uint32 | int64](d *device.Device, n int, zero bool) (any, func() error, error) {
	host := make([]T, n)
	if !zero {
		for i := range host {
			host[i] = T(i)
		}
	}
	b, err := device.Upload(d, host)
	if err != nil {
		return nil, nil, err
	}
	return b, b.Free, nil
}

func dim(s string, def int) (gpu.Dim3, error) {
	if s == "" {
		return gpu.Dim3{X: def, Y: 1, Z: 1}, nil
	}
	d := [3]int{1, 1, 1}
	for i, part := range strings.Split(s, ",") {
		if i >= 3 {
			return gpu.Dim3{}, fmt.Errorf("shape %q has more than three dimensions", s)
		}
		x, err := strconv.Atoi(part)
		if err != nil {
			return gpu.Dim3{}, fmt.Errorf("shape %q: %v", s, err)
		}
		d[i] = x
	}
	return gpu.Dim3{X: d[0], Y: d[1], Z: d[2]}, nil
}
