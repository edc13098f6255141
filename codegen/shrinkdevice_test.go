package codegen_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/internal/kerngen"
	"github.com/gpukvet/gpukvet/testdata/generated/random"
)

// shrinkLevel is one level of a shrink whose oracle is a GPU on a machine
// without a Go toolchain: every candidate one step smaller than the
// program, built here, with Go's results (the kernel-IR interpreter's) on
// the rows they all run on.
type shrinkLevel struct {
	Program *kerngen.Program
	Rows    [][3]uint64
	Module  savedModule // every candidate's kernel
	Cands   []shrinkCand
}

type shrinkCand struct {
	Program  *kerngen.Program
	Want     []uint64
	WantTrap bool
}

// TestShrinkOnDevice shrinks a random program whose results on a GPU
// backend differ from Go's, one level per call on the GPU machine, which
// has no Go toolchain to build candidates (R022 of seed 1 on NVIDIA's
// Vulkan, testdata/generated/RESULTS.md). Each level is:
//
// here, GPUKVET_GEN_SHRINK_DIR=dir GPUKVET_GEN_SHRINK_PROG=R022: when
// dir/results.txt holds the last level's results, the program becomes
// the smallest candidate that still failed (dir/program.json; at the
// start, the named program of testdata/generated/random); then every
// candidate one step smaller (kerngen.Candidates) is built alone and run
// in the interpreter, into dir/level.json.gz. When no candidate failed,
// the program is the shrunk one: it is logged and written to dir/shrunk.go.
//
// there, GPUKVET_GEN_SHRINK_RUN=dir GPUKVET_GEN_BACKENDS=vulkan: every
// candidate runs on the backends, and GPUKVET_GEN_SHRINK_OUT (default
// dir)/results.txt gets a line per candidate and backend: "C012 vulkan
// ok", or "differ" or "trap" and the first difference (GPUKVET_GEN_ONLY
// runs only the candidates it matches).
//
// bench/gpu/shrink-on-device.sh drives it.
func TestShrinkOnDevice(t *testing.T) {
	if dir := os.Getenv("GPUKVET_GEN_SHRINK_RUN"); dir != "" {
		runShrinkLevel(t, dir)
		return
	}
	dir := os.Getenv("GPUKVET_GEN_SHRINK_DIR")
	if dir == "" {
		t.Skip("set GPUKVET_GEN_SHRINK_DIR (here) or GPUKVET_GEN_SHRINK_RUN (on the GPU machine) to shrink a program there")
	}
	p := shrinkProgram(t, dir)
	if p == nil {
		return
	}
	rows, err := p.Kernel().Inputs(0, kerngen.Block*kerngen.Grid, rand.New(rand.NewPCG(21, 1)))
	if err != nil {
		t.Fatal(err)
	}
	level := buildLevel(t, p, rows)
	writeGzipJSON(t, filepath.Join(dir, "level.json.gz"), level)
	t.Logf("%s: %d statements; %d candidates built into %s/level.json.gz", p.Name, kerngen.Size(p), len(level.Cands), dir)
}

// shrinkProgram is the program the next level shrinks, or nil when the
// last level found none smaller that fails.
func shrinkProgram(t *testing.T, dir string) *kerngen.Program {
	var level shrinkLevel
	if !readGzipJSON(t, filepath.Join(dir, "level.json.gz"), &level) {
		name := os.Getenv("GPUKVET_GEN_SHRINK_PROG")
		progs := kerngen.Random(random.Seed, random.Count)
		j := slices.IndexFunc(progs, func(p *kerngen.Program) bool { return p.Name == name })
		if j < 0 {
			t.Fatalf("GPUKVET_GEN_SHRINK_PROG=%q: no such program in testdata/generated/random (seed %d, %d programs)", name, random.Seed, random.Count)
		}
		return progs[j]
	}
	failed := shrinkFailures(t, dir)
	if !failed["C000"] {
		t.Fatalf("%s no longer fails on the device (C000 of the last level): the oracle is not steady", level.Program.Name)
	}
	var best *kerngen.Program
	for _, c := range level.Cands[1:] {
		if failed[c.Program.Name] && (best == nil || smaller(c.Program, best)) {
			best = c.Program
		}
	}
	if best == nil {
		src, _ := kerngen.RandomSource("shrunk", 0, []*kerngen.Program{level.Program})
		if err := os.WriteFile(filepath.Join(dir, "shrunk.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("shrunk to %d statements (%s/shrunk.go):\n%s", kerngen.Size(level.Program), dir, level.Program.Source())
		return nil
	}
	os.Rename(filepath.Join(dir, "results.txt"), filepath.Join(dir, "results.prev.txt"))
	t.Logf("%s still fails with %d statements:\n%s", best.Name, kerngen.Size(best), best.Source())
	best.Name = level.Program.Name
	return best
}

// smaller orders candidates by statements, then by source length.
func smaller(a, b *kerngen.Program) bool {
	if sa, sb := kerngen.Size(a), kerngen.Size(b); sa != sb {
		return sa < sb
	}
	return len(a.Source()) < len(b.Source())
}

// shrinkFailures reads dir/results.txt: the candidates that differed or
// trapped on some backend.
func shrinkFailures(t *testing.T, dir string) map[string]bool {
	f, err := os.Open(filepath.Join(dir, "results.txt"))
	if err != nil {
		t.Fatalf("the last level has not run on the device: %v", err)
	}
	defer f.Close()
	failed := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) >= 3 && fs[2] != "ok" {
			failed[fs[0]] = true
		}
	}
	return failed
}

