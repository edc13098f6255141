// Package bt holds the helpers the benchmark kernels' tests share: opening
// the cpu device, moving data and comparing results with a plain-Go reference.
package bt

import (
	"math"
	"os"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// Open opens the device GPUKVET_DEVICE names (cpu when unset) and closes it
// when the test ends.
func Open(t testing.TB) *device.Device {
	t.Helper()
	if os.Getenv("GPUKVET_DEVICE") == "" {
		t.Setenv("GPUKVET_DEVICE", "cpu")
	}
	d, err := device.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// Up uploads src and frees the buffer when the test ends.
func Up[T any](t testing.TB, d *device.Device, src []T) *device.Buffer[T] {
	t.Helper()
	b, err := device.Upload(d, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

// Zeros allocates n zeroed elements, freed when the test ends.
func Zeros[T any](t testing.TB, d *device.Device, n int) *device.Buffer[T] {
	t.Helper()
	b, err := device.Alloc[T](d, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

// Down downloads b.
func Down[T any](t testing.TB, b *device.Buffer[T]) []T {
	t.Helper()
	v, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Dim returns a Dim3 with missing extents 1.
func Dim(x int, yz ...int) gpu.Dim3 {
	d := gpu.Dim3{X: x, Y: 1, Z: 1}
	if len(yz) > 0 {
		d.Y = yz[0]
	}
	if len(yz) > 1 {
		d.Z = yz[1]
	}
	return d
}

// Run launches kernel and waits for it.
func Run(t testing.TB, d *device.Device, kernel any, grid, block gpu.Dim3, args ...any) {
	t.Helper()
	if err := d.Launch(kernel, grid, block, args...); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
}

// Blocks is ⌈n/b⌉.
func Blocks(n, b int) int { return (n + b - 1) / b }

// Near reports elements of got farther than tol (relative to max(1,|want|))
// from want.
func Near[F float32 | float64](t testing.TB, name string, got, want []F, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: len %d, want %d", name, len(got), len(want))
	}
	bad := 0
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		if math.Abs(g-w) > tol*math.Max(1, math.Abs(w)) || math.IsNaN(g) != math.IsNaN(w) {
			if bad++; bad <= 5 {
				t.Errorf("%s[%d] = %v, want %v", name, i, g, w)
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d elements differ", name, bad)
	}
}

// Equal reports elements of got that differ from want.
func Equal[T comparable](t testing.TB, name string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: len %d, want %d", name, len(got), len(want))
	}
	bad := 0
	for i := range want {
		if got[i] != want[i] {
			if bad++; bad <= 5 {
				t.Errorf("%s[%d] = %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d elements differ", name, bad)
	}
}

// Rand is a small deterministic generator for test inputs.
type Rand uint64

// Float returns a value in [-1, 1).
func (r *Rand) Float() float32 {
	*r = *r*6364136223846793005 + 1442695040888963407
	return float32(int32(*r>>33)) / (1 << 30)
}

// Intn returns a value in [0, n).
func (r *Rand) Intn(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int(uint64(*r>>33) % uint64(n))
}

// Floats returns n values in [-1, 1).
func (r *Rand) Floats(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float()
	}
	return v
}
