package vulkan

import (
	"bytes"
	_ "embed"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// hand.spv is testdata/hand.spvasm assembled: kernels written by hand to
// gpukvet's Vulkan ABI, so the backend is tested independently of the
// emitter (TestHandModuleCurrent checks the two agree).
//
//go:embed testdata/hand.spv
var handSPV []byte

var handCode = map[string]*backend.Code{}

func handKernel(entry string, params ...reflect.Type) *backend.Kernel {
	c, ok := handCode[entry]
	if !ok {
		c = &backend.Code{SPIRV: handSPV, Entry: entry, Positions: []string{"hand.go:12:7"}}
		handCode[entry] = c
	}
	return &backend.Kernel{Name: "hand." + entry, Pos: "hand.go:1", Params: params, Code: c, Dims: 1}
}

var (
	f32  = reflect.TypeFor[float32]()
	f32s = reflect.TypeFor[[]float32]()
)

// openOrSkip opens the Vulkan device; without a loader or a device (lavapipe
// is installed by scripts/install-vulkan.sh) the test skips.
func openOrSkip(t testing.TB) *Backend {
	t.Helper()
	b, err := OpenBackend()
	if err != nil {
		t.Skipf("no Vulkan device here (scripts/install-vulkan.sh installs lavapipe): %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func upload(t testing.TB, b *Backend, data []float32) backend.Memory {
	t.Helper()
	m, err := b.Alloc(f32, len(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Write(m, reflect.ValueOf(data)); err != nil {
		t.Fatal(err)
	}
	return m
}

func read(t testing.TB, b *Backend, m backend.Memory) []float32 {
	t.Helper()
	out := make([]float32, m.Len())
	if err := b.Read(reflect.ValueOf(out), m); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestHandModuleCurrent(t *testing.T) {
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Skip("spirv-as not installed (Debian's spirv-tools): the committed hand.spv is used as is")
	}
	out := filepath.Join(t.TempDir(), "hand.spv")
	if msg, err := exec.Command(as, "--target-env", "vulkan1.2", "testdata/hand.spvasm", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, msg)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, handSPV) {
		t.Fatal("testdata/hand.spv is not testdata/hand.spvasm assembled: run spirv-as --target-env vulkan1.2 testdata/hand.spvasm -o testdata/hand.spv")
	}
	if val, err := exec.LookPath("spirv-val"); err == nil {
		if msg, err := exec.Command(val, "--target-env", "vulkan1.2", out).CombinedOutput(); err != nil {
			t.Fatalf("spirv-val: %v\n%s", err, msg)
		}
	}
}

func TestNoLoader(t *testing.T) {
	t.Setenv("GPUKVET_LIBVULKAN", "/nonexistent/libvulkan.so.1")
	_, err := Open()
	if err == nil || !strings.Contains(err.Error(), "no Vulkan loader") {
		t.Fatalf("Open with no loader: got %v, want an error saying there is no Vulkan loader", err)
	}
}

func TestBadDeviceNumber(t *testing.T) {
	t.Setenv("GPUKVET_VULKAN_DEVICE", "x")
	if _, err := Open(); err == nil || !strings.Contains(err.Error(), "GPUKVET_VULKAN_DEVICE") {
		t.Fatalf("Open with GPUKVET_VULKAN_DEVICE=x: %v", err)
	}
	t.Setenv("GPUKVET_VULKAN_DEVICE", "")
	if _, err := OpenBackend(); err != nil {
		t.Skipf("no Vulkan here: %v", err)
	}
	t.Setenv("GPUKVET_VULKAN_DEVICE", "99")
	if _, err := Open(); err == nil || !strings.Contains(err.Error(), "but the devices are") {
		t.Fatalf("Open with GPUKVET_VULKAN_DEVICE=99: %v", err)
	}
}

func TestInfo(t *testing.T) {
	b := openOrSkip(t)
	in := b.Info()
	t.Logf("%+v", in)
	if in.Name == "" || in.MaxWorkGroupInvocations < 128 || in.MaxPushConstantsSize < 128 {
		t.Fatalf("implausible device info %+v", in)
	}
}

func saxpyCase(t *testing.T, b *Backend, n, bs int) {
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i)
	}
	mx, my := upload(t, b, x), upload(t, b, y)
	defer b.Free(mx)
	defer b.Free(my)
	k := handKernel("hand_Saxpy", f32, f32s, f32s)
	block := gpu.Dim3{X: bs, Y: 1, Z: 1}
	grid := gpu.Dim3{X: (n + bs - 1) / bs, Y: 1, Z: 1}
	args := []backend.Arg{{Value: reflect.ValueOf(float32(3))}, {Mem: mx}, {Mem: my}}
	// Two launches in a row, not waited for: the second must see the first's writes.
	for range 2 {
		if err := b.Launch(k, grid, block, args); err != nil {
			t.Fatal(err)
		}
	}
	got := read(t, b, my)
	for i := range got {
		// The hand module's a*x + y has no NoContraction, so a driver may
		// fuse it into an FMA (NVIDIA's does), as Go allows: accept the
		// result rounded after each operation or once per launch. The
		// inputs are integers below 2^28, so float64 arithmetic is exact
		// and rounding it to float32 is the fused result.
		p := 3 * float64(x[i])
		fused := float32(p + float64(float32(p+float64(y[i]))))
		unfused := float32(3*x[i]) + float32(float32(3*x[i])+y[i])
		if got[i] != unfused && got[i] != fused {
			t.Fatalf("y[%d] = %v, want %v (or %v fused)", i, got[i], unfused, fused)
		}
	}
}

func TestSaxpy(t *testing.T) {
	b := openOrSkip(t)
	saxpyCase(t, b, 1000, 64)
}

// TestSaxpyStaged runs the staging path of a discrete GPU (device-local
// buffers the host cannot map) on whatever device is here, with buffers
// larger than the staging buffer.
func TestSaxpyStaged(t *testing.T) {
	b := openOrSkip(t)
	b.staged = true
	saxpyCase(t, b, stagingSize/4+1000, 256)
}

// TestBlockShapes launches one kernel with several block shapes (one
// pipeline each, from the spec constants).
func TestBlockShapes(t *testing.T) {
	b := openOrSkip(t)
	const n = 1000
	k := handKernel("hand_Saxpy", f32, f32s, f32s)
	for _, bs := range []int{1, 32, 100, 256} {
		x := make([]float32, n)
		for i := range x {
			x[i] = 1
		}
		mx, my := upload(t, b, x), upload(t, b, make([]float32, n))
		grid := gpu.Dim3{X: (n + bs - 1) / bs, Y: 1, Z: 1}
		if err := b.Launch(k, grid, gpu.Dim3{X: bs, Y: 1, Z: 1}, []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: mx}, {Mem: my}}); err != nil {
			t.Fatal(err)
		}
		for i, v := range read(t, b, my) {
			if v != 1 {
				t.Fatalf("block %d: y[%d] = %v, want 1", bs, i, v)
			}
		}
		b.Free(mx)
		b.Free(my)
	}
}

