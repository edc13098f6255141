package device_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/testdata/floatsum"
	"github.com/gpukvet/gpukvet/gpu"
)

// floatSum adds xs into four float32 and four float64 sums with float
// atomics: a correct kernel whose sums round differently in each order of
// the threads.
//
//gpu:kernel
func floatSum(t gpu.Thread, xs []float32, s32 []float32, s64 []float64) {
	if i := t.GlobalIdx().X; i < len(xs) {
		gpu.AtomicAdd(&s32[i%4], xs[i])
		gpu.AtomicAdd(&s64[i%4], float64(xs[i])*1.1)
	}
}

// mixedTerms returns n floats of both signs, in groups of eight whose
// second half cancels the first's large part (the kernels add xs[i] and
// xs[i+4] into one sum), so that each sum is small beside its partial
// sums and depends on the order of the additions by many ULPs.
func mixedTerms(n int) []float32 {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float32, n)
	for i := 0; i+8 <= n; i += 8 {
		for j := range 4 {
			big := float32(r.NormFloat64() * 1e6)
			xs[i+j] = big + float32(r.NormFloat64())
			xs[i+j+4] = -big + float32(r.NormFloat64()*1e-3)
		}
	}
	return xs
}

// TestValidateFloatAtomics validates a float atomic sum a thousand times
// on the cpu backend (validation compares two runs of the cpu backend,
// whose blocks run on several goroutines): a correct kernel must never
// fail validation (it did in about one launch in three, issue 24).
func TestValidateFloatAtomics(t *testing.T) {
	launches := 1000
	switch {
	case raceEnabled:
		launches = 20 // every thread a goroutine: 1 s a launch
	case testing.Short():
		launches = 100
	}
	d, err := device.OpenBackend("cpu", device.WithValidation(device.Validation{ULPs: device.DefaultULPs}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	validateFloatSum(t, d, launches)
}

func validateFloatSum(t *testing.T, d *device.Device, launches int) {
	t.Helper()
	xs := upload(t, d, mixedTerms(2048))
	s32 := upload(t, d, make([]float32, 4))
	s64 := upload(t, d, make([]float64, 4))
	for i := range launches {
		if err := d.Launch(floatSum, dim(64, 1, 1), dim(32, 1, 1), xs, s32, s64); err != nil {
			t.Fatal(err)
		}
		if err := d.Sync(); err != nil {
			t.Fatalf("launch %d of %d: %v", i+1, launches, err)
		}
	}
}

// TestValidateFloatAtomicsVulkan validates a float atomic sum on the
// vulkan backend (lavapipe in CI) against the cpu backend, with the
// kernel's SPIR-V compiled here.
func TestValidateFloatAtomicsVulkan(t *testing.T) {
	if raceEnabled {
		t.Skip("the run without -race covers the vulkan backend; under -race compiling the kernel alone takes half a minute")
	}
	d, err := device.OpenBackend("vulkan", device.WithValidation(device.Validation{ULPs: device.DefaultULPs}))
	if err != nil {
		t.Skipf("no Vulkan device here: %v", err)
	}
	defer d.Close()
	registerSPIRV(t, "github.com/gpukvet/gpukvet/device/testdata/floatsum", floatsum.Sum, "xs", "s32")
	xs := upload(t, d, mixedTerms(2048))
	s32 := upload(t, d, make([]float32, 4))
	for i := range 100 {
		if err := d.Launch(floatsum.Sum, dim(64, 1, 1), dim(32, 1, 1), xs, s32); err != nil {
			t.Fatal(err)
		}
		if err := d.Sync(); err != nil {
			t.Fatalf("launch %d: %v", i+1, err)
		}
	}
}
