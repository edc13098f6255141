package device_test

import (
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// fuzzParam is a kernel parameter type FuzzLaunchArgs may draw, and
// whether a kernel may have it.
var fuzzParams = []struct {
	t       reflect.Type
	allowed bool
}{
	{reflect.TypeFor[int](), true},
	{reflect.TypeFor[int32](), true},
	{reflect.TypeFor[uint8](), true},
	{reflect.TypeFor[float32](), true},
	{reflect.TypeFor[float64](), true},
	{reflect.TypeFor[bool](), true},
	{reflect.TypeFor[pair](), true},
	{reflect.TypeFor[[]int32](), true},
	{reflect.TypeFor[[]float32](), true},
	{reflect.TypeFor[[]pair](), true},
	{reflect.TypeFor[string](), false},
	{reflect.TypeFor[map[int]int](), false},
	{reflect.TypeFor[*int32](), false},
	{reflect.TypeFor[[]string](), false},
}

// fuzzArg is an argument FuzzLaunchArgs may pass, and the parameter types
// that accept it (Go's constant conversions for int and float64).
type fuzzArg struct {
	name    string
	value   func(f *fuzzEnv) any
	accepts func(t reflect.Type) bool
}

type fuzzEnv struct {
	i32, f32, pairs, freed, foreign any
}

func isType[T any](t reflect.Type) bool { return t == reflect.TypeFor[T]() }

var fuzzArgs = []fuzzArg{
	{"int 7", func(*fuzzEnv) any { return 7 }, func(t reflect.Type) bool {
		return isType[int](t) || isType[int32](t) || isType[uint8](t) || isType[float32](t) || isType[float64](t)
	}},
	{"int 1<<40", func(*fuzzEnv) any { return 1 << 40 }, func(t reflect.Type) bool {
		return isType[int](t) || isType[float32](t) || isType[float64](t)
	}},
	{"int -1", func(*fuzzEnv) any { return -1 }, func(t reflect.Type) bool {
		return isType[int](t) || isType[int32](t) || isType[float32](t) || isType[float64](t)
	}},
	{"float64 0.5", func(*fuzzEnv) any { return 0.5 }, func(t reflect.Type) bool { return isType[float32](t) || isType[float64](t) }},
	{"float64 2", func(*fuzzEnv) any { return 2.0 }, func(t reflect.Type) bool {
		return isType[int](t) || isType[int32](t) || isType[uint8](t) || isType[float32](t) || isType[float64](t)
	}},
	{"float64 1e300", func(*fuzzEnv) any { return 1e300 }, func(t reflect.Type) bool { return isType[float64](t) }},
	{"float32", func(*fuzzEnv) any { return float32(1) }, isType[float32]},
	{"int32", func(*fuzzEnv) any { return int32(3) }, isType[int32]},
	{"bool", func(*fuzzEnv) any { return true }, isType[bool]},
	{"nil", func(*fuzzEnv) any { return nil }, func(reflect.Type) bool { return false }},
	{"pair", func(*fuzzEnv) any { return pair{A: 1} }, isType[pair]},
	{"string", func(*fuzzEnv) any { return "s" }, func(reflect.Type) bool { return false }},
	{"buffer int32", func(e *fuzzEnv) any { return e.i32 }, isType[[]int32]},
	{"buffer float32", func(e *fuzzEnv) any { return e.f32 }, isType[[]float32]},
	{"buffer pair", func(e *fuzzEnv) any { return e.pairs }, isType[[]pair]},
	{"freed buffer int32", func(e *fuzzEnv) any { return e.freed }, func(reflect.Type) bool { return false }},
	{"foreign buffer int32", func(e *fuzzEnv) any { return e.foreign }, func(reflect.Type) bool { return false }},
	{"nil buffer", func(*fuzzEnv) any { return (*device.Buffer[int32])(nil) }, func(reflect.Type) bool { return false }},
	{"host slice", func(*fuzzEnv) any { return []int32{1} }, func(reflect.Type) bool { return false }},
}

// FuzzLaunchArgs builds a kernel of a random signature (reflect.MakeFunc)
// and launches it with a random argument list: Launch must accept exactly
// the lists that match (as the table above says), refuse the others with
// an error naming the kernel, and the accepted launches must run.
func FuzzLaunchArgs(f *testing.F) {
	f.Add([]byte{0, 7}, []byte{0, 12})
	f.Add([]byte{3, 8, 9}, []byte{3, 13, 12})
	f.Add([]byte{6, 9}, []byte{10, 14})
	f.Add([]byte{10}, []byte{11})
	f.Add([]byte{1, 2}, []byte{1, 0})
	f.Add([]byte{}, []byte{5})
	d, err := device.OpenBackend("cpu", device.WithTimeout(10*time.Second))
	if err != nil {
		f.Fatal(err)
	}
	other, _ := device.OpenBackend("cpu")
	env := &fuzzEnv{}
	env.i32, _ = device.Upload(d, make([]int32, 8))
	env.f32, _ = device.Upload(d, make([]float32, 8))
	env.pairs, _ = device.Upload(d, make([]pair, 8))
	freed, _ := device.Upload(d, make([]int32, 8))
	freed.Free()
	env.freed = freed
	env.foreign, _ = device.Upload(other, make([]int32, 8))
	f.Fuzz(func(t *testing.T, sig, args []byte) {
		if len(sig) > 6 || len(args) > 6 {
			return
		}
		in := []reflect.Type{reflect.TypeFor[gpu.Thread]()}
		allowed := true
		for _, b := range sig {
			p := fuzzParams[int(b)%len(fuzzParams)]
			in = append(in, p.t)
			allowed = allowed && p.allowed
		}
		var ran atomic.Int32
		fn := reflect.MakeFunc(reflect.FuncOf(in, nil, false), func([]reflect.Value) []reflect.Value {
			ran.Add(1)
			return nil
		}).Interface()
		err := device.RegisterKernel(fn, device.KernelSpec{Dims: 1})
		if (err == nil) != allowed {
			t.Fatalf("RegisterKernel(%v) = %v, want allowed=%v", in, err, allowed)
		}
		if err != nil {
			return
		}
		var list []any
		ok := len(args) == len(sig)
		var names []string
		for i, b := range args {
			a := fuzzArgs[int(b)%len(fuzzArgs)]
			names = append(names, a.name)
			list = append(list, a.value(env))
			if i < len(sig) && !a.accepts(in[1+i]) {
				ok = false
			}
		}
		err = d.Launch(fn, dim(2, 1, 1), dim(3, 1, 1), list...)
		if (err == nil) != ok {
			t.Fatalf("Launch(%v) with %v = %v, want accepted=%v", in[1:], names, err, ok)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "device.Launch reflect.makeFuncStub") {
				t.Fatalf("error does not name the kernel: %v", err)
			}
			return
		}
		if err := d.Sync(); err != nil {
			t.Fatalf("Sync: %v", err)
		}
		if ran.Load() != 6 {
			t.Fatalf("%d threads ran, want 6", ran.Load())
		}
	})
}

