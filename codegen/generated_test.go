package codegen_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	cpubackend "github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/device/vulkan"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/kerngen"
	"github.com/gpukvet/gpukvet/testdata/generated/ops"
	"github.com/gpukvet/gpukvet/testdata/generated/random"
	"github.com/gpukvet/gpukvet/testdata/generated/regress"
)

// TestGeneratedOps runs the operator suite (testdata/generated/ops, every
// operator of the dialect on every type and every call kernels may make):
// it must pass the checks and build for every target (ptxas, spirv-val,
// llc), and every kernel must give Go's results, computed by the cpu
// backend, on edge and random operands in the kernel-IR interpreter and on
// every GPU backend GPUKVET_GEN_BACKENDS names (default "vulkan": lavapipe
// in CI; "cuda,vulkan" on a GPU), but the mismatches kerngen.Known lists.
// GPUKVET_GEN_ONLY=regexp runs only the kernels whose names it matches.
func TestGeneratedOps(t *testing.T) {
	testGenerated(t, "ops", ops.Kernels, 200, 40)
}

// TestGeneratedRandom does the same with the random programs of
// testdata/generated/random (for a larger run, rewrite them with another
// seed and count first: see testdata/generated/README.md).
func TestGeneratedRandom(t *testing.T) {
	testGenerated(t, "random", random.Kernels, 0, kerngen.Block*kerngen.Grid)
}

func testGenerated(t *testing.T, pkg string, kernels []kerngen.Kernel, edges, nrand int) {
	if testing.Short() {
		t.Skip("builds and runs hundreds of generated kernels")
	}
	if only := os.Getenv("GPUKVET_GEN_ONLY"); only != "" {
		re, err := regexp.Compile(only)
		if err != nil {
			t.Fatalf("GPUKVET_GEN_ONLY: %v", err)
		}
		kernels = slices.DeleteFunc(slices.Clone(kernels), func(k kerngen.Kernel) bool { return !re.MatchString(k.Name) })
	}
	start := time.Now()
	m, built := generatedModule(t, pkg)
	t.Logf("%s: checked and built %d kernels in %v", pkg, len(kernels), time.Since(start).Round(time.Millisecond))
	mism := map[string]bool{} // "backend kernel slot" of every mismatch
	ran := map[string]int{}
	ranOn := map[string]bool{} // "backend kernel" of every kernel run
	for name, why := range m.SPIRVFailed {
		key := "spirv " + name + " build"
		mism[key] = true
		if !known(key) {
			t.Errorf("SPIR-V: %s: %s", name, why)
		}
	}
	if built {
		validateGenerated(t, pkg, m, len(kernels), ran, mism)
	}
	// The generated packages have no gpukvet_gen.go: the cpu backend runs
	// their Go source through reflection on purpose, as the reference, so
	// its warning about the missing generated code is noise here.
	defer cpubackend.SetWarnings(cpubackend.SetWarnings(io.Discard))
	cpu, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	devs := openGenBackends(t)
	defer func() {
		for _, d := range devs {
			d.dev.Close()
		}
	}()
	r := rand.New(rand.NewPCG(21, 1))
	for _, k := range kernels {
		idx := slices.IndexFunc(m.Manifest.Kernels, func(ki *codegen.KernelInfo) bool { return ki.Name == k.Name })
		if idx < 0 {
			t.Fatalf("no kernel %s in the module", k.Name)
		}
		register(t, m, idx, k)
		rows, err := k.Inputs(edges, nrand, r)
		if err != nil {
			t.Fatal(err)
		}
		want, wtrap, err := k.Run(cpu, rows)
		if err != nil {
			t.Fatalf("cpu: %v", err)
		}
		if built {
			got, gtrap := runKIR(t, m, idx, k, rows)
			ran["kir"]++
			ranOn["kir "+k.Name] = true
			compareGen(t, "kir", k, rows, want, got, wtrap != nil, gtrap, false, mism)
		}
		for _, d := range devs {
			if d.name == "vulkan" && (m.SPIRVFailed[k.Name] != "" || !onVulkan(k)) {
				continue
			}
			got, dtrap, err := k.Run(d.dev, rows)
			if err != nil {
				t.Errorf("%s: %v", d.name, err)
				continue
			}
			ran[d.name]++
			ranOn[d.name+" "+k.Name] = true
			compareGen(t, d.name, k, rows, want, got, wtrap != nil, dtrap != nil, d.flush32, mism)
		}
	}
	t.Logf("%s: ran in %v", pkg, time.Since(start).Round(time.Millisecond))
	t.Logf("%s: %d kernels; runs per backend %v; %d mismatching results (backend kernel slot)", pkg, len(kernels), ran, len(mism))
	checkKnown(t, kernels, ran, ranOn, mism)
}

