package kernels

// The side-by-side benchmark: every kernel of this package, compiled by
// gpukvet gen (the PTX embedded in gpukvet_gen.go, bounds checks on), and
// its CUDA C twin from twins.cu compiled by nvcc, loaded on one GPU in one
// process. Each result of both is checked against the cpu backend running
// the Go kernel, then both are timed with CUDA events, alternating, and the
// table (median times, ratio, registers and local memory per thread, the
// geometric mean of the ratios) is printed and written to
// $GPUKVET_TWINS_OUT if set.
//
//	nvcc -O3 -arch=sm_90 -cubin -o twins.cubin bench/kernels/twins.cu
//	GPUKVET_TWINS_CUBIN=twins.cubin go test ./bench/kernels -run TestTwins -v
//
// gpukvet's side runs the entry point that device/cuda would launch for
// each case's arguments (cuda.Backend.LaunchChoice): the variant compiled
// assuming the kernel's launch facts where they hold, the variant with
// non-coherent loads of the read-only slices where there is one.
// GPUKVET_TWINS_NOFAST=1 leaves out the first, GPUKVET_TWINS_COHERENT=1
// the second. The table names the entry point timed.
//
// Without a GPU or without the cubin the test skips.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/device/cuda"
	"github.com/gpukvet/gpukvet/gpu"
)

// ref stands for the device address of Go argument i (a slice) in a
// twin's parameter list; lenOf for its length (an int64).
type (
	ref   int
	lenOf int
)

// twinCase is one kernel pair at one problem size.
type twinCase struct {
	name        string
	fn          any   // the Go kernel
	args        []any // Go arguments: scalars and slices (host data)
	twin        []any // the CUDA twin's parameters: literals, ref, lenOf
	grid, block gpu.Dim3
	outs        []int   // indices of the output slices
	tol         float64 // relative tolerance of float outputs (0: exact)
}

func dim(x, y, z int) gpu.Dim3 { return gpu.Dim3{X: x, Y: y, Z: z} }