func TestTrapAndRecover(t *testing.T) {
	b := openOrSkip(t)
	mx, my := upload(t, b, make([]float32, 10)), upload(t, b, make([]float32, 100))
	k := handKernel("hand_Saxpy", f32, f32s, f32s)
	args := []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: mx}, {Mem: my}}
	if err := b.Launch(k, gpu.Dim3{X: 4, Y: 1, Z: 1}, gpu.Dim3{X: 32, Y: 1, Z: 1}, args); err != nil {
		t.Fatal(err)
	}
	err := b.Sync()
	var trap *backend.Trap
	if !errors.As(err, &trap) {
		t.Fatalf("Sync: %v, want a trap", err)
	}
	if trap.Pos != "hand.go:12:7" || !strings.HasPrefix(trap.Msg, "index out of range [") || !strings.HasSuffix(trap.Msg, "with length 10") || trap.Kernel != "hand.hand_Saxpy" {
		t.Fatalf("trap %v", trap)
	}
	if i := trap.Block.X*32 + trap.Thread.X; i < 10 || i >= 100 {
		t.Fatalf("trap at block %v thread %v: index %d is in range", trap.Block, trap.Thread, i)
	}
	// The trap is reported once, and the device works on.
	if err := b.Sync(); err != nil {
		t.Fatalf("second Sync: %v", err)
	}
	my2 := upload(t, b, make([]float32, 10))
	if err := b.Launch(k, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 32, Y: 1, Z: 1}, []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: mx}, {Mem: my2}}); err != nil {
		t.Fatal(err)
	}
	read(t, b, my2)
	// A trap is reported by Read too.
	if err := b.Launch(k, gpu.Dim3{X: 4, Y: 1, Z: 1}, gpu.Dim3{X: 32, Y: 1, Z: 1}, args); err != nil {
		t.Fatal(err)
	}
	out := make([]float32, 100)
	if err := b.Read(reflect.ValueOf(out), my); !errors.As(err, &trap) {
		t.Fatalf("Read after a trapping launch: %v, want the trap", err)
	}
}