// savedModule is what GPUKVET_GEN_SAVE writes of a built module and
// GPUKVET_GEN_LOAD reads back: all the runtime needs to launch its kernels.
type savedModule struct {
	PTX, SPIRV  []byte
	SPIRVFailed map[string]string
	Manifest    *codegen.Manifest
}

// generatedModule builds generated package pkg with every check, and says
// it was built. A GPU machine has no Go toolchain to build with: there,
// GPUKVET_GEN_LOAD=dir reads the module that GPUKVET_GEN_SAVE=dir wrote
// where it was built, and the test runs only the GPU comparisons (the
// validators and the interpreter ran where it was built; the saving run
// stops there).
//
// GPUKVET_GEN_PASSES=n builds (or loads) the module with only the first n
// passes of the kernel-IR optimizer's pipeline (0: none, as -O0), saved
// as pkg-passes-n.json: run for every n on a GPU, it names the pass after
// which a kernel goes wrong there, which tells a mismatch the optimizer
// causes from one a driver does.
func generatedModule(t *testing.T, pkg string) (*codegen.Module, bool) {
	file := pkg + ".json"
	opts := codegen.Options{Checks: analyzers.All(), SPIRV: true}
	if s := os.Getenv("GPUKVET_GEN_PASSES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > len(kir.Passes) {
			t.Fatalf("GPUKVET_GEN_PASSES=%q: want a number of passes from 0 to %d", s, len(kir.Passes))
		}
		file = fmt.Sprintf("%s-passes-%d.json", pkg, n)
		opts.DisableOptimizer = n == 0
		defer func(all []kir.Pass) { kir.Passes = all }(kir.Passes)
		kir.Passes = firstPasses(n)
	}
	if dir := os.Getenv("GPUKVET_GEN_LOAD"); dir != "" {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		var sm savedModule
		if err := json.Unmarshal(data, &sm); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		return &codegen.Module{PTX: sm.PTX, SPIRV: sm.SPIRV, SPIRVFailed: sm.SPIRVFailed, Manifest: sm.Manifest}, false
	}
	m, err := codegen.Build([]string{"github.com/gpukvet/gpukvet/testdata/generated/" + pkg},
		opts)
	if err != nil {
		t.Fatalf("the generated kernels do not pass the checks or do not build (a finding: the generator writes only correct kernels):\n%v", err)
	}
	if dir := os.Getenv("GPUKVET_GEN_SAVE"); dir != "" {
		data, err := json.Marshal(savedModule{m.PTX, m.SPIRV, m.SPIRVFailed, m.Manifest})
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, file), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Skipf("saved %s's module in %s for a GPU machine: it is tested there", pkg, dir)
	}
	return m, true
}

// firstPasses is the optimizer's pipeline cut after its first n passes,
// ending with the stop-word polls every build has (kir.PollLoops).
func firstPasses(n int) []kir.Pass {
	all := kir.Passes
	if all[len(all)-1].Name != "poll-loops" {
		panic("kir.Passes no longer ends with poll-loops: firstPasses must keep it")
	}
	if n >= len(all)-1 {
		return all
	}
	return append(slices.Clip(all[:n]), all[len(all)-1])
}

// validateGenerated puts m through spirv-val, llc and ptxas, recording
// every refusal in mism.
func validateGenerated(t *testing.T, pkg string, m *codegen.Module, n int, ran map[string]int, mism map[string]bool) {
	ran["spirv"] = n
	compileSPIRVAndLLVM(t, pkg, m)
	t.Run("ptxas", func(t *testing.T) {
		errs := ptxasErrors(t, m)
		ran["ptxas"] = n
		for kernel, msg := range errs {
			key := "ptxas " + kernel + " build"
			mism[key] = true
			if !known(key) {
				t.Errorf("ptxas refuses kernel %s: %s", kernel, msg)
			}
		}
	})
}