func randF32(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

// cases returns every pair; big selects the timing sizes, otherwise sizes
// the cpu backend checks in seconds.
func cases(big bool) []twinCase {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(small, large int) int {
		if big {
			return large
		}
		return small
	}
	n := pick(1<<16, 1<<24)
	nx := pick(256, 4096)
	n3 := pick(32, 256)
	mm := pick(128, 2048)
	tr := pick(256, 8192)
	var out []twinCase
	add := func(c twinCase) { out = append(out, c) }
	blocks := func(n, b int) int { return (n + b - 1) / b }

	add(twinCase{name: "Triad", fn: Triad, args: []any{float32(1.5), make([]float32, n), randF32(r, n), randF32(r, n)},
		twin: []any{float32(1.5), ref(1), ref(2), ref(3), lenOf(1)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{1}, tol: 1e-6})
	add(twinCase{name: "StridedCopy", fn: StridedCopy, args: []any{4, randF32(r, 4*n/4), make([]float32, n/4)},
		twin: []any{int64(4), ref(1), ref(2), lenOf(2)}, grid: dim(blocks(n/4, 256), 1, 1), block: dim(256, 1, 1), outs: []int{2}})
	add(twinCase{name: "ReduceTree", fn: ReduceTree, args: []any{randF32(r, n), make([]float32, blocks(n, 256))},
		twin: []any{ref(0), ref(1), lenOf(0)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{1}, tol: 1e-4})
	add(twinCase{name: "ReduceGridStride", fn: ReduceGridStride, args: []any{randF32(r, n), make([]float32, 264)},
		twin: []any{ref(0), ref(1), lenOf(0)}, grid: dim(264, 1, 1), block: dim(256, 1, 1), outs: []int{1}, tol: 1e-4})
	add(twinCase{name: "Stencil2D", fn: Stencil2D, args: []any{nx, nx, float32(0.5), float32(0.125), randF32(r, nx*nx), make([]float32, nx*nx)},
		twin: []any{int64(nx), int64(nx), float32(0.5), float32(0.125), ref(4), ref(5)}, grid: dim(nx/32, nx/8, 1), block: dim(32, 8, 1), outs: []int{5}, tol: 1e-5})
	add(twinCase{name: "Stencil3D", fn: Stencil3D, args: []any{n3, n3, n3, float32(0.4), float32(0.1), randF32(r, n3*n3*n3), make([]float32, n3*n3*n3)},
		twin: []any{int64(n3), int64(n3), int64(n3), float32(0.4), float32(0.1), ref(5), ref(6)}, grid: dim(n3/32, n3/4, n3/2), block: dim(32, 4, 2), outs: []int{6}, tol: 1e-5})
	add(twinCase{name: "MatMul", fn: MatMul, args: []any{mm, randF32(r, mm*mm), randF32(r, mm*mm), make([]float32, mm*mm)},
		twin: []any{int64(mm), ref(1), ref(2), ref(3)}, grid: dim(mm/16, mm/16, 1), block: dim(16, 16, 1), outs: []int{3}, tol: 1e-4})
	add(twinCase{name: "Transpose", fn: Transpose, args: []any{tr, randF32(r, tr*tr), make([]float32, tr*tr)},
		twin: []any{int64(tr), ref(1), ref(2)}, grid: dim(tr/32, tr/32, 1), block: dim(32, 8, 1), outs: []int{2}})
	bytes := make([]uint8, 4*n)
	for i := range bytes {
		bytes[i] = uint8(r.IntN(256) & r.IntN(256)) // skewed: some bins busier
	}
	add(twinCase{name: "HistShared", fn: HistShared, args: []any{bytes, make([]uint32, 256)},
		twin: []any{ref(0), ref(1), lenOf(0)}, grid: dim(264, 1, 1), block: dim(256, 1, 1), outs: []int{1}})
	add(twinCase{name: "HistGlobal", fn: HistGlobal, args: []any{bytes[:n], make([]uint32, 256)},
		twin: []any{ref(0), ref(1), lenOf(0)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{1}})
	add(twinCase{name: "Scan", fn: Scan, args: []any{randF32(r, n), make([]float32, n)},
		twin: []any{ref(0), ref(1), lenOf(0)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{1}, tol: 1e-4})
	add(twinCase{name: "Horner", fn: Horner, args: []any{randF32(r, n), make([]float32, n)},
		twin: []any{ref(0), ref(1), lenOf(0)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{1}, tol: 1e-5})
	perm := make([]int32, n)
	for i, p := range r.Perm(n) {
		perm[i] = int32(p)
	}
	add(twinCase{name: "Gather", fn: Gather, args: []any{perm, randF32(r, n), make([]float32, n)},
		twin: []any{ref(0), ref(1), ref(2), lenOf(2)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{2}})
	add(twinCase{name: "Scatter", fn: Scatter, args: []any{perm, randF32(r, n), make([]float32, n)},
		twin: []any{ref(0), ref(1), ref(2), lenOf(1)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{2}})
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = r.NormFloat64(), r.NormFloat64()
	}
	add(twinCase{name: "Daxpy", fn: Daxpy, args: []any{0.75, xs, ys},
		twin: []any{0.75, ref(1), ref(2), lenOf(1)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{2}, tol: 1e-12})
	is := make([]int64, n)
	for i := range is {
		is[i] = r.Int64()
	}
	add(twinCase{name: "Mix64", fn: Mix64, args: []any{is, make([]int64, n)},
		twin: []any{ref(0), ref(1), lenOf(0)}, grid: dim(blocks(n, 256), 1, 1), block: dim(256, 1, 1), outs: []int{1}})
	add(twinCase{name: "Smooth2D", fn: Smooth2D, args: []any{nx, nx, randF32(r, nx*nx), make([]float32, nx*nx)},
		twin: []any{int64(nx), int64(nx), ref(2), ref(3)}, grid: dim(nx/16, nx/16, 1), block: dim(16, 16, 1), outs: []int{3}, tol: 1e-5})
	return out
}

// gpuRun holds one case's buffers on the GPU and the two launches.
type gpuRun struct {
	c        twinCase
	mem      []backend.Memory // by Go argument (nil for scalars)
	trap     backend.Memory
	goArgs   []any // gpukvet's ABI: slices as pointer and length, then the trap record
	twinArgs []any
}

func newGPURun(t *testing.T, be *cuda.Backend, c twinCase) *gpuRun {
	g := &gpuRun{c: c, mem: make([]backend.Memory, len(c.args))}
	for i, a := range c.args {
		v := reflect.ValueOf(a)
		if v.Kind() != reflect.Slice {
			switch a := a.(type) {
			case int:
				g.goArgs = append(g.goArgs, int64(a))
			default:
				g.goArgs = append(g.goArgs, a)
			}
			continue
		}
		m, err := be.Alloc(v.Type().Elem(), v.Len())
		if err != nil {
			t.Fatal(err)
		}
		g.mem[i] = m
		g.goArgs = append(g.goArgs, m, int64(v.Len()))
	}
	var err error
	if g.trap, err = be.Alloc(reflect.TypeOf(uint64(0)), 6); err != nil {
		t.Fatal(err)
	}
	g.goArgs = append(g.goArgs, g.trap)
	for _, a := range c.twin {
		switch a := a.(type) {
		case ref:
			g.twinArgs = append(g.twinArgs, g.mem[a])
		case lenOf:
			g.twinArgs = append(g.twinArgs, int64(reflect.ValueOf(c.args[a]).Len()))
		default:
			g.twinArgs = append(g.twinArgs, a)
		}
	}
	return g
}

// reset writes the host data of every slice to the device.
func (g *gpuRun) reset(t *testing.T, be *cuda.Backend) {
	for i, m := range g.mem {
		if m != nil {
			if err := be.Write(m, reflect.ValueOf(g.c.args[i])); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := be.Write(g.trap, reflect.ValueOf(make([]uint64, 6))); err != nil {
		t.Fatal(err)
	}
}

func (g *gpuRun) read(t *testing.T, be *cuda.Backend, i int) any {
	v := reflect.ValueOf(g.c.args[i])
	dst := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	if err := be.Read(dst, g.mem[i]); err != nil {
		t.Fatal(err)
	}
	return dst.Interface()
}

// cpuResult runs the Go kernel on the cpu backend and returns its outputs.
func cpuResult(t *testing.T, c twinCase) []any {
	d, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	return launchOnce(t, d, c)
}

// launchOnce runs c on d and returns its outputs.
func launchOnce(t *testing.T, d *device.Device, c twinCase) []any {
	args, bufs := deviceArgs(t, d, c, true)
	defer freeAll(bufs)
	if err := d.Launch(c.fn, c.grid, c.block, args...); err != nil {
		t.Fatalf("%s on the %s backend: %v", c.name, d.Backend(), err)
	}
	if err := d.Sync(); err != nil {
		t.Fatalf("%s on the %s backend: %v", c.name, d.Backend(), err)
	}
	var outs []any
	for _, i := range c.outs {
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
func deviceArgs(t *testing.T, d *device.Device, c twinCase, upload bool) (args []any, bufs map[int]any) {
	bufs = map[int]any{}
	for i, a := range c.args {
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

func buffer[T any](t *testing.T, d *device.Device, s []T, upload bool) *device.Buffer[T] {
	if upload {
		return must(t)(device.Upload(d, s)).(*device.Buffer[T])
	}
	return must(t)(device.Alloc[T](d, len(s))).(*device.Buffer[T])
}

// chooser is the cuda backend with Launch replaced: it records which of a
// kernel's entry points device/cuda would launch with the arguments
// (LaunchChoice, the one definition of that choice) instead of launching,
// so that TestTwins launches by name what package device would.
type chooser struct {
	backend.Backend
	choose   func(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) (nc, fast bool, err error)
	code     *backend.Code
	nc, fast bool
}

func (ch *chooser) Launch(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) error {
	ch.code = k.Code
	var err error
	ch.nc, ch.fast, err = ch.choose(k, grid, block, args)
	return err
}

// twinEntry returns the entry point of c's gpukvet kernel that device/cuda
// would launch for c's arguments, and the kernel's compiled code, asking
// ch through d (a Device over ch), less the variants the environment
// turns off.
func twinEntry(t *testing.T, d *device.Device, ch *chooser, c twinCase) (string, *backend.Code) {
	args, bufs := deviceArgs(t, d, c, false) // lengths matter, not contents
	ch.code = nil
	if err := d.Launch(c.fn, c.grid, c.block, args...); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	for _, b := range bufs {
		if err := reflect.ValueOf(b).MethodByName("Free").Call(nil)[0]; !err.IsNil() {
			t.Fatal(err.Interface())
		}
	}
	if ch.code == nil || len(ch.code.PTX) == 0 {
		t.Fatalf("%s: no compiled code registered (run go generate in bench/kernels)", c.name)
	}
	nc, fast := ch.nc, ch.fast
	if os.Getenv("GPUKVET_TWINS_COHERENT") != "" {
		nc = false
	}
	if os.Getenv("GPUKVET_TWINS_NOFAST") != "" {
		fast = false
	}
	return cuda.EntryName(ch.code, nc, fast), ch.code
}

func must(t *testing.T) func(any, error) any {
	return func(v any, err error) any {
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// compare reports the first element where got differs from want beyond
// the relative tolerance tol (exactly for integers).
func compare(got, want any, tol float64) error {
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

func TestTwins(t *testing.T) {
	tb := openTwins(t)
	tb.check(t)
	table := tb.timeTable(t)
	fmt.Print(table)
	if out := os.Getenv("GPUKVET_TWINS_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// twinBench is TestTwins' state: the GPU, the device over it that chooses
// gpukvet's entry points, the loaded kernels of both sides, and what the
// check at the small sizes found.
type twinBench struct {
	be *cuda.Backend
	ch *chooser
	d  *device.Device
	// raw holds gpukvet's entry points by name, each loaded once; nvs the
	// twins by kernel name.
	raw, nvs map[string]*cuda.RawFunc
	checked  map[string]string // the gpukvet entry checked at the small size
	wrong    map[string]bool   // the kernels with a result unlike the cpu backend's
}

// openTwins opens the cuda backend and loads the nvcc twins from
// $GPUKVET_TWINS_CUBIN, or skips t without either. The backend is closed
// when t ends.
func openTwins(t *testing.T) *twinBench {
	cubinPath := os.Getenv("GPUKVET_TWINS_CUBIN")
	if cubinPath == "" {
		t.Skip("GPUKVET_TWINS_CUBIN is not set (nvcc -O3 -arch=sm_90 -cubin -o twins.cubin bench/kernels/twins.cu)")
	}
	cubin, err := os.ReadFile(cubinPath)
	if err != nil {
		t.Fatal(err)
	}
	be, err := cuda.OpenBackend()
	if err != nil {
		t.Skipf("no cuda GPU: %v", err)
	}
	t.Cleanup(func() { be.Close() })
	tb := &twinBench{be: be, ch: &chooser{Backend: be, choose: be.LaunchChoice},
		raw: map[string]*cuda.RawFunc{}, nvs: map[string]*cuda.RawFunc{}, checked: map[string]string{}, wrong: map[string]bool{}}
	tb.d, err = device.New(tb.ch) // not closed: closing be closes the backend
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases(false) {
		nv, err := be.LoadRaw(cubin, c.name)
		if err != nil {
			t.Fatal(err)
		}
		tb.nvs[c.name] = nv
	}
	return tb
}

// gpukvetFunc returns the gpukvet entry point of c, chosen per case and
// size: launch facts may hold at one size and not at the other.
func (tb *twinBench) gpukvetFunc(t *testing.T, c twinCase) *cuda.RawFunc {
	entry, code := twinEntry(t, tb.d, tb.ch, c)
	if f, ok := tb.raw[entry]; ok {
		return f
	}
	f, err := tb.be.LoadRaw(code.PTX, entry)
	if err != nil {
		t.Fatal(err)
	}
	tb.raw[entry] = f
	return f
}

// check runs both sides of every case at its small size and compares
// their results with the cpu backend's. A kernel that fails is still
// timed, and marked in the table.
func (tb *twinBench) check(t *testing.T) {
	for _, c := range cases(false) {
		want := cpuResult(t, c)
		g := newGPURun(t, tb.be, c)
		gk := tb.gpukvetFunc(t, c)
		tb.checked[c.name] = gk.Name
		t.Logf("%s: checking entry %s", c.name, gk.Name)
		tb.checkSide(t, g, "gpukvet", gk, g.goArgs, want)
		tb.checkSide(t, g, "nvcc", tb.nvs[c.name], g.twinArgs, want)
		g.free(tb.be)
	}
}

// checkSide launches f, one side (which) of g's case, once on fresh inputs
// and compares its outputs with want.
func (tb *twinBench) checkSide(t *testing.T, g *gpuRun, which string, f *cuda.RawFunc, args []any, want []any) {
	c := g.c
	g.reset(t, tb.be)
	if err := f.Launch(1, c.grid, c.block, args...); err != nil {
		t.Fatal(err)
	}
	if err := tb.be.Sync(); err != nil {
		t.Fatal(err)
	}
	if trap := g.trapRecord(t, tb.be); trap[0] != 0 {
		t.Errorf("%s (%s): trapped, record %x", c.name, which, trap)
		tb.wrong[c.name] = true
	}
	for j, i := range c.outs {
		if err := compare(g.read(t, tb.be, i), want[j], c.tol); err != nil {
			t.Errorf("%s (%s): output %d differs from the cpu backend: %v", c.name, which, i, err)
			tb.wrong[c.name] = true
		}
	}
}

// timeTable times both sides of every case at its large size and returns the
// table: a row per kernel, then the geometric mean of the ratios.
func (tb *twinBench) timeTable(t *testing.T) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| kernel | gpukvet entry | gpukvet µs | nvcc µs | ratio | regs gpukvet | regs nvcc | local B gpukvet | local B nvcc | results |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	logSum, count := 0.0, 0
	for _, c := range cases(true) {
		g := newGPURun(t, tb.be, c)
		g.reset(t, tb.be)
		gk, nv := tb.gpukvetFunc(t, c), tb.nvs[c.name]
		t.Logf("%s: timing entry %s", c.name, gk.Name)
		mg, mn := tb.medians(t, g, gk, nv)
		if trap := g.trapRecord(t, tb.be); trap[0] != 0 {
			t.Errorf("%s: the gpukvet kernel trapped at the timing size, record %x", c.name, trap)
		}
		g.free(tb.be)
		ratio := float64(mg) / float64(mn)
		logSum += math.Log(ratio)
		count++
		rg, lg, _ := gk.Attributes()
		rn, ln, _ := nv.Attributes()
		fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f | %.3f | %d | %d | %d | %d | %s |\n", c.name, gk.Name,
			float64(mg)/1e3, float64(mn)/1e3, ratio, rg, rn, lg, ln, tb.verdict(c.name, gk.Name))
	}
	fmt.Fprintf(&b, "\ngeomean gpukvet/nvcc over %d kernels: %.3f\n", count, math.Exp(logSum/float64(count)))
	return b.String()
}

// medians launches gk and nv, the two sides of g's case, in rounds that
// alternate them, each side reps launches between CUDA events, and returns
// the median time of one launch of each; the first round warms up and is
// not counted.
func (tb *twinBench) medians(t *testing.T, g *gpuRun, gk, nv *cuda.RawFunc) (mg, mn time.Duration) {
	const rounds, reps = 15, 10
	c := g.c
	var tg, tn []time.Duration
	for round := range rounds + 1 {
		for _, which := range []int{0, 1} {
			fn, args := gk, g.goArgs
			if which == 1 {
				fn, args = nv, g.twinArgs
			}
			d, err := tb.be.Time(func() error { return fn.Launch(reps, c.grid, c.block, args...) })
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if round == 0 {
				continue // warm-up
			}
			if which == 0 {
				tg = append(tg, d/reps)
			} else {
				tn = append(tn, d/reps)
			}
		}
	}
	slices.Sort(tg)
	slices.Sort(tn)
	return tg[len(tg)/2], tn[len(tn)/2]
}

// verdict is the table's results column for kernel name, whose gpukvet
// entry timed was entry.
func (tb *twinBench) verdict(name, entry string) string {
	check := "= cpu"
	if tb.wrong[name] {
		check = "WRONG"
	}
	if tb.checked[name] != entry {
		// The small size's facts chose another entry point: the one
		// timed was not compared with the cpu backend.
		check += " (checked " + tb.checked[name] + ")"
	}
	return check
}

// trapRecord reads g's trap record.
func (g *gpuRun) trapRecord(t *testing.T, be *cuda.Backend) []uint64 {
	trap := make([]uint64, 6)
	if err := be.Read(reflect.ValueOf(trap), g.trap); err != nil {
		t.Fatal(err)
	}
	return trap
}

func (g *gpuRun) free(be *cuda.Backend) {
	for _, m := range g.mem {
		if m != nil {
			be.Free(m)
		}
	}
	be.Free(g.trap)
}

// TestCasesRunOnCPU runs every benchmark case at its checking size on the
// cpu backend (what TestTwins compares the GPU results with), so that a
// case that traps or a twin list that does not match its kernel is found
// without a GPU; and checks a few results against plain Go.
func TestCasesRunOnCPU(t *testing.T) {
	for _, c := range cases(false) {
		outs := cpuResult(t, c)
		switch c.name {
		case "Triad":
			a, b, cc := outs[0].([]float32), c.args[2].([]float32), c.args[3].([]float32)
			for i := range a {
				if a[i] != b[i]+1.5*cc[i] {
					t.Fatalf("Triad[%d] = %v, want %v", i, a[i], b[i]+1.5*cc[i])
				}
			}
		case "Gather":
			idx, in, out := c.args[0].([]int32), c.args[1].([]float32), outs[0].([]float32)
			for i := range out {
				if out[i] != in[idx[i]] {
					t.Fatalf("Gather[%d] = %v, want %v", i, out[i], in[idx[i]])
				}
			}
		case "HistGlobal":
			var total uint32
			for _, h := range outs[0].([]uint32) {
				total += h
			}
			if int(total) != len(c.args[0].([]uint8)) {
				t.Fatalf("HistGlobal counts %d bytes of %d", total, len(c.args[0].([]uint8)))
			}
		}
		refs := 0
		for _, a := range c.twin {
			if r, ok := a.(ref); ok {
				refs++
				if reflect.ValueOf(c.args[r]).Kind() != reflect.Slice {
					t.Errorf("%s: twin parameter refers to argument %d, not a slice", c.name, r)
				}
			}
		}
		if refs == 0 {
			t.Errorf("%s: the twin takes no buffer", c.name)
		}
	}
}

// TestTwinEntries checks, without a GPU, how TestTwins names the gpukvet
// entry point it launches: the registered code of every case, the variant
// the backend's choice names (here stubbed: both variants allowed), and
// the environment switches that turn variants off; every name is an entry
// point of the embedded PTX.
func TestTwinEntries(t *testing.T) {
	be, err := cpu.Open()
	if err != nil {
		t.Fatal(err)
	}
	ch := &chooser{Backend: be, choose: func(*backend.Kernel, gpu.Dim3, gpu.Dim3, []backend.Arg) (bool, bool, error) { return true, true, nil }}
	d, err := device.New(ch)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, env := range [][2]string{{}, {"GPUKVET_TWINS_NOFAST", "1"}, {"GPUKVET_TWINS_COHERENT", "1"}} {
		if env[0] != "" {
			t.Setenv(env[0], env[1])
		}
		variants := 0 // cases that run a variant, not the plain entry
		for _, c := range cases(false) {
			entry, code := twinEntry(t, d, ch, c)
			// The switches accumulate: the last round has both set.
			want := cuda.EntryName(code, os.Getenv("GPUKVET_TWINS_COHERENT") == "", os.Getenv("GPUKVET_TWINS_NOFAST") == "")
			if entry != "kernels_"+c.name {
				variants++
			}
			if entry != want || !strings.HasPrefix(entry, "kernels_"+c.name) {
				t.Errorf("%s with %v: entry %q, want %q", c.name, env, entry, want)
			}
			if !strings.Contains(string(code.PTX), ".entry "+entry+"(") {
				t.Errorf("%s with %v: entry %q is not in the PTX", c.name, env, entry)
			}
			if os.Getenv("GPUKVET_TWINS_NOFAST") != "" && (entry == code.EntryFast || entry == code.EntryFastNC) {
				t.Errorf("%s: GPUKVET_TWINS_NOFAST=1 and the fast entry %q", c.name, entry)
			}
			if os.Getenv("GPUKVET_TWINS_COHERENT") != "" && (entry == code.EntryNC || entry == code.EntryFastNC) {
				t.Errorf("%s: GPUKVET_TWINS_COHERENT=1 and the non-coherent entry %q", c.name, entry)
			}
		}
		if env[0] == "" && variants == 0 {
			t.Errorf("no case runs a variant with both variants allowed (the kernels have non-coherent ones)")
		}
	}
}