// TestManyLaunches queues more launches than there are trap records and
// command buffers kept in flight.
func TestManyLaunches(t *testing.T) {
	b := openOrSkip(t)
	const n, launches = 64, trapSlots + 100
	x := make([]float32, n)
	for i := range x {
		x[i] = 1
	}
	mx, my := upload(t, b, x), upload(t, b, make([]float32, n))
	k := handKernel("hand_Saxpy", f32, f32s, f32s)
	for range launches {
		if err := b.Launch(k, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: n, Y: 1, Z: 1}, []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: mx}, {Mem: my}}); err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range read(t, b, my) {
		if v != launches {
			t.Fatalf("y[%d] = %v, want %d", i, v, launches)
		}
	}
}

func TestSharedMemory(t *testing.T) {
	b := openOrSkip(t)
	k := reverseInShared(t, b)
	// The same kernel on a device with less shared memory is refused.
	b2 := openOrSkip(t)
	b2.info.MaxSharedMemory = 1000
	err := b2.Launch(handKernel("hand_Shared", f32s), gpu.Dim3{X: 1, Y: 1, Z: 1}, k.Block, []backend.Arg{{Mem: upload(t, b2, make([]float32, 256))}})
	if err == nil || !strings.Contains(err.Error(), "hand.hand_Shared uses 1024 bytes of shared") {
		t.Fatalf("kernel over the shared-memory limit: %v", err)
	}
}

// reverseInShared runs hand_Shared on one block of 256 threads, which
// reverses a buffer through shared memory across a barrier, checks the
// result and returns the kernel.
func reverseInShared(t *testing.T, b *Backend) *backend.Kernel {
	t.Helper()
	x := make([]float32, 256)
	for i := range x {
		x[i] = float32(i)
	}
	mx := upload(t, b, x)
	k := handKernel("hand_Shared", f32s)
	k.Block = gpu.Dim3{X: 256, Y: 1, Z: 1}
	if err := b.Launch(k, gpu.Dim3{X: 1, Y: 1, Z: 1}, k.Block, []backend.Arg{{Mem: mx}}); err != nil {
		t.Fatal(err)
	}
	for i, v := range read(t, b, mx) {
		if v != float32(255-i) {
			t.Fatalf("x[%d] = %v, want %d", i, v, 255-i)
		}
	}
	return k
}

func TestEmptyBuffers(t *testing.T) {
	b := openOrSkip(t)
	me, err := b.Alloc(f32, 0)
	if err != nil {
		t.Fatal(err)
	}
	my := upload(t, b, make([]float32, 5))
	k := handKernel("hand_Saxpy", f32, f32s, f32s)
	// len(x) = 0: every thread with i < len(y) traps on x[i].
	if err := b.Launch(k, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 8, Y: 1, Z: 1}, []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: me}, {Mem: my}}); err != nil {
		t.Fatal(err)
	}
	var trap *backend.Trap
	if err := b.Sync(); !errors.As(err, &trap) || !strings.HasSuffix(trap.Msg, "with length 0") {
		t.Fatalf("Sync: %v", err)
	}
	if err := b.Read(reflect.ValueOf([]float32{}), me); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(me); err != nil {
		t.Fatal(err)
	}
}