// ptxasErrors assembles m's PTX with ptxas (sm_80) and returns the first
// error ptxas gives in each kernel, by kernel name.
func ptxasErrors(t *testing.T, m *codegen.Module) map[string]string {
	ptxas := ptxasPath(t)
	file := filepath.Join(t.TempDir(), "m.ptx")
	if err := os.WriteFile(file, m.PTX, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(ptxas, "-arch=sm_80", "-o", os.DevNull, file).CombinedOutput()
	if err == nil {
		return nil
	}
	entryAt := map[int]string{} // first line of each entry → its kernel
	for n, line := range strings.Split(string(m.PTX), "\n") {
		if rest, ok := strings.CutPrefix(line, ".visible .entry "); ok {
			entry, _, _ := strings.Cut(rest, "(")
			for _, ki := range m.Manifest.Kernels {
				for _, suffix := range []string{"", "_nc", "_fast", "_fast_nc"} {
					if entry == ki.Entry+suffix {
						entryAt[n+1] = ki.Name
					}
				}
			}
		}
	}
	errs := map[string]string{}
	re := regexp.MustCompile(`line (\d+); error\s*: (.*)`)
	for _, match := range re.FindAllStringSubmatch(string(out), -1) {
		line, _ := strconv.Atoi(match[1])
		kernel, start := "(outside any kernel)", 0
		for l, k := range entryAt {
			if l <= line && l > start {
				kernel, start = k, l
			}
		}
		if errs[kernel] == "" {
			errs[kernel] = match[2]
		}
	}
	if len(errs) == 0 {
		t.Errorf("ptxas: %v\n%s", err, out)
	}
	return errs
}

// onVulkan says whether kernel k runs on the vulkan backend: every random
// program, and every operator kernel with GPUKVET_GEN_VULKAN=all (set it
// on a GPU); else, since lavapipe's LLVM takes minutes over the large
// operator kernels, those of floats and bool, where a driver's rewrites of
// signed zeros, NaNs and infinities show, so that CI stays within budget.
func onVulkan(k kerngen.Kernel) bool {
	if os.Getenv("GPUKVET_GEN_VULKAN") == "all" || k.Block != 0 {
		return true
	}
	return k.Name == "Bool" || strings.HasSuffix(k.Name, "_float32") || strings.HasSuffix(k.Name, "_float64")
}

// genBackend is a GPU backend the generated kernels run on.
type genBackend struct {
	name string
	dev  *device.Device
	// flush32: the device may flush float32 subnormals to zero (a Vulkan
	// device without shaderDenormPreserveFloat32, such as NVIDIA's; its
	// Info().Deviations says so), a device gap, not the compiler's.
	flush32 bool
}

// flushesFloat32 reports whether the Vulkan device the vulkan backend opens
// lacks float32 denormal preservation.
func flushesFloat32() bool {
	b, err := vulkan.OpenBackend()
	if err != nil {
		return false
	}
	defer b.Close()
	return !slices.Contains(b.Info().Features, "shaderDenormPreserveFloat32")
}

// openGenBackends opens the backends GPUKVET_GEN_BACKENDS names; one that
// does not open is skipped, with a note.
func openGenBackends(t *testing.T) []genBackend {
	names := os.Getenv("GPUKVET_GEN_BACKENDS")
	if names == "" {
		names = "vulkan"
	}
	var bs []genBackend
	for _, name := range strings.Split(names, ",") {
		d, err := device.OpenBackend(strings.TrimSpace(name))
		if err != nil {
			t.Logf("no %s device, its comparisons skip: %v", name, err)
			continue
		}
		g := genBackend{name: strings.TrimSpace(name), dev: d}
		g.flush32 = g.name == "vulkan" && flushesFloat32()
		bs = append(bs, g)
	}
	return bs
}

// register hands kernel idx of m to the runtime, as gpukvet gen's code
// would (the cpu backend then runs the Go function by reflection).
func register(t *testing.T, m *codegen.Module, idx int, k kerngen.Kernel) {
	ki := m.Manifest.Kernels[idx]
	spec := device.KernelSpec{Dims: ki.Dims, Code: &backend.Code{PTX: m.PTX, Entry: ki.Entry, Positions: m.Manifest.Positions}}
	if _, failed := m.SPIRVFailed[ki.Name]; !failed {
		spec.Code.SPIRV, spec.Code.SPIRVFeatures = m.SPIRV, m.Manifest.SPIRVFeatures
	}
	if len(ki.Block) == 3 {
		spec.Block = gpu.Dim3{X: ki.Block[0], Y: ki.Block[1], Z: ki.Block[2]}
	}
	if err := device.RegisterKernel(k.Fn, spec); err != nil {
		t.Fatal(err)
	}
}

// runKIR runs kernel idx of m in the kernel-IR interpreter.
func runKIR(t *testing.T, m *codegen.Module, idx int, k kerngen.Kernel, rows [][3]uint64) (out []uint64, trapped bool) {
	t.Helper()
	ki, f := m.Manifest.Kernels[idx], m.IR.Funcs[idx]
	bufs := map[string]*kirexec.Buffer{}
	for _, p := range ki.Params {
		var data []byte
		if col := strings.Index("abc", p.Name); col >= 0 {
			data = make([]byte, 8*len(rows))
			for i, row := range rows {
				binary.LittleEndian.PutUint64(data[8*i:], row[col])
			}
		} else {
			data = make([]byte, 8*len(rows)*len(k.Out))
		}
		bufs[p.Name] = &kirexec.Buffer{Name: p.Name, Data: data}
	}
	entry := make([]kirexec.Arg, len(f.Params))
	for _, p := range ki.Params {
		entry[p.Entry[0]] = kirexec.Arg{Buf: bufs[p.Name]}
		entry[p.Entry[1]] = kirexec.Arg{Bits: uint64(len(bufs[p.Name].Data) / 8)}
	}
	grid, block := k.Shape(len(rows))
	trap, err := kirexec.Run(f, m.IR.Shared, [3]int{grid, 1, 1}, [3]int{block, 1, 1}, entry)
	if err != nil {
		t.Fatalf("%s: %v", k.Name, err)
	}
	data := bufs["out"].Data
	out = make([]uint64, len(data)/8)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(data[8*i:])
	}
	return out, trap != nil
}