// buildLevel builds p and every candidate one step smaller into one
// module, named C000 (p itself), C001, ..., and runs each in the
// interpreter. A candidate that does not type-check alone (a change may
// leave a loop's counter or a break without its loop) is dropped first, so
// that it cannot sink the module.
func buildLevel(t *testing.T, p *kerngen.Program, rows [][3]uint64) shrinkLevel {
	level := shrinkLevel{Program: p, Rows: rows}
	devices := map[string]bool{}
	var progs, bare []*kerngen.Program // bare: without their device functions
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	for _, q := range append([]*kerngen.Program{p}, kerngen.Candidates(p)...) {
		c := *q
		c.Name = fmt.Sprintf("C%03d", len(progs))
		if !typeChecks(&c, imp) {
			continue
		}
		for _, d := range c.Devices {
			devices[d] = true
		}
		b := c
		b.Devices = nil // written once for the package, below
		progs, bare = append(progs, &c), append(bare, &b)
	}
	src, _ := kerngen.RandomSource("apicalls", 0, bare)
	for _, d := range slices.Sorted(maps.Keys(devices)) {
		src += "\n" + d + "\n"
	}
	m, err := buildSource(t, src, codegen.Options{SPIRV: true})
	if err != nil {
		t.Fatalf("the candidates do not build together: %v", err)
	}
	level.Module = savedModule{m.PTX, m.SPIRV, m.SPIRVFailed, m.Manifest}
	for idx, ki := range m.Manifest.Kernels {
		c := progs[slices.IndexFunc(progs, func(c *kerngen.Program) bool { return c.Name == ki.Name })]
		want, trapped := runKIR(t, m, idx, c.Kernel(), rows)
		level.Cands = append(level.Cands, shrinkCand{Program: c, Want: want, WantTrap: trapped})
	}
	return level
}

// typeChecks reports whether program c's source type-checks alone.
func typeChecks(c *kerngen.Program, imp types.Importer) bool {
	src, _ := kerngen.RandomSource("apicalls", 0, []*kerngen.Program{c})
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "c.go", src, 0)
	if err != nil {
		return false
	}
	_, err = (&types.Config{Importer: imp, Error: func(error) {}}).Check("apicalls", fset, []*ast.File{f}, nil)
	return err == nil
}

// runShrinkLevel runs dir's level on the GPU backends. The next level
// starts from the smallest candidate that failed, so the smallest run
// first (after C000, the program itself, which must still fail): a level
// too large for one device call still yields its most useful results.
// Each result is written as soon as it is known, and the run stops a
// little before the test's deadline, so that a slow driver costs the
// candidates not reached, never the level.
func runShrinkLevel(t *testing.T, dir string) {
	var level shrinkLevel
	if !readGzipJSON(t, filepath.Join(dir, "level.json.gz"), &level) {
		t.Fatalf("no level.json.gz in %s", dir)
	}
	to := os.Getenv("GPUKVET_GEN_SHRINK_OUT")
	if to == "" {
		to = dir
	}
	out, err := os.Create(filepath.Join(to, "results.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	devs := openGenBackends(t)
	defer func() {
		for _, d := range devs {
			d.dev.Close()
		}
	}()
	sm := level.Module
	m := &codegen.Module{PTX: sm.PTX, SPIRV: sm.SPIRV, SPIRVFailed: sm.SPIRVFailed, Manifest: sm.Manifest}
	only := regexp.MustCompile(os.Getenv("GPUKVET_GEN_ONLY"))
	deadline, hasDeadline := t.Deadline()
	cands := level.Cands
	slices.SortStableFunc(cands[1:], func(a, b shrinkCand) int { return kerngen.Size(a.Program) - kerngen.Size(b.Program) })
	ran := 0
	for _, c := range cands {
		if hasDeadline && time.Until(deadline) < 30*time.Second {
			t.Logf("stopped before the deadline: %d of %d candidates run", ran, len(cands))
			break
		}
		if !only.MatchString(c.Program.Name) {
			continue
		}
		k := c.Program.Kernel()
		k.Fn = shrinkCandidate
		register(t, m, slices.IndexFunc(m.Manifest.Kernels, func(ki *codegen.KernelInfo) bool { return ki.Name == k.Name }), k)
		for _, d := range devs {
			if _, err := fmt.Fprintf(out, "%s %s %s\n", k.Name, d.name, candidateVerdict(k, d.dev, level.Rows, c)); err != nil {
				t.Fatal(err)
			}
		}
		ran++
	}
	t.Logf("%d of %d candidates run into %s", ran, len(cands), out.Name())
}

// candidateVerdict runs candidate c on dev: "ok", or what differs.
func candidateVerdict(k kerngen.Kernel, dev *device.Device, rows [][3]uint64, c shrinkCand) string {
	got, trap, err := k.Run(dev, rows)
	switch {
	case err != nil:
		return "error " + err.Error()
	case (trap != nil) != c.WantTrap:
		return fmt.Sprintf("trap %v, Go trapped %v", trap, c.WantTrap)
	case c.WantTrap:
		return "ok"
	}
	if d := k.Diff(rows, c.Want, got); len(d) > 0 {
		return "differ " + d[0].Text
	}
	return "ok"
}

func writeGzipJSON(t *testing.T, file string, v any) {
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	z := gzip.NewWriter(f)
	if err := json.NewEncoder(z).Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// readGzipJSON reads file into v, and says whether it was there.
func readGzipJSON(t *testing.T, file string, v any) bool {
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if err := json.NewDecoder(z).Decode(v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return true
}
