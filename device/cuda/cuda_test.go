package cuda

import (
	_ "embed"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// hand.ptx holds hand-written kernels that follow the codegen's PTX ABI, so
// the backend is tested independently of the codegen.
//
//go:embed testdata/hand.ptx
var handPTX []byte

var handCode = map[string]*backend.Code{}

func handKernel(entry string, params ...reflect.Type) *backend.Kernel {
	c, ok := handCode[entry]
	if !ok {
		c = &backend.Code{PTX: handPTX, Entry: entry, Positions: []string{"hand.go:12:7"}}
		handCode[entry] = c
	}
	return &backend.Kernel{Name: "hand." + entry, Pos: "hand.go:1", Params: params, Code: c, Dims: 1}
}

var (
	f32s = reflect.TypeFor[[]float32]()
	f64s = reflect.TypeFor[[]float64]()
)

// openOrSkip opens the GPU, skipping the test where there is none.
func openOrSkip(t testing.TB) *Backend {
	t.Helper()
	b, err := OpenBackend()
	if err != nil {
		t.Skipf("no CUDA GPU here: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestNoDriver(t *testing.T) {
	t.Setenv("GPUKVET_LIBCUDA", "/nonexistent/libcuda.so.1")
	_, err := Open()
	if err == nil || !strings.Contains(err.Error(), "no NVIDIA driver") {
		t.Fatalf("Open with no driver: got %v, want an error saying there is no NVIDIA driver", err)
	}
}

func TestBadDeviceNumber(t *testing.T) {
	t.Setenv("GPUKVET_CUDA_DEVICE", "x")
	if _, err := Open(); err == nil {
		t.Fatal("Open with GPUKVET_CUDA_DEVICE=x: no error")
	}
}

func TestInfo(t *testing.T) {
	b := openOrSkip(t)
	i := b.Info()
	t.Logf("GPU %d: %s, sm_%d%d, %d SMs, %d MiB, driver %d", i.Ordinal, i.Name, i.Major, i.Minor, i.SMs, i.TotalMemory>>20, i.DriverVersion)
	if i.Major == 0 || i.TotalMemory == 0 {
		t.Errorf("implausible device info %+v", i)
	}
}

func upload[T any](t testing.TB, b *Backend, s []T) backend.Memory {
	t.Helper()
	m, err := b.Alloc(reflect.TypeFor[T](), len(s))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Write(m, reflect.ValueOf(s)); err != nil {
		t.Fatal(err)
	}
	return m
}

func download[T any](t testing.TB, b *Backend, m backend.Memory) ([]T, error) {
	out := make([]T, m.Len())
	err := b.Read(reflect.ValueOf(out), m)
	return out, err
}

func TestAllocZeroedAndRoundTrip(t *testing.T) {
	b := openOrSkip(t)
	m, err := b.Alloc(reflect.TypeFor[int64](), 1000)
	if err != nil {
		t.Fatal(err)
	}
	got, err := download[int64](t, b, m)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != 0 {
			t.Fatalf("Alloc: element %d is %d, want 0", i, v)
		}
	}
	src := make([]int64, 1000)
	for i := range src {
		src[i] = int64(i*i) - 7
	}
	if err := b.Write(m, reflect.ValueOf(src)); err != nil {
		t.Fatal(err)
	}
	if got, _ = download[int64](t, b, m); !reflect.DeepEqual(got, src) {
		t.Fatal("Write then Read: contents differ")
	}
	if err := b.Free(m); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(m); err == nil {
		t.Fatal("second Free: no error")
	}
	empty, err := b.Alloc(reflect.TypeFor[float32](), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := download[float32](t, b, empty); err != nil {
		t.Fatal(err)
	}
}

func TestOutOfMemory(t *testing.T) {
	b := openOrSkip(t)
	_, err := b.Alloc(reflect.TypeFor[float64](), 1<<50/8)
	if err == nil || !strings.Contains(err.Error(), "not enough GPU memory") {
		t.Fatalf("Alloc of 1 PiB: got %v, want a not-enough-memory error", err)
	}
	// The device is still usable.
	if _, err := b.Alloc(reflect.TypeFor[float64](), 10); err != nil {
		t.Fatal(err)
	}
}

func saxpyArgs(t testing.TB, b *Backend, a float32, x, y []float32) (args []backend.Arg, ym backend.Memory) {
	xm, ym := upload(t, b, x), upload(t, b, y)
	return []backend.Arg{{Value: reflect.ValueOf(a)}, {Mem: xm}, {Mem: ym}}, ym
}

func TestSaxpy(t *testing.T) {
	b := openOrSkip(t)
	const n = 100_000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i+1)
	}
	args, ym := saxpyArgs(t, b, 3, x, y)
	k := handKernel("hand_Saxpy", reflect.TypeFor[float32](), f32s, f32s)
	if err := b.Launch(k, gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1}, gpu.Dim3{X: 256, Y: 1, Z: 1}, args); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
	got, err := download[float32](t, b, ym)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if want := 3*x[i] + y[i]; got[i] != want {
			t.Fatalf("y[%d] = %v, want %v", i, got[i], want)
		}
	}
}