// compareGen compares one backend's results with Go's, recording each
// mismatching slot in mism and failing the test for those kerngen.Known
// does not list. A launch that traps must trap on both sides (its results
// are then unspecified).
//
// On a device that flushes float32 subnormals (flush32), a mismatch at a
// row with a float32 subnormal operand or result is logged as that device
// gap rather than counted.
func compareGen(t *testing.T, name string, k kerngen.Kernel, rows [][3]uint64, want, got []uint64, wtrap, gtrap, flush32 bool, mism map[string]bool) {
	t.Helper()
	if wtrap || gtrap {
		if wtrap != gtrap {
			key := fmt.Sprintf("%s %s trap", name, k.Name)
			mism[key] = true
			if !known(key) {
				t.Errorf("%s: %s: trapped %v, Go trapped %v", name, k.Name, gtrap, wtrap)
			}
		}
		return
	}
	for _, d := range k.Diff(rows, want, got) {
		if flush32 && k.Subnormal32(rows[d.Row], d.Slot, want[d.Row*len(k.Out)+d.Slot]) {
			t.Logf("%s: device gap (float32 subnormals flushed to zero): %s", name, d.Text)
			continue
		}
		key := fmt.Sprintf("%s %s %d", name, k.Name, d.Slot)
		if mism[key] {
			continue
		}
		mism[key] = true
		if !known(key) {
			t.Errorf("%s: %s", name, d.Text)
		}
	}
}

// known reports whether kerngen.Known lists mismatch key ("backend
// kernel slot"), for its backend or for every backend ("*").
func known(key string) bool {
	_, ok := kerngen.Known[key]
	if !ok {
		_, rest, _ := strings.Cut(key, " ")
		_, ok = kerngen.Known["* "+rest]
	}
	return ok
}

// checkKnown fails for every entry of kerngen.Known whose mismatch did
// not happen although its kernel ran on its backend (ranOn, "backend
// kernel"; for "*", on any backend; a build entry: the validator ran over
// the module): the list is stale.
func checkKnown(t *testing.T, kernels []kerngen.Kernel, ran map[string]int, ranOn, mism map[string]bool) {
	for key, why := range kerngen.Known {
		f := strings.Fields(key)
		if len(f) != 3 {
			continue
		}
		backends := []string{f[0]}
		if f[0] == "*" {
			backends = slices.Collect(maps.Keys(ran))
		}
		for _, b := range backends {
			built := f[2] == "build" && ran[b] > 0 && slices.ContainsFunc(kernels, func(k kerngen.Kernel) bool { return k.Name == f[1] })
			if (built || ranOn[b+" "+f[1]]) && !mism[b+" "+f[1]+" "+f[2]] {
				t.Errorf("kerngen.Known lists %q (%s), which no longer happens on %s: drop it from the list", key, why, b)
			}
		}
	}
}

