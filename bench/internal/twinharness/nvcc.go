package twinharness

// The side-by-side benchmark: every kernel of a suite, compiled by
// gpukvet gen (the PTX embedded in the suite's gpukvet_gen.go, bounds
// checks on), and its CUDA C twin compiled by nvcc, loaded on one GPU in
// one process. Each result of both is checked against the cpu backend
// running the Go kernel, then both are timed with CUDA events,
// alternating, and the table is printed and written to $GPUKVET_TWINS_OUT
// if set.
//
// gpukvet's side runs the entry point that device/cuda would launch for
// each case's arguments (cuda.Backend.LaunchChoice): the variant compiled
// assuming the kernel's launch facts where they hold, the variant with
// non-coherent loads of the read-only slices where there is one; and the
// plain entry point too where that is another. GPUKVET_TWINS_NOFAST=1
// leaves out the first variant, GPUKVET_TWINS_COHERENT=1 the second.

import (
	"fmt"
	"math"
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
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// gpuRun holds one case's buffers on the GPU and the two launches.
type gpuRun struct {
	c        Case
	mem      []backend.Memory // by Go argument (nil for scalars)
	trap     backend.Memory
	goArgs   []any // gpukvet's ABI: slices as pointer and length, then the trap record
	twinArgs []any
}

func newGPURun(t testing.TB, be *cuda.Backend, c Case) *gpuRun {
	g := &gpuRun{c: c, mem: make([]backend.Memory, len(c.Args))}
	for i, a := range c.Args {
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
	if g.trap, err = be.Alloc(reflect.TypeOf(uint64(0)), trapWords); err != nil {
		t.Fatal(err)
	}
	g.goArgs = append(g.goArgs, g.trap)
	for _, a := range c.Twin {
		switch a := a.(type) {
		case Ref:
			g.twinArgs = append(g.twinArgs, g.mem[a])
		case LenOf:
			g.twinArgs = append(g.twinArgs, int64(reflect.ValueOf(c.Args[a]).Len()))
		default:
			g.twinArgs = append(g.twinArgs, a)
		}
	}
	return g
}

// reset writes the host data of every slice to the device.
func (g *gpuRun) reset(t testing.TB, be *cuda.Backend) {
	for i, m := range g.mem {
		if m != nil {
			if err := be.Write(m, reflect.ValueOf(g.c.Args[i])); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := be.Write(g.trap, reflect.ValueOf(make([]uint64, trapWords))); err != nil {
		t.Fatal(err)
	}
}

func (g *gpuRun) read(t testing.TB, be *cuda.Backend, i int) any {
	v := reflect.ValueOf(g.c.Args[i])
	dst := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	if err := be.Read(dst, g.mem[i]); err != nil {
		t.Fatal(err)
	}
	return dst.Interface()
}

// trapWords is the trap record's length in 64-bit words. The record ends
// with the host's stop word, which loops the compiler cannot prove finite
// read: a shorter record lets them read whatever lies after it and stop.
const trapWords = gpuabi.TrapRecordSize / 8

// trapRecord reads g's trap record.
func (g *gpuRun) trapRecord(t testing.TB, be *cuda.Backend) []uint64 {
	trap := make([]uint64, trapWords)
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

// chooser is a backend with Launch replaced: it records which of a
// kernel's entry points device/cuda would launch with the arguments
// (LaunchChoice, the one definition of that choice) instead of launching,
// so that RunTwins launches by name what package device would.
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
func twinEntry(t testing.TB, d *device.Device, ch *chooser, c Case) (string, *backend.Code) {
	args, bufs := deviceArgs(t, d, c, false) // lengths matter, not contents
	ch.code = nil
	if err := d.Launch(c.Fn, c.Grid, c.Block, args...); err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	for _, b := range bufs {
		if err := reflect.ValueOf(b).MethodByName("Free").Call(nil)[0]; !err.IsNil() {
			t.Fatal(err.Interface())
		}
	}
	if ch.code == nil || len(ch.code.PTX) == 0 {
		t.Fatalf("%s: no compiled code registered (run go generate in the suite's package)", c.Name)
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

// CheckEntries checks, without a GPU, how RunTwins names the gpukvet entry
// point it launches for every case of cases, whose entry points are named
// prefix+Name: the registered code of every case, the variant the
// backend's choice names (here stubbed: both variants allowed), and the
// environment switches that turn variants off; every name is an entry
// point of the embedded PTX. It returns how many cases run a variant with
// both allowed.
func CheckEntries(t *testing.T, cases Cases, prefix string) int {
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
	variants := 0
	for _, env := range [][2]string{{}, {"GPUKVET_TWINS_NOFAST", "1"}, {"GPUKVET_TWINS_COHERENT", "1"}} {
		if env[0] != "" {
			t.Setenv(env[0], env[1])
		}
		for _, c := range cases(false) {
			entry, code := twinEntry(t, d, ch, c)
			// The switches accumulate: the last round has both set.
			coherent, nofast := os.Getenv("GPUKVET_TWINS_COHERENT") != "", os.Getenv("GPUKVET_TWINS_NOFAST") != ""
			want := cuda.EntryName(code, !coherent, !nofast)
			if env[0] == "" && entry != prefix+c.Name {
				variants++
			}
			if entry != want || !strings.HasPrefix(entry, prefix+c.Name) {
				t.Errorf("%s with %v: entry %q, want %q", c.Name, env, entry, want)
			}
			if plain := cuda.EntryName(code, false, false); plain != prefix+c.Name {
				t.Errorf("%s: plain entry %q, want %q", c.Name, plain, prefix+c.Name)
			}
			if !strings.Contains(string(code.PTX), ".entry "+entry+"(") {
				t.Errorf("%s with %v: entry %q is not in the PTX", c.Name, env, entry)
			}
			if nofast && (entry == code.EntryFast || entry == code.EntryFastNC) {
				t.Errorf("%s: GPUKVET_TWINS_NOFAST=1 and the fast entry %q", c.Name, entry)
			}
			if coherent && (entry == code.EntryNC || entry == code.EntryFastNC) {
				t.Errorf("%s: GPUKVET_TWINS_COHERENT=1 and the non-coherent entry %q", c.Name, entry)
			}
		}
	}
	return variants
}

// RunTwins checks and times every case of cases against its nvcc twin from
// the cubin at $GPUKVET_TWINS_CUBIN (nvcc -O3 -arch=sm_90 -cubin), prints
// the table and writes it to $GPUKVET_TWINS_OUT if set; title heads the
// table. Without a GPU or without the cubin it skips t.
func RunTwins(t *testing.T, title string, cases Cases) {
	tb := openTwins(t, cases)
	tb.check(t)
	table := header(title) + fmt.Sprintf("CUDA events: median of %d rounds alternating the sides, %d launches each, after a warm-up round\n\n", rounds, reps) + tb.timeTable(t)
	fmt.Print(table)
	if out := os.Getenv("GPUKVET_TWINS_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// twinBench is RunTwins' state: the GPU, the device over it that chooses
// gpukvet's entry points, the loaded kernels of both sides, and what the
// check at the small sizes found.
type twinBench struct {
	cases Cases
	be    *cuda.Backend
	ch    *chooser
	d     *device.Device
	// raw holds gpukvet's entry points by name, each loaded once; nvs the
	// twins by kernel name.
	raw, nvs map[string]*cuda.RawFunc
	checked  map[string]string // the gpukvet entry checked at the small size
	wrong    map[string]bool   // the kernels with a result unlike the cpu backend's
}

// openTwins opens the cuda backend and loads the nvcc twins from
// $GPUKVET_TWINS_CUBIN, or skips t without either. The backend is closed
// when t ends.
func openTwins(t *testing.T, cases Cases) *twinBench {
	cubinPath := os.Getenv("GPUKVET_TWINS_CUBIN")
	if cubinPath == "" {
		t.Skip("GPUKVET_TWINS_CUBIN is not set (nvcc -O3 -arch=sm_90 -cubin -o twins.cubin twins.cu)")
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
	tb := &twinBench{cases: cases, be: be, ch: &chooser{Backend: be, choose: be.LaunchChoice},
		raw: map[string]*cuda.RawFunc{}, nvs: map[string]*cuda.RawFunc{}, checked: map[string]string{}, wrong: map[string]bool{}}
	tb.d, err = device.New(tb.ch) // not closed: closing be closes the backend
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases(false) {
		nv, err := be.LoadRaw(cubin, c.Name)
		if err != nil {
			t.Fatal(err)
		}
		tb.nvs[c.Name] = nv
	}
	return tb
}

// gpukvetFuncs returns the gpukvet entry point of c chosen per case and
// size (launch facts may hold at one size and not at the other) and the
// plain entry point (the same function where the choice is the plain one).
func (tb *twinBench) gpukvetFuncs(t testing.TB, c Case) (chosen, plain *cuda.RawFunc) {
	entry, code := twinEntry(t, tb.d, tb.ch, c)
	return tb.load(t, code, entry), tb.load(t, code, cuda.EntryName(code, false, false))
}

func (tb *twinBench) load(t testing.TB, code *backend.Code, entry string) *cuda.RawFunc {
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

// check runs both sides of every case at its small size (gpukvet's chosen
// and plain entries) and compares their results with the cpu backend's. A
// kernel that fails is still timed, and marked in the table.
func (tb *twinBench) check(t *testing.T) {
	for _, c := range tb.cases(false) {
		want := CPUResult(t, c)
		g := newGPURun(t, tb.be, c)
		gk, plain := tb.gpukvetFuncs(t, c)
		tb.checked[c.Name] = gk.Name
		t.Logf("%s: checking entry %s", c.Name, gk.Name)
		tb.checkSide(t, g, "gpukvet", gk, g.goArgs, want)
		if plain != gk {
			tb.checkSide(t, g, "gpukvet plain", plain, g.goArgs, want)
		}
		tb.checkSide(t, g, "nvcc", tb.nvs[c.Name], g.twinArgs, want)
		g.free(tb.be)
	}
}

// checkSide launches f, one side (which) of g's case, once on fresh inputs
// and compares its outputs with want.
func (tb *twinBench) checkSide(t *testing.T, g *gpuRun, which string, f *cuda.RawFunc, args []any, want []any) {
	c := g.c
	g.reset(t, tb.be)
	if err := f.Launch(1, c.Grid, c.Block, args...); err != nil {
		t.Fatal(err)
	}
	if err := tb.be.Sync(); err != nil {
		t.Fatal(err)
	}
	if trap := g.trapRecord(t, tb.be); trap[0] != 0 {
		t.Errorf("%s (%s): trapped, record %x", c.Name, which, trap)
		tb.wrong[c.Name] = true
	}
	for j, i := range c.Outs {
		if err := Compare(g.read(t, tb.be, i), want[j], c.Tol); err != nil {
			t.Errorf("%s (%s): output %d differs from the cpu backend: %v", c.Name, which, i, err)
			tb.wrong[c.Name] = true
		}
	}
}

// timeTable times both sides of every case at its large size and returns
// the table: a row per kernel, then the geometric means of the ratios.
func (tb *twinBench) timeTable(t *testing.T) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| kernel | gpukvet entry | gpukvet µs | plain µs | nvcc µs | ratio | plain ratio | regs gpukvet | regs plain | regs nvcc | local B gpukvet | local B nvcc | results |\n")
	fmt.Fprintf(&b, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	var logRatio, logPlain float64
	count := 0
	for _, c := range tb.cases(true) {
		g := newGPURun(t, tb.be, c)
		g.reset(t, tb.be)
		gk, plain := tb.gpukvetFuncs(t, c)
		nv := tb.nvs[c.Name]
		t.Logf("%s: timing entry %s", c.Name, gk.Name)
		m := tb.medians(t, g, []*cuda.RawFunc{gk, plain, nv}, []bool{false, false, true})
		if trap := g.trapRecord(t, tb.be); trap[0] != 0 {
			t.Errorf("%s: the gpukvet kernel trapped at the timing size, record %x", c.Name, trap)
		}
		g.free(tb.be)
		ratio, plainRatio := float64(m[0])/float64(m[2]), float64(m[1])/float64(m[2])
		logRatio += math.Log(ratio)
		logPlain += math.Log(plainRatio)
		count++
		rg, lg, _ := gk.Attributes()
		rp, _, _ := plain.Attributes()
		rn, ln, _ := nv.Attributes()
		fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f | %.1f | %.3f | %.3f | %d | %d | %d | %d | %d | %s |\n", c.Name, gk.Name,
			us(m[0]), us(m[1]), us(m[2]), ratio, plainRatio, rg, rp, rn, lg, ln, tb.verdict(c.Name, gk.Name))
	}
	fmt.Fprintf(&b, "\ngeomean gpukvet/nvcc over %d kernels: %.3f (entry the runtime chooses), %.3f (plain entry)\n",
		count, math.Exp(logRatio/float64(count)), math.Exp(logPlain/float64(count)))
	return b.String()
}

func us(d time.Duration) float64 { return float64(d) / 1e3 }

// medians launches fns, the sides of g's case (twin[i]: fns[i] is the nvcc
// twin, else a gpukvet entry), in rounds that alternate them, each reps
// launches between CUDA events, and returns the median time of one launch
// of each; the first round warms up and is not counted. A function listed
// twice is timed once.
func (tb *twinBench) medians(t *testing.T, g *gpuRun, fns []*cuda.RawFunc, twin []bool) []time.Duration {
	c := g.c
	times := make([][]time.Duration, len(fns))
	for round := range rounds + 1 {
		for i, fn := range fns {
			if slices.Index(fns, fn) != i {
				continue
			}
			args := g.goArgs
			if twin[i] {
				args = g.twinArgs
			}
			d, err := tb.be.Time(func() error { return fn.Launch(reps, c.Grid, c.Block, args...) })
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if round > 0 { // round 0 warms up
				times[i] = append(times[i], d/reps)
			}
		}
	}
	med := make([]time.Duration, len(fns))
	for i, fn := range fns {
		ts := times[slices.Index(fns, fn)]
		slices.Sort(ts)
		med[i] = ts[len(ts)/2]
	}
	return med
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