// TestTrap launches saxpy with x shorter than y: the threads past len(x)
// trap. Sync names the kernel, the position and a thread; the device stays
// usable, and the next Sync is clean.
func TestTrap(t *testing.T) {
	b := openOrSkip(t)
	x, y := make([]float32, 100), make([]float32, 1000)
	args, ym := saxpyArgs(t, b, 1, x, y)
	k := handKernel("hand_Saxpy", reflect.TypeFor[float32](), f32s, f32s)
	grid, block := gpu.Dim3{X: 4, Y: 1, Z: 1}, gpu.Dim3{X: 256, Y: 1, Z: 1}
	if err := b.Launch(k, grid, block, args); err != nil {
		t.Fatalf("Launch reported %v; traps belong to Sync", err)
	}
	err := b.Sync()
	var te *backend.Trap
	if !errors.As(err, &te) {
		t.Fatalf("Sync after an out-of-range index: got %v, want a *backend.Trap", err)
	}
	t.Log(err)
	i := te.Block.X*256 + te.Thread.X
	if te.Kernel != "hand.hand_Saxpy" || te.Pos != "hand.go:12:7" || i < 100 || i >= 1000 ||
		!strings.HasPrefix(te.Msg, "index out of range [") || !strings.HasSuffix(te.Msg, "with length 100") {
		t.Errorf("trap = %+v", te)
	}
	if err := b.Sync(); err != nil {
		t.Fatalf("second Sync: %v, want nil (the trap was reported)", err)
	}
	// Usable afterwards: a good launch, then Read with no error.
	x2 := make([]float32, 1000)
	args2, ym2 := saxpyArgs(t, b, 1, x2, y)
	if err := b.Launch(k, grid, block, args2); err != nil {
		t.Fatal(err)
	}
	if _, err := download[float32](t, b, ym2); err != nil {
		t.Fatalf("Read after a trap: %v", err)
	}
	// A trap is reported by Read too when Sync did not see it.
	if err := b.Launch(k, grid, block, args); err != nil {
		t.Fatal(err)
	}
	if _, err := download[float32](t, b, ym); !errors.As(err, &te) {
		t.Fatalf("Read after a trapping launch: got %v, want a *backend.Trap", err)
	}
}

type fields struct {
	A int32
	B float64
	C bool
	D int64
	E int8
}

func TestStructParam(t *testing.T) {
	b := openOrSkip(t)
	out, err := b.Alloc(reflect.TypeFor[float64](), 6)
	if err != nil {
		t.Fatal(err)
	}
	s := fields{A: -7, B: 2.5, C: true, D: -1 << 40, E: -3}
	k := handKernel("hand_Fields", reflect.TypeFor[fields](), reflect.TypeFor[int](), f64s)
	args := []backend.Arg{{Value: reflect.ValueOf(s)}, {Value: reflect.ValueOf(42)}, {Mem: out}}
	if err := b.Launch(k, gpu.Dim3{X: 1}, gpu.Dim3{X: 1}, args); err != nil {
		t.Fatal(err)
	}
	got, err := download[float64](t, b, out)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-7, 2.5, 1, -1 << 40, -3, 42}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("struct fields read on the GPU: %v, want %v", got, want)
	}
}

func TestMissingCode(t *testing.T) {
	b := openOrSkip(t)
	k := &backend.Kernel{Name: "p.K", Params: nil}
	if err := b.Launch(k, gpu.Dim3{X: 1}, gpu.Dim3{X: 1}, nil); err == nil || !strings.Contains(err.Error(), "go generate") {
		t.Fatalf("Launch without code: %v", err)
	}
	k.Code = &backend.Code{PTX: []byte(".version 7.8\n.target sm_80\nthis is not ptx"), Entry: "x"}
	if err := b.Launch(k, gpu.Dim3{X: 1}, gpu.Dim3{X: 1}, nil); err == nil {
		t.Fatal("Launch with broken PTX: no error")
	} else {
		t.Log(err)
	}
}