// TestShrinkGenerated, with GPUKVET_GEN_SHRINK=1 (or a comma-separated
// list of kernel names), shrinks every random program (those named) of
// testdata/generated/random that the SPIR-V emitter refuses to a smallest
// one it still refuses, and writes them to
// testdata/generated/regress, the regression cases TestGeneratedRegress
// runs.
func TestShrinkGenerated(t *testing.T) {
	only := os.Getenv("GPUKVET_GEN_SHRINK")
	if only == "" {
		t.Skip("set GPUKVET_GEN_SHRINK=1 to shrink the failing random programs")
	}
	m, err := codegen.Build([]string{"github.com/gpukvet/gpukvet/testdata/generated/random"}, codegen.Options{SPIRV: true})
	if err != nil {
		t.Fatal(err)
	}
	var shrunk []*kerngen.Program
	for _, p := range kerngen.Random(random.Seed, random.Count) {
		if m.SPIRVFailed[p.Name] == "" || only != "1" && !slices.Contains(strings.Split(only, ","), p.Name) {
			continue
		}
		small := kerngen.Shrink(p, func(q *kerngen.Program) bool {
			src, _ := kerngen.RandomSource("apicalls", 0, []*kerngen.Program{q})
			m, err := buildSource(t, src, codegen.Options{SPIRV: true})
			return err == nil && m.SPIRVFailed[q.Name] != ""
		})
		t.Logf("%s shrunk to:\n%s", p.Name, small.Source())
		shrunk = append(shrunk, small)
	}
	src, table := kerngen.RandomSource("regress", random.Seed, shrunk)
	for name, text := range map[string]string{"kernels.go": src, "table.go": table} {
		if err := os.WriteFile("../testdata/generated/regress/"+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGeneratedRegress runs the shrunk mismatches of testdata/generated/regress.
func TestGeneratedRegress(t *testing.T) {
	testGenerated(t, "regress", regress.Kernels, 0, kerngen.Block*kerngen.Grid)
}

// TestShrinkVulkanMismatch, with GPUKVET_GEN_SHRINK_VULKAN=R007 (a
// program of testdata/generated/random), shrinks that program to a
// smallest one whose results on the vulkan backend (lavapipe here) differ
// from the kernel-IR interpreter's, and logs it. The interpreter stands for
// Go: the shrunk programs are built from source at run time, so the cpu
// backend has no Go function of theirs to run. Each candidate is built
// alone; its code is registered for shrinkCandidate, one Go function of a
// random kernel's signature.
func TestShrinkVulkanMismatch(t *testing.T) {
	name := os.Getenv("GPUKVET_GEN_SHRINK_VULKAN")
	if name == "" {
		t.Skip("set GPUKVET_GEN_SHRINK_VULKAN to a random program's name to shrink its vulkan mismatch")
	}
	vk, err := device.OpenBackend("vulkan")
	if err != nil {
		t.Fatal(err)
	}
	defer vk.Close()
	progs := kerngen.Random(random.Seed, random.Count)
	j := slices.IndexFunc(progs, func(p *kerngen.Program) bool { return p.Name == name })
	if j < 0 {
		t.Fatalf("no program %s in testdata/generated/random (seed %d, %d programs)", name, random.Seed, random.Count)
	}
	if why := vulkanMismatch(t, vk, progs[j]); why == "" {
		t.Fatalf("%s gives the interpreter's results on vulkan: nothing to shrink", name)
	} else {
		t.Logf("%s: %s", name, why)
	}
	small := kerngen.Shrink(progs[j], func(q *kerngen.Program) bool { return vulkanMismatch(t, vk, q) != "" })
	t.Logf("%s shrunk to (%s):\n%s", name, vulkanMismatch(t, vk, small), small.Source())
}

// shrinkCandidate is the Go function a shrink candidate's code is
// registered for: the runtime keys kernels by function.
func shrinkCandidate(t gpu.Thread, a, b, c, out []uint64) {}

// vulkanMismatch builds random program p alone for SPIR-V and returns the
// first difference between its results on vk and in the kernel-IR
// interpreter, or "" when they agree, it does not build, or it traps.
func vulkanMismatch(t *testing.T, vk *device.Device, p *kerngen.Program) string {
	src, _ := kerngen.RandomSource("apicalls", 0, []*kerngen.Program{p})
	m, err := buildSource(t, src, codegen.Options{SPIRV: true})
	if err != nil || m.SPIRVFailed[p.Name] != "" {
		return ""
	}
	idx := slices.IndexFunc(m.Manifest.Kernels, func(ki *codegen.KernelInfo) bool { return ki.Name == p.Name })
	k := p.Kernel()
	k.Fn = shrinkCandidate
	register(t, m, idx, k)
	rows, err := k.Inputs(0, kerngen.Block*kerngen.Grid, rand.New(rand.NewPCG(21, 1)))
	if err != nil {
		t.Fatal(err)
	}
	want, wtrap := runKIR(t, m, idx, k, rows)
	got, gtrap, err := k.Run(vk, rows)
	if err != nil || wtrap || gtrap != nil {
		return ""
	}
	if d := k.Diff(rows, want, got); len(d) > 0 {
		return d[0].Text
	}
	return ""
}