func TestClearErrors(t *testing.T) {
	b := openOrSkip(t)
	m := upload(t, b, make([]float32, 4))
	one := gpu.Dim3{X: 1, Y: 1, Z: 1}
	saxpyArgs := []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: m}, {Mem: m}}
	type big struct{ A [8200]float64 } // 65600 bytes: over the argument block's limit
	for _, c := range []struct {
		name  string
		k     *backend.Kernel
		block gpu.Dim3
		args  []backend.Arg
		want  string
	}{
		{"no SPIR-V", &backend.Kernel{Name: "p.K", Params: []reflect.Type{f32s}, Code: &backend.Code{PTX: []byte("x"), Entry: "p_K"}},
			one, []backend.Arg{{Mem: m}}, "kernel p.K has no SPIR-V code for the vulkan backend: run `go generate`"},
		{"no entry", handKernel("hand_Missing", f32s), one, []backend.Arg{{Mem: m}}, `entry point "hand_Missing" is not in its SPIR-V module`},
		{"unknown feature", &backend.Kernel{Name: "p.F", Params: []reflect.Type{f32s}, Code: &backend.Code{SPIRV: handSPV, Entry: "hand_Shared", SPIRVFeatures: []string{"teleport"}}},
			one, []backend.Arg{{Mem: m}}, `kernel p.F needs the device feature "teleport"`},
		{"parameters", &backend.Kernel{Name: "p.Big", Params: []reflect.Type{reflect.TypeFor[big](), f32s}, Code: &backend.Code{SPIRV: handSPV, Entry: "hand_Shared"}},
			one, []backend.Arg{{Value: reflect.ValueOf(big{})}, {Mem: m}}, "kernel p.Big: its parameters take 65624 bytes, more than the 65536"},
		{"block too large", handKernel("hand_Saxpy", f32, f32s, f32s), gpu.Dim3{X: 1 << 20, Y: 1, Z: 1}, saxpyArgs, "exceeds the device's maxComputeWorkGroupSize[0]"},
		{"too many threads", handKernel("hand_Saxpy", f32, f32s, f32s), gpu.Dim3{X: b.info.MaxWorkGroupSize[0], Y: b.info.MaxWorkGroupSize[1], Z: 1}, saxpyArgs, "maxComputeWorkGroupInvocations"},
	} {
		err := b.Launch(c.k, one, c.block, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A missing feature names the kernel and the Vulkan feature.
	b.has["float64"] = false
	k := &backend.Kernel{Name: "p.D", Params: []reflect.Type{f32s}, Code: &backend.Code{SPIRV: handSPV, Entry: "hand_Shared", SPIRVFeatures: []string{"float64"}}}
	if err := b.Launch(k, one, one, []backend.Arg{{Mem: m}}); err == nil || !strings.Contains(err.Error(), "kernel p.D needs the Vulkan device feature shaderFloat64, which") {
		t.Errorf("missing feature: %v", err)
	}
	// So does a missing float-controls property Go's semantics need.
	b.has["shaderSignedZeroInfNanPreserveFloat32"] = false
	k = &backend.Kernel{Name: "p.Z", Params: []reflect.Type{f32s}, Code: &backend.Code{SPIRV: handSPV, Entry: "hand_Shared", SPIRVFeatures: []string{"shaderSignedZeroInfNanPreserveFloat32"}}}
	if err := b.Launch(k, one, one, []backend.Arg{{Mem: m}}); err == nil || !strings.Contains(err.Error(), "kernel p.Z needs the Vulkan device feature shaderSignedZeroInfNanPreserveFloat32") {
		t.Errorf("missing float control: %v", err)
	}
	// The device still works.
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
}

func TestOutOfMemory(t *testing.T) {
	b := openOrSkip(t)
	var total uint64
	for i := uint32(0); i < b.mem.memoryHeapCount; i++ {
		total += b.mem.memoryHeaps[i].size
	}
	_, err := b.Alloc(reflect.TypeFor[byte](), int(total*4))
	if err == nil {
		t.Fatal("allocating 4× the memory of every heap succeeded")
	}
	if !strings.Contains(err.Error(), "not enough memory") && !strings.Contains(err.Error(), "vulkan: allocating") {
		t.Fatalf("out of memory: %v", err)
	}
	t.Log(err)
	// Still usable.
	saxpyCase(t, b, 100, 64)
}

// TestDropFloatModes checks the module rewrite for a device without
// shaderDenormPreserveFloatN (the modes of the missing widths go, and the
// capability goes with the last of them) and for GPUKVET_VK_DROP_FLOAT_MODES
// (every width of a mode named, and its capability).
func TestDropFloatModes(t *testing.T) {
	ins := func(op uint32, args ...uint32) []uint32 {
		return append([]uint32{uint32(len(args)+1)<<16 | op}, args...)
	}
	dp, sz := floatModes["DenormPreserve"], floatModes["SignedZeroInfNanPreserve"]
	module := func(signedZero bool, widths ...uint32) []uint32 {
		w := []uint32{spirvMagic, 0x10500, 0, 100, 0}
		w = append(w, ins(opCapability, 1)...)
		if len(widths) > 0 {
			w = append(w, ins(opCapability, dp.capability)...)
		}
		if signedZero {
			w = append(w, ins(opCapability, sz.capability)...)
		}
		for _, width := range widths {
			w = append(w, ins(opExecutionMode, 7, dp.mode, width)...)
		}
		if signedZero {
			w = append(w, ins(opExecutionMode, 7, sz.mode, 32)...)
			w = append(w, ins(opExecutionMode, 9, sz.mode, 64)...)
		}
		return w
	}
	for _, c := range []struct {
		drop       map[uint32][]uint32
		had, want  []uint32
		signedZero bool // SignedZeroInfNanPreserve left
	}{
		{nil, []uint32{32, 64}, []uint32{32, 64}, true},
		{map[uint32][]uint32{dp.mode: {64}}, []uint32{32, 64}, []uint32{32}, true},
		{map[uint32][]uint32{dp.mode: {32}}, []uint32{32, 64}, []uint32{64}, true},
		{map[uint32][]uint32{dp.mode: {32, 64}}, []uint32{32, 64}, nil, true},
		{map[uint32][]uint32{dp.mode: {32}}, []uint32{32}, nil, true},
		{map[uint32][]uint32{sz.mode: nil}, []uint32{32, 64}, []uint32{32, 64}, false},
		{map[uint32][]uint32{sz.mode: nil, dp.mode: {32}}, []uint32{32}, nil, false},
		{map[uint32][]uint32{dp.mode: nil}, []uint32{32, 64}, nil, true},
	} {
		got := dropFloatModes(module(true, c.had...), c.drop)
		if want := module(c.signedZero, c.want...); !slices.Equal(got, want) {
			t.Errorf("dropping %v from %v: got %x, want %x", c.drop, c.had, got, want)
		}
	}
	drop := map[uint32][]uint32{dp.mode: nil}
	addWidth(drop, dp.mode, 32)
	if drop[dp.mode] != nil {
		t.Errorf("a width added to a mode dropped at every width narrowed it to %v", drop[dp.mode])
	}
}

// TestDropFloatModesEnv checks GPUKVET_VK_DROP_FLOAT_MODES end to end:
// kernels still load and run, Info().Deviations says Go's float semantics
// may be lost, and a name that is no mode is an error naming the variable.
func TestDropFloatModesEnv(t *testing.T) {
	t.Setenv(envDropFloatModes, "SignedZeroInfNanPreserve, RoundingModeRTE")
	b := openOrSkip(t)
	if !slices.ContainsFunc(b.Info().Deviations, func(d string) bool { return strings.Contains(d, envDropFloatModes) }) {
		t.Errorf("Info().Deviations %q does not name %s", b.Info().Deviations, envDropFloatModes)
	}
	saxpyCase(t, b, 100, 64)

	t.Setenv(envDropFloatModes, "SignedZeroPreserve")
	b2 := openOrSkip(t)
	k := handKernel("hand_Saxpy", f32, f32s, f32s)
	m := upload(t, b2, make([]float32, 64))
	defer b2.Free(m)
	err := b2.Launch(k, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}, []backend.Arg{{Value: reflect.ValueOf(float32(3))}, {Mem: m}, {Mem: m}})
	if err == nil || !strings.Contains(err.Error(), envDropFloatModes) || !strings.Contains(err.Error(), "SignedZeroInfNanPreserve") {
		t.Errorf("a mode that does not exist: got %v, want an error naming %s and the known modes", err, envDropFloatModes)
	}
}