//gpu:kernel
func count1(t gpu.Thread, c []int64) { gpu.AtomicAdd(&c[0], int64(1+0*t.GlobalIdx().X)) }

//gpu:kernel
func count3(t gpu.Thread, c []int64) {
	g := t.GlobalIdx()
	gpu.AtomicAdd(&c[0], int64(1+0*(g.Y+g.Z)))
}

//gpu:kernel block=8,2,1
func countFixed(t gpu.Thread, c []int64) {
	g := t.GlobalIdx()
	gpu.AtomicAdd(&c[0], int64(1+0*g.Y))
}

// FuzzLaunchShape launches counting kernels (1-D, 3-D, and one whose
// block= is fixed) on random grid and block shapes: Launch either refuses
// the shape with an error naming the kernel, or every thread runs exactly
// once; never a panic or a hang.
func FuzzLaunchShape(f *testing.F) {
	f.Add(uint8(0), 1, 1, 1, 1, 1, 1)
	f.Add(uint8(1), 2, 3, 4, 5, 2, 3)
	f.Add(uint8(2), 3, 1, 1, 8, 2, 1)
	f.Add(uint8(0), 1<<31-1, 1, 1, 1024, 1, 1)
	f.Add(uint8(1), 0, -1, 1, 1, 1, 1)
	f.Add(uint8(1), 1<<20, 1<<20, 1<<20, 1024, 1, 1)
	f.Add(uint8(0), 1, 1, 1, 2048, 1, 1)
	d, err := device.OpenBackend("cpu", device.WithTimeout(5*time.Second))
	if err != nil {
		f.Fatal(err)
	}
	kernels := []any{count1, count3, countFixed}
	maxThreads := int64(1 << 16)
	if raceEnabled {
		maxThreads = 1 << 12
	}
	f.Fuzz(func(t *testing.T, which uint8, gx, gy, gz, bx, by, bz int) {
		k := kernels[int(which)%len(kernels)]
		grid, block := dim(gx, gy, gz), dim(bx, by, bz)
		threads := int64(1)
		for _, x := range []int{gx, gy, gz, bx, by, bz} {
			if x > 0 && threads <= 1<<40/int64(x) {
				threads *= int64(x)
			} else {
				threads = 1 << 40
			}
		}
		// Accepted shapes this large take too long to count (under the
		// race detector, where every thread is a goroutine, 2^15 threads
		// ran past the 5 s deadline at load 25 on 2 cores).
		if threads > maxThreads && threads < 1<<40 {
			return
		}
		zero, _ := device.Upload(d, []int64{0})
		defer zero.Free()
		err := d.Launch(k, grid, block, zero)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "device.Launch github.com/gpukvet/gpukvet/device_test.count") {
				t.Fatalf("error does not name the kernel: %v", err)
			}
			return
		}
		if threads >= 1<<40 {
			t.Fatalf("Launch accepted grid %v block %v", grid, block)
		}
		got, err := zero.Download()
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != threads {
			t.Fatalf("grid %v block %v: %d threads ran, want %s", grid, block, got[0], fmt.Sprint(threads))
		}
	})
}
