package device_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

func openCPU(t *testing.T) *device.Device {
	t.Helper()
	d, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func upload[T any](t *testing.T, d *device.Device, xs []T) *device.Buffer[T] {
	t.Helper()
	b, err := device.Upload(d, xs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

func download[T any](t *testing.T, b *device.Buffer[T]) []T {
	t.Helper()
	xs, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

func dim(x, y, z int) gpu.Dim3 { return gpu.Dim3{X: x, Y: y, Z: z} }

// registerSPIRV compiles the one kernel of package pkg (a package of
// testdata, which gen does not cover) to PTX and SPIR-V here, and registers
// it as fn, with one dimension and the given parameter names, so that the
// GPU backends can run it.
func registerSPIRV(t *testing.T, pkg string, fn any, params ...string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		// A test binary copied to a GPU machine without Go (how the
		// GPU runs work): compiling the kernel loads its package.
		t.Skipf("compiling %s here needs the go command: %v", pkg, err)
	}
	m, err := codegen.Build([]string{pkg}, codegen.Options{SPIRV: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.SPIRV) == 0 || len(m.Manifest.Kernels) != 1 {
		t.Fatalf("no SPIR-V for the kernel of %s: %v", pkg, m.SPIRVFailed)
	}
	code := &backend.Code{PTX: m.PTX, SPIRV: m.SPIRV, Entry: m.Manifest.Kernels[0].Entry,
		Positions: m.Manifest.Positions, SPIRVFeatures: m.Manifest.SPIRVFeatures}
	if err := device.RegisterKernel(fn, device.KernelSpec{Dims: 1, Params: params, Code: code}); err != nil {
		t.Fatal(err)
	}
}

// lineOf returns "kernels_test.go:N" for the line of kernels_test.go that
// holds text.
func lineOf(t *testing.T, text string) string {
	t.Helper()
	src, err := os.ReadFile("kernels_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, text) {
			return fmt.Sprintf("kernels_test.go:%d", i+1)
		}
	}
	t.Fatalf("no line holds %q", text)
	return ""
}

// within runs f and fails the test if it does not return in time: the
// runtime must report a broken barrier, never hang on it.
func within(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the launch hangs")
		return nil
	}
}

func testLaunchRuns(t *testing.T) {
	d := openCPU(t)
	xs := upload(t, d, []int32{1, 2, 3, 4, 5})
	if err := d.Launch(addOne, dim(2, 1, 1), dim(4, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(download(t, xs)), "[2 3 4 5 6]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestScalarArguments(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]float32, 4))
	// Untyped constants arrive as int and float64 and convert as Go
	// converts constants.
	if err := d.Launch(mixed, dim(1, 1, 1), dim(4, 1, 1), 2, 0.5, true, pair{A: 1, B: 0.25}, out); err != nil {
		t.Fatal(err)
	}
	for i, v := range download(t, out) {
		if v != 1.75 {
			t.Errorf("out[%d] = %v, want 1.75", i, v)
		}
	}
}

func TestLaunchErrors(t *testing.T) {
	d := openCPU(t)
	other := openCPU(t)
	xs := upload(t, d, make([]int32, 64))
	fs := upload(t, d, make([]float32, 64))
	foreign := upload(t, other, make([]int32, 64))
	freed, err := device.Alloc[int32](d, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	closure := func(t gpu.Thread, xs []int32) {}
	one := dim(1, 1, 1)
	for _, tc := range []struct {
		name        string
		kernel      any
		grid, block gpu.Dim3
		args        []any
		want        string // regexp
	}{
		{"too few", addOne, one, one, nil, `device.Launch .*\.addOne: 0 arguments for 1 parameters after the gpu.Thread \(xs \[\]int32\)`},
		{"too many", addOne, one, one, []any{xs, xs}, `addOne: 2 arguments for 1 parameters`},
		{"wrong scalar type", mixed, one, one, []any{int64(1), float32(1), true, pair{}, fs}, `mixed parameter 1 \(k int32\): got a int64; it needs a int32`},
		{"constant out of range", mixed, one, one, []any{1 << 40, float32(1), true, pair{}, fs}, `mixed parameter 1 \(k int32\): got a int; it needs a int32`},
		{"fraction for int", mixed, one, one, []any{2.5, float32(1), true, pair{}, fs}, `mixed parameter 1 \(k int32\): got a float64`},
		{"wrong struct", mixed, one, one, []any{1, float32(1), true, struct{ A int32 }{}, fs}, `mixed parameter 4 \(p device_test.pair\): got a struct`},
		{"nil scalar", mixed, one, one, []any{1, float32(1), nil, pair{}, fs}, `mixed parameter 3 \(on bool\): got nil`},
		{"host slice", addOne, one, one, []any{[]int32{1}}, `addOne parameter 1 \(xs \[\]int32\): got the host slice \[\]int32; pass a \*device.Buffer\[int32\]`},
		{"scalar for slice", addOne, one, one, []any{3}, `addOne parameter 1 \(xs \[\]int32\): got a int; a slice parameter takes a \*device.Buffer\[int32\]`},
		{"buffer for scalar", mixed, one, one, []any{xs, float32(1), true, pair{}, fs}, `mixed parameter 1 \(k int32\): got \*device.Buffer\[int32\], a device buffer`},
		{"buffer element type", addOne, one, one, []any{fs}, `addOne parameter 1 \(xs \[\]int32\): got a \*device.Buffer\[float32\]; it needs a \*device.Buffer\[int32\]`},
		{"nil buffer", addOne, one, one, []any{(*device.Buffer[int32])(nil)}, `addOne parameter 1 \(xs \[\]int32\): got a nil \*device.Buffer\[int32\]`},
		//gpukvet:ignore ownership the test passes a freed buffer on purpose
		{"freed buffer", addOne, one, one, []any{freed}, `addOne parameter 1 \(xs \[\]int32\): the \*device.Buffer\[int32\] was freed`},
		{"foreign buffer", addOne, one, one, []any{foreign}, `addOne parameter 1 \(xs \[\]int32\): the \*device.Buffer\[int32\] belongs to another device`},
		{"zero block", addOne, one, dim(0, 1, 1), []any{xs}, `addOne: block \(0,1,1\) has a dimension below 1`},
		{"negative grid", addOne, dim(-1, 1, 1), one, []any{xs}, `addOne: grid \(-1,1,1\) has a dimension below 1`},
		{"omitted Y", addOne, one, gpu.Dim3{X: 4}, []any{xs}, `addOne: block \(4,0,0\) has a dimension below 1 \(an unused dimension has extent 1`},
		{"block directive", fixedBlock, one, dim(32, 1, 1), []any{xs}, `fixedBlock: block \(32,1,1\), but its //gpu:kernel directive fixes block=\(64,1,1\)`},
		{"grid directive", singleBlock, dim(2, 1, 1), dim(32, 1, 1), []any{xs}, `singleBlock: grid \(2,1,1\), but its //gpu:kernel directive fixes grid=\(1,1,1\)`},
		{"1-d kernel, 2-d block", addOne, one, dim(8, 2, 1), []any{xs}, `addOne: block \(8,2,1\), but the kernel is 1-dimensional \(it never reads Y or Z`},
		{"1-d kernel, 2-d grid", addOne, dim(1, 2, 1), one, []any{xs}, `addOne: grid \(1,2,1\), but the kernel is 1-dimensional`},
		{"2-d kernel, 3-d grid", twoD, dim(1, 1, 2), one, []any{1, xs}, `twoD: grid \(1,1,2\), but the kernel is 2-dimensional \(it never reads Z`},
		{"block too large", addOne, one, dim(2048, 1, 1), []any{xs}, `addOne: block \(2048,1,1\): block extent 2048 in X is more than the 1024 of target ptx`},
		{"not a kernel", notKernel, one, one, []any{xs}, `device.Launch: .*\.notKernel is not a //gpu:kernel function: its declaration at .*kernels_test.go:\d+ has no //gpu:kernel directive`},
		{"closure", closure, one, one, []any{xs}, `device.Launch: .*TestLaunchErrors.func1 is not a //gpu:kernel function`},
		{"not a function", 42, one, one, []any{xs}, `device.Launch: the kernel argument is a int, not a //gpu:kernel function`},
		{"nil function", (func(gpu.Thread))(nil), one, one, nil, `device.Launch: the kernel argument is a nil func\(gpu.Thread\)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := d.Launch(tc.kernel, tc.grid, tc.block, tc.args...) //gpukvet:ignore memspace the test passes bad arguments on purpose
			if err == nil {
				t.Fatalf("Launch succeeded, want error matching %q", tc.want)
			}
			if !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("error %q\ndoes not match %q", err, tc.want)
			}
			if !errors.Is(err, device.ErrLaunch) {
				t.Errorf("errors.Is(%q, device.ErrLaunch) is false", err)
			}
		})
	}
	if err := d.Sync(); err != nil {
		t.Errorf("Sync after refused launches: %v", err)
	}
}

func TestDimensionality(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 4*6))
	if err := d.Launch(twoD, dim(2, 3, 1), dim(2, 2, 1), 4, out); err != nil {
		t.Fatal(err)
	}
	got := download(t, out)
	for y := range 6 {
		for x := range 4 {
			if got[y*4+x] != int32(x+y) {
				t.Fatalf("out[%d,%d] = %d, want %d", y, x, got[y*4+x], x+y)
			}
		}
	}
	// threeD reads Z only through a device function.
	out3 := upload(t, d, make([]int32, 2*2*2*8))
	if err := d.Launch(threeD, dim(2, 2, 2), dim(2, 2, 2), out3); err != nil {
		t.Fatal(err)
	}
	for i, v := range download(t, out3) {
		if v != 1 {
			t.Fatalf("out3[%d] = %d, want 1", i, v)
		}
	}
}

// TestBarrierKernel runs a correct reduction with shared memory and
// barriers; under -race it also shows that barriers order the threads.
func testBarrierKernel(t *testing.T) {
	d := openCPU(t)
	const blocks = 8
	in := make([]int32, blocks*64)
	for i := range in {
		in[i] = int32(i)
	}
	inb := upload(t, d, in)
	out := upload(t, d, make([]int32, blocks))
	if err := d.Launch(blockSum, dim(blocks, 1, 1), dim(64, 1, 1), inb, out); err != nil {
		t.Fatal(err)
	}
	got := download(t, out)
	for b := range blocks {
		var want int32
		for _, v := range in[b*64 : (b+1)*64] {
			want += v
		}
		if got[b] != want {
			t.Errorf("block %d sum = %d, want %d", b, got[b], want)
		}
	}
}

func testSharedPerCallSite(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 64))
	if err := d.Launch(sharedViaHelper, dim(2, 1, 1), dim(32, 1, 1), out); err != nil {
		t.Fatal(err)
	}
	for i, v := range download(t, out) {
		if want := int32(31 - i%32); v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

func testBarrierNotReached(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 64))
	err := within(t, func() error {
		if err := d.Launch(earlyReturn, dim(2, 1, 1), dim(32, 1, 1), 40, out); err != nil {
			t.Fatalf("Launch: %v (errors come from Sync)", err)
		}
		return d.Sync()
	})
	want := `kernel .*\.earlyReturn: barrier at .*` + regexp.QuoteMeta(lineOf(t, "t.Barrier() //gpukvet:ignore divergence")) +
		` is not reached by every thread of block \(1,0,0\): thread \(\d+,0,0\) returned`
	if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("Sync error %v\nwant one matching %q", err, want)
	}
	// When every thread of a block returns early, or none does, every
	// barrier is reached by all of the block's live threads.
	for _, n := range []int{32, 64} {
		if err := d.Launch(earlyReturn, dim(2, 1, 1), dim(32, 1, 1), n, out); err != nil {
			t.Fatal(err)
		}
		if err := within(t, d.Sync); err != nil {
			t.Errorf("n=%d: Sync error %v, want none", n, err)
		}
	}
}

func testDifferentBarriers(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 8))
	if err := d.Launch(twoBarriers, dim(1, 1, 1), dim(8, 1, 1), out); err != nil {
		t.Fatal(err)
	}
	err := within(t, func() error { _, err := out.Download(); return err })
	want := `kernel .*\.twoBarriers: threads of block \(0,0,0\) wait at different barriers, .*kernels_test.go:\d+ and .*kernels_test.go:\d+`
	if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("Download error %v\nwant one matching %q", err, want)
	}
}

func testTrap(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 64))
	if err := d.Launch(outOfRange, dim(2, 1, 1), dim(32, 1, 1), out); err != nil {
		t.Fatalf("Launch: %v (a trap is reported by Sync)", err)
	}
	err := d.Sync()
	var trap *backend.Trap
	if !errors.As(err, &trap) {
		t.Fatalf("Sync error %v, want a *backend.Trap", err)
	}
	want := `kernel .*\.outOfRange trapped at .*` + regexp.QuoteMeta(lineOf(t, "out[t.GlobalIdx().X+1] = 1")) +
		` in block \(1,0,0\), thread \(31,0,0\): index out of range \[64\] with length 64`
	if !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("Sync error %v\nwant one matching %q", err, want)
	}
	if err := d.Sync(); err != nil {
		t.Errorf("second Sync: %v; a trap is reported once", err)
	}

	// The device stays usable.
	xs := upload(t, d, []int32{1, 2})
	if err := d.Launch(addOne, dim(1, 1, 1), dim(2, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(download(t, xs)); got != "[2 3]" {
		t.Errorf("after a trap: got %s, want [2 3]", got)
	}
}

func testTrapWakesBarrier(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 64))
	if err := d.Launch(trapAtBarrier, dim(2, 1, 1), dim(32, 1, 1), out); err != nil {
		t.Fatal(err)
	}
	err := within(t, d.Sync)
	want := `kernel .*\.trapAtBarrier trapped at .*` + regexp.QuoteMeta(lineOf(t, `panic("thread three gives up")`)) +
		` in block \(\d,0,0\), thread \(3,0,0\): panic: thread three gives up`
	if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("Sync error %v\nwant one matching %q", err, want)
	}
}

func TestDivideByZero(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 4))
	if err := d.Launch(divide, dim(1, 1, 1), dim(4, 1, 1), int32(0), out); err != nil {
		t.Fatal(err)
	}
	_, err := out.Download()
	if err == nil || !strings.Contains(err.Error(), "integer divide by zero") || !strings.Contains(err.Error(), lineOf(t, "100 / d")) {
		t.Errorf("Download error %v, want an integer divide by zero at %s", err, lineOf(t, "100 / d"))
	}
}

func TestFree(t *testing.T) {
	d := openCPU(t)
	b, err := device.Alloc[int32](d, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err == nil || !strings.Contains(err.Error(), "Free of a freed *Buffer[int32]") { //gpukvet:ignore ownership the test frees twice on purpose
		t.Errorf("second Free: %v, want an error", err)
	}
	if _, err := b.Download(); err == nil || !strings.Contains(err.Error(), "Download of a freed *Buffer[int32]") { //gpukvet:ignore ownership the test uses a freed buffer on purpose
		t.Errorf("Download after Free: %v, want an error", err)
	}
	if err := d.Launch(addOne, dim(1, 1, 1), dim(4, 1, 1), b); err == nil || !strings.Contains(err.Error(), "was freed") { //gpukvet:ignore ownership the test uses a freed buffer on purpose
		t.Errorf("Launch after Free: %v, want an error", err)
	}
}

func TestElementTypes(t *testing.T) {
	d := openCPU(t)
	if b, err := device.Alloc[pair](d, 2); err != nil {
		t.Errorf("Alloc[pair]: %v", err)
	} else {
		b.Free()
	}
	if b, err := device.Alloc[string](d, 2); err == nil {
		b.Free()
		t.Errorf("Alloc[string] succeeded, want an error")
	} else if want := "type string is not allowed on the device"; !strings.Contains(err.Error(), want) {
		t.Errorf("Alloc[string]: %v, want an error saying %q", err, want)
	}
	type withPtr struct {
		N int
		P *int
	}
	if b, err := device.Upload(d, []withPtr{{}}); err == nil {
		b.Free()
		t.Errorf("Upload([]withPtr) succeeded, want an error")
	} else if want := "field P: type *int is not allowed"; !strings.Contains(err.Error(), want) {
		t.Errorf("Upload([]withPtr): %v, want an error saying %q", err, want)
	}
	if b, err := device.Alloc[int32](d, -1); err == nil {
		b.Free()
		t.Errorf("Alloc of -1 elements succeeded, want an error")
	}
}

func TestOpen(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"cpu", ""},
		{"cuda", `backend cuda (is not available|does not work here)`},
		{"tpu", `unknown backend "tpu" \(want one of cuda, vulkan, cpu\)`},
		{"hip", `backend hip is not available: it is not built into this version of gpukvet \(built in: cuda, vulkan, cpu\)`},
	} {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv("GPUKVET_DEVICE", tc.env)
			d, err := device.Open()
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				defer d.Close()
				if d.Backend() != "cpu" {
					t.Errorf("Backend() = %q, want cpu", d.Backend())
				}
				return
			}
			if err == nil {
				d.Close()
				if tc.env == "cuda" {
					t.Skip("a cuda backend works here")
				}
				t.Fatalf("Open succeeded, want an error matching %q", tc.want)
			}
			if !regexp.MustCompile(tc.want).MatchString(err.Error()) || !strings.Contains(err.Error(), "GPUKVET_DEVICE") {
				t.Errorf("error %q, want one matching %q that names GPUKVET_DEVICE", err, tc.want)
			}
		})
	}
}

// registered is launched through the registry, as generated code does.
func registered(t gpu.Thread, out []int32) {
	out[t.GlobalIdx().X] = int32(t.BlockDim().X)
}

func TestRegisterKernel(t *testing.T) {
	if err := device.RegisterKernel(registered, device.KernelSpec{Block: dim(8, 1, 1), Dims: 1, Params: []string{"out"}}); err != nil {
		t.Fatal(err)
	}
	d := openCPU(t)
	out := upload(t, d, make([]int32, 16))
	if err := d.Launch(registered, dim(2, 1, 1), dim(8, 1, 1), out); err != nil {
		t.Fatal(err)
	}
	if got := download(t, out); got[15] != 8 {
		t.Errorf("out[15] = %d, want 8", got[15])
	}
	err := d.Launch(registered, dim(2, 1, 1), dim(4, 1, 1), out)
	if err == nil || !strings.Contains(err.Error(), "fixes block=(8,1,1)") {
		t.Errorf("Launch with the wrong block: %v, want an error", err)
	}
	if err := device.RegisterKernel(func(int) {}, device.KernelSpec{}); err == nil {
		t.Errorf("RegisterKernel of a func(int) succeeded")
	}
}

func TestClose(t *testing.T) {
	d, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	b, err := device.Alloc[int32](d, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Download(); err == nil || !strings.Contains(err.Error(), "device is closed") {
		t.Errorf("Download after Close: %v, want an error", err)
	}
	if err := d.Launch(addOne, dim(1, 1, 1), dim(4, 1, 1), b); err == nil || !strings.Contains(err.Error(), "device is closed") {
		t.Errorf("Launch after Close: %v, want an error", err)
	}
	if err := d.Sync(); err == nil {
		t.Errorf("Sync after Close succeeded")
	}
	if err := b.Free(); err != nil {
		t.Errorf("Free after Close: %v; the memory is gone already, so it is no error", err)
	}
	if err := d.Close(); err == nil {
		t.Errorf("second Close succeeded")
	}
}

func TestDimsIgnoreOtherStructs(t *testing.T) {
	d := openCPU(t)
	ps := upload(t, d, []point{{Y: 1}, {Y: 2}})
	out := upload(t, d, make([]int32, 2))
	err := d.Launch(pointsX, dim(1, 1, 1), dim(1, 2, 1), point{Y: 3}, ps, out)
	if err == nil || !strings.Contains(err.Error(), "the kernel is 1-dimensional") {
		t.Errorf("Launch with block Y=2: %v, want an error", err)
	}
	if err := d.Launch(pointsX, dim(1, 1, 1), dim(2, 1, 1), point{Y: 3, Z: 1}, ps, out); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(download(t, out)); got != "[5 6]" {
		t.Errorf("got %s, want [5 6]", got)
	}
}

func testTrapInDeviceFunction(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 4))
	if err := d.Launch(trapInHelper, dim(1, 1, 1), dim(4, 1, 1), out); err != nil {
		t.Fatal(err)
	}
	err := d.Sync()
	if want := lineOf(t, "return xs[i] // the trap is here"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Sync error %v, want a trap at %s", err, want)
	}
}

// bothSchedules runs test once with the threads of a block as coroutines
// (the default without -race) and once as free-running goroutines (the
// default with -race).
func bothSchedules(t *testing.T, test func(t *testing.T)) {
	for _, mode := range []string{"coroutines", "goroutines"} {
		t.Run(mode, func(t *testing.T) {
			t.Setenv("GPUKVET_CPU_THREADS", mode)
			test(t)
		})
	}
}

func TestBarrierKernel(t *testing.T)        { bothSchedules(t, testBarrierKernel) }
func TestSharedPerCallSite(t *testing.T)    { bothSchedules(t, testSharedPerCallSite) }
func TestBarrierNotReached(t *testing.T)    { bothSchedules(t, testBarrierNotReached) }
func TestDifferentBarriers(t *testing.T)    { bothSchedules(t, testDifferentBarriers) }
func TestTrap(t *testing.T)                 { bothSchedules(t, testTrap) }
func TestTrapWakesBarrier(t *testing.T)     { bothSchedules(t, testTrapWakesBarrier) }
func TestTrapInDeviceFunction(t *testing.T) { bothSchedules(t, testTrapInDeviceFunction) }
func TestLaunchRuns(t *testing.T)           { bothSchedules(t, testLaunchRuns) }

func TestOpenUnset(t *testing.T) {
	t.Setenv("GPUKVET_DEVICE", "")
	d, err := device.Open()
	if err != nil {
		t.Fatalf("Open with GPUKVET_DEVICE unset: %v; the cpu backend always works", err)
	}
	defer d.Close()
	if b := d.Backend(); b != "cpu" && b != "cuda" && b != "vulkan" && b != "hip" {
		t.Errorf("Backend() = %q", b)
	}
}
