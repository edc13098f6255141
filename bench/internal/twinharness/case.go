// Package twinharness is what the twin suites of bench (bench/kernels, the
// project's own kernels, and bench/heldout, kernels translated from public
// suites) share: a kernel pair at one size (Case), its run on the cpu
// backend, the comparison of results, the side-by-side timing against the
// nvcc twins on one GPU (RunTwins) and the timing of one kernel on two
// backends of package device (RunBackends).
package twinharness

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// Ref stands for the device address of Go argument i (a slice) in a
// twin's parameter list; LenOf for its length (an int64).
type (
	Ref   int
	LenOf int
)

// Case is one kernel pair at one problem size.
type Case struct {
	Name        string
	Fn          any   // the Go kernel
	Args        []any // Go arguments: scalars and slices (host data)
	Twin        []any // the CUDA twin's parameters: literals, Ref, LenOf
	Grid, Block gpu.Dim3
	Outs        []int   // indices of the output slices
	Tol         float64 // relative tolerance of float outputs (0: exact)
}

// Cases returns a suite's cases: at the timing sizes if big, else at sizes
// the cpu backend checks in seconds.
type Cases func(big bool) []Case

// header is a results table's heading: the title, the commit measured
// ($GPUKVET_COMMIT) and the time.
func header(title string) string {
	commit := os.Getenv("GPUKVET_COMMIT")
	if commit == "" {
		commit = "not given (GPUKVET_COMMIT)"
	}
	return fmt.Sprintf("# %s\n\ncommit %s, %s\n\n", title, commit, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
}

// Dim is a gpu.Dim3 literal.
func Dim(x, y, z int) gpu.Dim3 { return gpu.Dim3{X: x, Y: y, Z: z} }

// RandF32 returns n floats uniform in [-1, 1).
func RandF32(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

// CPUResult runs the Go kernel of c on the cpu backend and returns its
// outputs.
func CPUResult(t testing.TB, c Case) []any {
	d, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	return LaunchOnce(t, d, c)
}

// LaunchOnce runs c on d and returns its outputs.
func LaunchOnce(t testing.TB, d *device.Device, c Case) []any {
	args, bufs := deviceArgs(t, d, c, true)
	defer freeAll(bufs)
	if err := d.Launch(c.Fn, c.Grid, c.Block, args...); err != nil {
		t.Fatalf("%s on the %s backend: %v", c.Name, d.Backend(), err)
	}
	if err := d.Sync(); err != nil {
		t.Fatalf("%s on the %s backend: %v", c.Name, d.Backend(), err)
	}
	var outs []any
	for _, i := range c.Outs {
		m := reflect.ValueOf(bufs[i]).MethodByName("Download").Call(nil)
		if !m[1].IsNil() {
			t.Fatal(m[1].Interface())
		}
		outs = append(outs, m[0].Interface())
	}
	return outs
}

// freeAll frees the device buffers of deviceArgs.
func freeAll(bufs map[int]any) {
	for _, b := range bufs {
		reflect.ValueOf(b).MethodByName("Free").Call(nil)
	}
}

// deviceArgs returns c's arguments for d.Launch: a device buffer for each
// slice (by argument index in bufs too), holding the slice's data if
// upload, else zeroed; the value itself for any other argument.
func deviceArgs(t testing.TB, d *device.Device, c Case, upload bool) (args []any, bufs map[int]any) {
	bufs = map[int]any{}
	for i, a := range c.Args {
		switch a := a.(type) {
		case []float32:
			bufs[i] = buffer(t, d, a, upload)
		case []float64:
			bufs[i] = buffer(t, d, a, upload)
		case []int32:
			bufs[i] = buffer(t, d, a, upload)
		case []int64:
			bufs[i] = buffer(t, d, a, upload)
		case []uint8:
			bufs[i] = buffer(t, d, a, upload)
		case []uint32:
			bufs[i] = buffer(t, d, a, upload)
		default:
			args = append(args, a)
			continue
		}
		args = append(args, bufs[i])
	}
	return args, bufs
}

func buffer[T any](t testing.TB, d *device.Device, s []T, upload bool) *device.Buffer[T] {
	var b *device.Buffer[T]
	var err error
	if upload {
		b, err = device.Upload(d, s)
	} else {
		b, err = device.Alloc[T](d, len(s))
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Compare reports the first element where got differs from want beyond
// the relative tolerance tol (exactly for integers).
func Compare(got, want any, tol float64) error {
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	if g.Len() != w.Len() {
		return fmt.Errorf("length %d, want %d", g.Len(), w.Len())
	}
	for i := 0; i < g.Len(); i++ {
		switch g.Index(i).Kind() {
		case reflect.Float32, reflect.Float64:
			x, y := g.Index(i).Float(), w.Index(i).Float()
			if math.Abs(x-y) > tol*max(1, math.Abs(y)) || math.IsNaN(x) != math.IsNaN(y) {
				return fmt.Errorf("[%d] = %v, want %v", i, x, y)
			}
		default:
			if !g.Index(i).Equal(w.Index(i)) {
				return fmt.Errorf("[%d] = %v, want %v", i, g.Index(i), w.Index(i))
			}
		}
	}
	return nil
}

// CheckTwinLists checks, without a GPU, that every case's twin parameters
// name slices of its Go arguments and that every twin takes a buffer.
func CheckTwinLists(t testing.TB, cases Cases) {
	for _, c := range cases(false) {
		refs := 0
		for _, a := range c.Twin {
			if r, ok := a.(Ref); ok {
				refs++
				if int(r) >= len(c.Args) || reflect.ValueOf(c.Args[r]).Kind() != reflect.Slice {
					t.Errorf("%s: twin parameter refers to argument %d, not a slice", c.Name, r)
				}
			}
		}
		if refs == 0 {
			t.Errorf("%s: the twin takes no buffer", c.Name)
		}
	}
}
