package device_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
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

// TestValidationRepeated: launch after launch, on buffers of different
// lengths (the cpu copies of one launch are reused by the next where they
// fit), every mismatch is still reported with the launch's own values.
func TestValidationRepeated(t *testing.T) {
	d := openWrong(t, device.Validation{ULPs: 0})
	xs := upload(t, d, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	ys := upload(t, d, make([]float32, 20))
	for i, tc := range []struct {
		buf  *device.Buffer[float32]
		a    float32
		want []string
	}{
		{xs, 2, []string{"2 of 10 elements differ", "[5]: cpu 12, device 112"}},
		{xs, 1, []string{"2 of 10 elements differ", "[5]: cpu 112, device 212"}},
		{ys, 1, []string{"2 of 20 elements differ", "[5]: cpu 0, device 100", "[7]: cpu 0, device 1e-45"}},
		{xs, 1, []string{"2 of 10 elements differ", "[5]: cpu 212, device 312"}},
	} {
		if err := d.Launch(scale, dim(2, 1, 1), dim(16, 1, 1), tc.a, tc.buf); err != nil {
			t.Fatal(err)
		}
		err := d.Sync()
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("launch %d: Sync = %v, want %q", i, err, w)
			}
		}
	}
}

// TestCompareChunks checks Compare, which works in parallel chunks and
// skips runs of equal bytes, against a plain element-by-element reference
// on buffers of several chunks with differences at chunk edges.
func TestCompareChunks(t *testing.T) {
	const n = 3<<16 + 17
	at := []int{n - 1, 1 << 16, 1<<16 - 1, 2<<16 + 511, 2<<16 + 512, 7}
	r := rand.New(rand.NewPCG(5, 6))
	w32 := make([]float32, n)
	for i := range w32 {
		w32[i] = r.Float32()*4 - 2
	}
	w32[100] = float32(math.Inf(1)) // not counted in the buffer's scale
	check := func(name string, want, got any, ulps uint64, diff func(i int) bool) {
		t.Helper()
		var idx []int
		for i := range n {
			if diff(i) {
				idx = append(idx, i)
			}
		}
		err := device.Compare(want, got, ulps)
		if len(idx) == 0 {
			if err != nil {
				t.Errorf("%s: %v, want no difference", name, err)
			}
			return
		}
		if err == nil {
			t.Fatalf("%s: no difference reported, want %d", name, len(idx))
		}
		msg := err.Error()
		if w := fmt.Sprintf("%d of %d elements differ", len(idx), n); !strings.Contains(msg, w) {
			t.Errorf("%s: %v, want %q", name, err, w)
		}
		for k, i := range idx {
			if has := strings.Contains(msg, fmt.Sprintf("[%d]", i)); has != (k < 3) {
				t.Errorf("%s: %v: index %d listed %v, want %v (the first 3 only)", name, err, i, has, k < 3)
			}
		}
	}
	// float32: some 1 ULP off (within the bound), some far off.
	g32 := slices.Clone(w32)
	for k, i := range at {
		if k%2 == 0 {
			g32[i] += 0.5
		} else {
			g32[i] = math.Nextafter32(g32[i], 10)
		}
	}
	for i := 0; i < n; i += 1000 {
		g32[i] = math.Nextafter32(g32[i], -10)
	}
	far := func(i int) bool { return math.Abs(float64(w32[i])-float64(g32[i])) > 0.25 }
	check("float32 ulps 1", w32, g32, 1, far)
	check("float32 exact", w32, g32, 0, func(i int) bool { return w32[i] != g32[i] })
	// The scale bound: 4 ULPs of the largest finite magnitude (~2, so
	// 4*2^-22) accepts an error of 2^-22 on a tiny element.
	g32 = slices.Clone(w32)
	g32[9] = w32[9] + 1.0/(1<<22)
	check("float32 scale", w32, g32, 4, func(int) bool { return false })
	// float64, int32 and a struct: exact.
	w64, g64 := make([]float64, n), make([]float64, n)
	wi, gi := make([]int32, n), make([]int32, n)
	type pt struct {
		A int32
		B float64
	}
	wp, gp := make([]pt, n), make([]pt, n)
	for i := range n {
		w64[i] = r.Float64()
		wi[i] = r.Int32()
		wp[i] = pt{r.Int32(), r.Float64()}
	}
	copy(g64, w64)
	copy(gi, wi)
	copy(gp, wp)
	for _, i := range at {
		g64[i] = math.Nextafter(g64[i], 2)
		gi[i]++
		gp[i].B = -gp[i].B
	}
	check("float64", w64, g64, 0, func(i int) bool { return w64[i] != g64[i] })
	check("int32", wi, gi, 0, func(i int) bool { return wi[i] != gi[i] })
	check("struct", wp, gp, 0, func(i int) bool { return wp[i] != gp[i] })
	check("float64 equal", w64, slices.Clone(w64), 0, func(int) bool { return false })
}