// TestArgsBuffer launches a kernel of 272 bytes of parameters (more than
// the push constants of any device: lavapipe has 128, NVIDIA 256) many
// times without waiting, each with its own scalar, more launches than the
// argument buffer holds at once: every launch must see its own parameters
// (an argument block overwritten while its launch is queued would change
// the sum). Staged, the argument buffer is device memory the host does not
// map, written with vkCmdUpdateBuffer.
func TestArgsBuffer(t *testing.T) {
	for _, staged := range []bool{false, true} {
		b := openOrSkip(t)
		b.staged = staged
		const n, launches = 64, 700
		params := []reflect.Type{}
		var args []backend.Arg
		ones := make([]float32, n)
		for i := range ones {
			ones[i] = 1
		}
		for i := range 16 {
			params = append(params, f32s)
			switch i {
			case 0:
				args = append(args, backend.Arg{Mem: upload(t, b, ones)})
			case 15:
				args = append(args, backend.Arg{Mem: upload(t, b, make([]float32, n))})
			default:
				args = append(args, backend.Arg{Mem: upload(t, b, []float32{float32(i)})})
			}
		}
		params = append(params, f32)
		k := handKernel("hand_Wide", params...)
		var want float32
		for l := range launches {
			a := append(args[:16:16], backend.Arg{Value: reflect.ValueOf(float32(l + 1))})
			want += float32(l + 1)
			if err := b.Launch(k, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: n, Y: 1, Z: 1}, a); err != nil {
				t.Fatal(err)
			}
		}
		if kc := b.kernels[k.Code]; !kc.layout.Indirect || kc.layout.Size != 272 || kc.layout.PushSize != 8 {
			t.Errorf("layout of hand_Wide: %+v, want 272 bytes in an argument buffer", kc.layout)
		}
		for i, v := range read(t, b, args[15].Mem) {
			if v != want {
				t.Fatalf("staged=%v: p15[%d] = %v, want %v", staged, i, v, want)
			}
		}
	}
}

