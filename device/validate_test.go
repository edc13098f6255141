package device_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/gpu"
)

// wrongBackend is a backend that computes wrong results: it runs kernels on
// the cpu backend, then changes float32 buffers: element 5 by a lot and
// element 7 by one unit in the last place. It has no context methods, so
// package device waits for it on another goroutine.
type wrongBackend struct{ backend.Backend }

func (w wrongBackend) Name() string { return "wrong" }

func (w wrongBackend) Launch(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) error {
	if err := w.Backend.Launch(k, grid, block, args); err != nil {
		return err
	}
	for _, a := range args {
		if a.Mem == nil || a.Mem.Len() < 8 {
			continue
		}
		host := reflect.MakeSlice(reflect.TypeFor[[]float32](), a.Mem.Len(), a.Mem.Len())
		if w.Backend.Read(host, a.Mem) != nil {
			continue // not float32
		}
		xs := host.Interface().([]float32)
		xs[5] += 100
		xs[7] = math.Nextafter32(xs[7], float32(math.Inf(1)))
		w.Backend.Write(a.Mem, host)
	}
	return nil
}

//gpu:kernel
func scale(t gpu.Thread, a float32, xs []float32) {
	if i := t.GlobalIdx().X; i < len(xs) {
		xs[i] *= a
	}
}

func openWrong(t *testing.T, v device.Validation) *device.Device {
	be, _ := cpu.Open()
	d, err := device.New(wrongBackend{be}, device.WithValidation(v))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestValidationFindsWrongResults(t *testing.T) {
	d := openWrong(t, device.Validation{ULPs: 0})
	xs := upload(t, d, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	if err := d.Launch(scale, dim(1, 1, 1), dim(16, 1, 1), float32(2), xs); err != nil {
		t.Fatal(err)
	}
	err := d.Sync()
	if err == nil {
		t.Fatal("Sync reports no mismatch on a backend that computes wrong results")
	}
	for _, want := range []string{"validation of kernel github.com/gpukvet/gpukvet/device_test.scale parameter 2 (xs []float32)",
		"wrong backend and cpu backend differ", "2 of 10 elements differ", "[5]: cpu 12, device 112", "[7]: cpu 16, device 16.000002"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Sync's error lacks %q:\n%v", want, err)
		}
	}
	if err := d.Sync(); err != nil {
		t.Errorf("a second Sync reports again: %v", err)
	}

	// Within a bound of 1 ULP, element 7 agrees; per launch too.
	d = openWrong(t, device.Validation{ULPs: 1})
	xs = upload(t, d, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	if err := d.Launch(scale, dim(1, 1, 1), dim(16, 1, 1), float32(2), xs); err != nil {
		t.Fatal(err)
	}
	if _, err := xs.Download(); err == nil || !strings.Contains(err.Error(), "1 of 10 elements differ") {
		t.Errorf("Download = %v, want 1 mismatch", err)
	}
	if err := d.LaunchWithin(1000, scale, dim(1, 1, 1), dim(16, 1, 1), float32(2), xs); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(); err == nil || !strings.Contains(err.Error(), "1 of 10 elements differ") {
		t.Errorf("LaunchWithin(1000): %v, want element 5 only (100 is far more than 1000 ULPs of 24)", err)
	}
}

func TestValidationSampling(t *testing.T) {
	d := openWrong(t, device.Validation{Every: 3})
	xs := upload(t, d, make([]float32, 10))
	var reported []bool
	for range 6 {
		if err := d.Launch(scale, dim(1, 1, 1), dim(16, 1, 1), float32(1), xs); err != nil {
			t.Fatal(err)
		}
		reported = append(reported, d.Sync() != nil)
	}
	if want := []bool{true, false, false, true, false, false}; !reflect.DeepEqual(reported, want) {
		t.Errorf("mismatches reported %v, want %v (every third launch validated)", reported, want)
	}
}

func TestValidationOnCPUAgrees(t *testing.T) {
	t.Setenv("GPUKVET_VALIDATE", "1")
	d := openCPU(t)
	xs := upload(t, d, []int32{1, 2, 3, 4, 5})
	if err := d.Launch(addOne, dim(2, 1, 1), dim(4, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
}

func TestCompare(t *testing.T) {
	type pt struct {
		A int32
		B float64
	}
	for _, tc := range []struct {
		want, got any
		ulps      uint64
		err       string
	}{
		{[]float32{0, float32(math.NaN())}, []float32{float32(math.Copysign(0, -1)), float32(math.NaN())}, 0, ""},
		{[]float32{1}, []float32{math.Nextafter32(1, 2)}, 1, ""},
		{[]float32{math.SmallestNonzeroFloat32}, []float32{-math.SmallestNonzeroFloat32}, 2, ""},
		{[]float32{1}, []float32{-1}, 1000, "1 of 1 elements differ"},
		{[]pt{{1, 2}, {3, 4}}, []pt{{1, 2}, {3, 4.5}}, 0, "[1].B: cpu 4, device 4.5"},
		{[]bool{true}, []bool{false}, 0, "[0]: cpu true, device false"},
		{[]uint8{1, 2}, []uint8{1}, 0, "lengths differ"},
	} {
		err := device.Compare(tc.want, tc.got, tc.ulps)
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Compare(%v, %v, %d) = %v, want %q", tc.want, tc.got, tc.ulps, err, tc.err)
		}
	}
}

// TestCompareFusedCancellation: a device that fuses a*x + y (Go allows it)
// differs from the cpu backend by many ULPs where the result cancels to near
// zero, but never by more than an ULP of the buffer's scale; a real error
// is still caught.
func TestCompareFusedCancellation(t *testing.T) {
	const a = float32(1e-3)
	x := []float32{0.75, -0.5, 0.999, 0.123456}
	y := []float32{-0.00075001, 0.9, -0.000999, 0.5}
	want := make([]float32, len(x))
	got := make([]float32, len(x))
	for i := range x {
		want[i] = a*x[i] + y[i]
		got[i] = float32(math.FMA(float64(a), float64(x[i]), float64(y[i])))
	}
	if err := device.Compare(want, got, 4); err != nil {
		t.Errorf("fused against unfused: %v", err)
	}
	got[3] += 1e-4
	if err := device.Compare(want, got, 4); err == nil {
		t.Error("an error of 1e-4 on values of magnitude 1 passed")
	}
}
