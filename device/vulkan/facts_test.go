package vulkan_test

import (
	"math/rand"
	"testing"

	"github.com/gpukvet/gpukvet/bench/kernels"
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/device/vulkan"
	"github.com/gpukvet/gpukvet/gpu"
)

// recorder is the vulkan backend with Launch noting, before it launches,
// which entry point the backend chooses (LaunchChoice, Launch's own
// choice) and for which code.
type recorder struct {
	*vulkan.Backend
	code  *backend.Code
	fast  []bool
	calls int
}

func (r *recorder) Launch(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) error {
	fast, err := r.Backend.LaunchChoice(k, grid, block, args)
	if err != nil {
		return err
	}
	r.code = k.Code
	r.fast = append(r.fast, fast)
	return r.Backend.Launch(k, grid, block, args)
}

// TestLaunchFacts launches bench/kernels.Stencil2D, whose code has a
// variant assuming its launch facts (the slices hold nx*ny elements, the
// extents are in range), once where the facts hold and once where they do
// not (slices shorter than nx*ny, on a grid that stays inside them): the
// backend must start the variant in the first and the kernel in the
// second, and both must compute what the cpu backend does.
func TestLaunchFacts(t *testing.T) {
	vb, err := vulkan.OpenBackend()
	if err != nil {
		t.Fatalf("no Vulkan device (scripts/install-vulkan.sh installs lavapipe): %v", err)
	}
	rec := &recorder{Backend: vb}
	d, err := device.New(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cb, err := cpu.Open()
	if err != nil {
		t.Fatal(err)
	}
	cd, err := device.New(cb)
	if err != nil {
		t.Fatal(err)
	}
	defer cd.Close()

	const nx, ny = 64, 64
	block := gpu.Dim3{X: 32, Y: 8, Z: 1}
	r := rand.New(rand.NewSource(1))
	for _, c := range []struct {
		name string
		n    int      // length of in and out
		grid gpu.Dim3 // blocks
		fast bool
	}{
		{"facts hold", nx * ny, gpu.Dim3{X: nx / 32, Y: ny / 8, Z: 1}, true},
		// Half the rows: the facts (lengths of nx*ny) fail, and the grid
		// covers only the first 16 rows, whose stencil stays in the slices.
		{"short slices", nx * ny / 2, gpu.Dim3{X: nx / 32, Y: 2, Z: 1}, false},
	} {
		in := make([]float32, c.n)
		for i := range in {
			in[i] = r.Float32()
		}
		run := func(d *device.Device) []float32 {
			bin, err := device.Upload(d, in)
			if err != nil {
				t.Fatal(err)
			}
			bout, err := device.Upload(d, make([]float32, c.n))
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Launch(kernels.Stencil2D, c.grid, block, nx, ny, float32(0.5), float32(0.125), bin, bout); err != nil {
				t.Fatalf("%s: %s: %v", c.name, d.Backend(), err)
			}
			out, err := bout.Download()
			if err != nil {
				t.Fatalf("%s: %s: %v", c.name, d.Backend(), err)
			}
			bin.Free()
			bout.Free()
			return out
		}
		before := len(rec.fast)
		got := run(d)
		if len(rec.fast) != before+1 {
			t.Fatalf("%s: %d launches reached the vulkan backend, want 1", c.name, len(rec.fast)-before)
		}
		if rec.code == nil || rec.code.EntryFast == "" || rec.code.Facts == nil {
			t.Fatalf("%s: Stencil2D's code has no launch-facts variant (regenerate bench/kernels with gpukvet gen)", c.name)
		}
		if fast := rec.fast[before]; fast != c.fast {
			t.Errorf("%s: the vulkan backend chose the fast variant: %v, want %v", c.name, fast, c.fast)
		}
		want := run(cd)
		nonzero := 0
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: out[%d] = %v on vulkan, %v on cpu", c.name, i, got[i], want[i])
			}
			if want[i] != 0 {
				nonzero++
			}
		}
		if nonzero == 0 {
			t.Fatalf("%s: the kernel wrote nothing", c.name)
		}
	}
}