// TestDeviations: a device without denormal preservation (NVIDIA's driver
// for float32) is reported as flushing subnormals, per width; one with it,
// or without float64 at all for the float64 line, is not; lavapipe reports
// its loop limiter (device's TestLoopLimitDeviation runs it).
func TestDeviations(t *testing.T) {
	for _, c := range []struct {
		has  map[string]bool
		name string
		want []string
	}{
		{map[string]bool{"float64": true, "shaderDenormPreserveFloat32": true, "shaderDenormPreserveFloat64": true}, "", nil},
		{map[string]bool{"float64": true, "shaderDenormPreserveFloat32": true, "shaderDenormPreserveFloat64": true}, "llvmpipe (LLVM 15.0.6, 256 bits)", []string{"loop limiter"}},
		{map[string]bool{"float64": true, "shaderDenormPreserveFloat64": true}, "NVIDIA H200", []string{"float32 subnormal values may be flushed to zero (the device lacks shaderDenormPreserveFloat32)"}},
		{map[string]bool{"float64": true}, "", []string{"shaderDenormPreserveFloat32", "shaderDenormPreserveFloat64"}},
		{map[string]bool{"shaderDenormPreserveFloat32": true}, "", nil},
	} {
		got := deviations(c.has, c.name)
		if len(got) != len(c.want) {
			t.Errorf("deviations(%v) = %q, want %d lines", c.has, got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("deviations(%v)[%d] = %q, want it to contain %q", c.has, i, got[i], w)
			}
		}
	}
	// A kernel that asks for denormal preservation still runs on a device
	// without it (the mode is dropped from its module), and Info says so.
	b := openOrSkip(t)
	b.has["shaderDenormPreserveFloat32"] = false
	b.info.Deviations = deviations(b.has, b.info.Name)
	m := upload(t, b, make([]float32, 256))
	k := &backend.Kernel{Name: "p.Denorm", Params: []reflect.Type{f32s}, Code: &backend.Code{SPIRV: handSPV, Entry: "hand_Shared", SPIRVFeatures: []string{"shaderDenormPreserveFloat32"}}, Block: gpu.Dim3{X: 256, Y: 1, Z: 1}}
	if err := b.Launch(k, gpu.Dim3{X: 1, Y: 1, Z: 1}, k.Block, []backend.Arg{{Mem: m}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
	if len(b.Info().Deviations) == 0 {
		t.Error("Info().Deviations is empty on a device without shaderDenormPreserveFloat32")
	}
}