// BenchmarkCopy measures device-to-device copy bandwidth (bytes read plus
// bytes written per second), the ceiling for memory-bound kernels.
func BenchmarkCopy(bb *testing.B) {
	b := openOrSkip(bb)
	const n = 1 << 26
	src, _ := b.Alloc(reflect.TypeFor[float32](), n)
	dst, _ := b.Alloc(reflect.TypeFor[float32](), n)
	bb.SetBytes(2 * 4 * n)
	bb.ResetTimer()
	d, err := b.Time(func() error {
		for range bb.N {
			if err := b.CopyDeviceToDevice(dst, src); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		bb.Fatal(err)
	}
	bb.ReportMetric(float64(2*4*n)*float64(bb.N)/d.Seconds()/1e9, "GB/s")
}

// BenchmarkHandSaxpy times the hand-written saxpy PTX over 2^26 elements.
func BenchmarkHandSaxpy(bb *testing.B) {
	b := openOrSkip(bb)
	const n = 1 << 26
	x, _ := b.Alloc(reflect.TypeFor[float32](), n)
	y, _ := b.Alloc(reflect.TypeFor[float32](), n)
	k := handKernel("hand_Saxpy", reflect.TypeFor[float32](), f32s, f32s)
	args := []backend.Arg{{Value: reflect.ValueOf(float32(2))}, {Mem: x}, {Mem: y}}
	bb.SetBytes(3 * 4 * n)
	if err := b.Launch(k, gpu.Dim3{X: n / 256}, gpu.Dim3{X: 256}, args); err != nil {
		bb.Fatal(err)
	}
	b.Sync()
	bb.ResetTimer()
	d, err := b.Time(func() error {
		for range bb.N {
			if err := b.Launch(k, gpu.Dim3{X: n / 256}, gpu.Dim3{X: 256}, args); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		bb.Fatal(err)
	}
	bb.ReportMetric(float64(3*4*n)*float64(bb.N)/d.Seconds()/1e9, "GB/s")
}

// TestManyLaunches runs more launches between two Syncs than there are
// trap records: a trap early on is still reported, by the final Sync, and
// names the kernel that trapped.
func TestManyLaunches(t *testing.T) {
	b := openOrSkip(t)
	short, long := make([]float32, 10), make([]float32, 64)
	bad, _ := saxpyArgs(t, b, 1, short, long)
	good, ym := saxpyArgs(t, b, 1, long, long)
	k := handKernel("hand_Saxpy", reflect.TypeFor[float32](), f32s, f32s)
	k2 := *k
	k2.Name = "hand.Trapping"
	for i := range trapSlots + 10 {
		args, kk := good, k
		if i == 5 {
			args, kk = bad, &k2
		}
		if err := b.Launch(kk, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}, args); err != nil {
			t.Fatalf("launch %d: %v", i, err)
		}
	}
	var tr *backend.Trap
	if err := b.Sync(); !errors.As(err, &tr) || tr.Kernel != "hand.Trapping" {
		t.Fatalf("Sync after %d launches, one trapping: %v", trapSlots+10, err)
	}
	if err := b.Sync(); err != nil {
		t.Fatalf("second Sync: %v", err)
	}
	got, err := download[float32](t, b, ym)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 0 { // 0*… + 0 every time
		t.Errorf("y[0] = %v", got[0])
	}
}

// TestStaleCodeRefused: code whose recorded source hash no longer matches
// the kernel's package sources (present on this machine) is refused at
// launch, naming the kernel.
func TestStaleCodeRefused(t *testing.T) {
	b := openOrSkip(t)
	dir := t.TempDir()
	src := dir + "/k.go"
	if err := os.WriteFile(src, []byte("package k\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	k := handKernel("hand_Saxpy", reflect.TypeFor[float32](), f32s, f32s)
	stale := *k
	stale.Name, stale.Pos = "k.Saxpy", src+":3"
	stale.Code = &backend.Code{PTX: handPTX, Entry: "hand_Saxpy", SourceHash: "sha256:0000"}
	args, _ := saxpyArgs(t, b, 1, make([]float32, 8), make([]float32, 8))
	err := b.Launch(&stale, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 8, Y: 1, Z: 1}, args)
	if err == nil || !strings.Contains(err.Error(), "stale") || !strings.Contains(err.Error(), "k.Saxpy") {
		t.Fatalf("Launch of stale code: %v, want a stale-code error naming k.Saxpy", err)
	}
	t.Log(err)
}
