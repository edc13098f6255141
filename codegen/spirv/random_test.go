package spirv_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/codegen/spirv"
	"github.com/gpukvet/gpukvet/internal/kerngen"
)

// TestRandomStructuring, with GPUKVET_SPIRV_RANDOM=seed:n[,seed:n...],
// structures the random programs of internal/kerngen (n programs from
// each seed), optimized and unoptimized, with no fallback, and puts the
// modules through spirv-val: the wide run of issue 21 that finds the
// control-flow shapes the emitter refuses, without the checks, the other
// targets and the runs of TestGeneratedRandom. Each refusal is logged
// with its program; GPUKVET_SPIRV_SHRINK=1 (or a comma-separated list of
// kernel names) also shrinks it (kerngen.ShrinkBatch) with the emitter
// and spirv-val alone as the predicate.
func TestRandomStructuring(t *testing.T) {
	runs := os.Getenv("GPUKVET_SPIRV_RANDOM")
	if runs == "" {
		t.Skip("set GPUKVET_SPIRV_RANDOM=seed:n to structure random programs")
	}
	spirvVal(t)
	for _, run := range strings.Split(runs, ",") {
		s, n, ok := strings.Cut(run, ":")
		seed, err1 := strconv.ParseUint(s, 10, 64)
		count, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("GPUKVET_SPIRV_RANDOM: %q is not seed:n", run)
		}
		structureRandom(t, seed, count)
	}
}

// structureRandom structures n random programs of seed, both ways.
func structureRandom(t *testing.T, seed uint64, n int) {
	progs := kerngen.Random(seed, n)
	byName := map[string]*kerngen.Program{}
	for _, p := range progs {
		byName[p.Name] = p
	}
	refused := map[string][]string{} // kernel → "optimized: why", ...
	for _, o0 := range []bool{false, true} {
		start := time.Now()
		failed := emitRandom(t, progs, o0, false)
		for name, err := range failed {
			refused[name] = append(refused[name], optName(o0)+": "+err.Error())
		}
		t.Logf("seed %d, %s: %d programs, %d refused, in %v", seed, optName(o0), n, len(failed), time.Since(start).Round(time.Second))
	}
	names := make([]string, 0, len(refused))
	for name := range refused {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Errorf("seed %d: %s refused:\n%s", seed, name, strings.Join(refused[name], "\n"))
		if only := os.Getenv("GPUKVET_SPIRV_SHRINK"); only == "" || only != "1" && !slices.Contains(strings.Split(only, ","), name) {
			continue
		}
		// The unoptimized build is the faster, where it fails too.
		o0 := len(refused[name]) == 2 || !strings.HasPrefix(refused[name][0], "optimized")
		small := kerngen.ShrinkBatch(byName[name], func(qs []*kerngen.Program) int {
			return firstRefused(t, qs, o0)
		})
		t.Logf("%s (%s) shrinks to:\n%s", name, optName(o0), small.Source())
	}
}

// optName names a build with the optimizer on or off (o0).
func optName(o0 bool) string {
	return map[bool]string{false: "optimized", true: "unoptimized"}[o0]
}

// firstRefused returns the index of one of qs (variants of one program,
// sharing its name) that the SPIR-V emitter or spirv-val refuses, or -1.
// A variant that does not compile (the shrinker dropped a loop whose
// counter the body uses) is left out.
func firstRefused(t *testing.T, qs []*kerngen.Program, o0 bool) int {
	renamed := make([]*kerngen.Program, len(qs))
	for i, q := range qs {
		renamed[i] = renameProgram(q, fmt.Sprintf("%s_%d", q.Name, i))
	}
	for name := range emitRandom(t, renamed, o0, true) {
		n, _ := strconv.Atoi(name[strings.LastIndex(name, "_")+1:])
		return n
	}
	return -1
}

// renameProgram returns a copy of p named name, its device functions too.
func renameProgram(p *kerngen.Program, name string) *kerngen.Program {
	r := strings.NewReplacer(p.Name+"_d", name+"_d")
	var stmts func([]*kerngen.Stmt) []*kerngen.Stmt
	stmts = func(ss []*kerngen.Stmt) []*kerngen.Stmt {
		var out []*kerngen.Stmt
		for _, s := range ss {
			c := *s
			c.Head, c.Body, c.Else = r.Replace(s.Head), stmts(s.Body), stmts(s.Else)
			out = append(out, &c)
		}
		return out
	}
	q := *p
	q.Name, q.Stmts, q.Devices = name, stmts(p.Stmts), nil
	for _, d := range p.Devices {
		q.Devices = append(q.Devices, r.Replace(d))
	}
	return &q
}

// emitRandom builds progs (as one package) and emits SPIR-V, with no
// fallback; it returns the emitter's refusals and spirv-val's, by kernel.
// With first (for the shrinker), it returns one refusal, found by halving
// the module spirv-val refuses, and leaves out programs that do not
// compile (else they fail the test).
func emitRandom(t *testing.T, progs []*kerngen.Program, o0, first bool) map[string]error {
	t.Helper()
	m := buildRandom(t, progs, o0, first)
	names := map[string]string{} // entry → Go name
	for _, ki := range m.Manifest.Kernels {
		names[ki.Entry] = ki.Name
	}
	failed := map[string]error{}
	// emit emits funcs as one module and validates it, recording its
	// refusals; it reports whether spirv-val accepted the module.
	emit := func(funcs []*kir.Func) bool {
		one := *m.IR
		one.Funcs = funcs
		res, err := spirv.Emit(&one, spirv.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for entry, err := range res.Failed {
			failed[names[entry]] = err
		}
		if len(res.Failed) == len(funcs) {
			return true // nothing emitted to validate
		}
		if err := spirvValErr(t, res.Binary); err != nil {
			if len(funcs) == 1 {
				failed[names[funcs[0].Name]] = err
			}
			return false
		}
		return true
	}
	if !first {
		for _, f := range m.IR.Funcs {
			emit([]*kir.Func{f})
		}
		return failed
	}
	funcs := m.IR.Funcs
	for !emit(funcs) && len(failed) == 0 {
		if half := funcs[:len(funcs)/2]; !emit(half) {
			funcs = half
		} else {
			funcs = funcs[len(funcs)/2:]
		}
	}
	return failed
}

// buildRandom builds progs as one package; with drop, the programs whose
// code a build error names are left out and the rest built again.
func buildRandom(t *testing.T, progs []*kerngen.Program, o0, drop bool) *codegen.Module {
	for {
		dir, err := os.MkdirTemp("testdata", "random")
		if err != nil {
			t.Fatal(err)
		}
		src, _ := kerngen.RandomSource(filepath.Base(dir), 0, progs)
		err = os.WriteFile(filepath.Join(dir, "kernels.go"), []byte(src), 0o644)
		var m *codegen.Module
		if err == nil {
			m, err = codegen.Build([]string{mod + "codegen/spirv/testdata/" + filepath.Base(dir)}, codegen.Options{DisableOptimizer: o0})
		}
		os.RemoveAll(dir)
		if err == nil {
			return m
		}
		bad := badPrograms(src, progs, err)
		if !drop || len(bad) == 0 {
			t.Fatal(err)
		}
		progs = slices.DeleteFunc(progs, func(p *kerngen.Program) bool { return bad[p.Name] })
	}
}

// badPrograms returns the programs of src whose lines err names: a
// program's code runs from its first function (a device function or the
// kernel) to the next program's.
func badPrograms(src string, progs []*kerngen.Program, err error) map[string]bool {
	lines := strings.Split(src, "\n")
	owner := make([]string, len(lines)+1)
	cur := ""
	for n, line := range lines {
		for _, p := range progs {
			if strings.HasPrefix(line, "func "+p.Name+"(") || strings.HasPrefix(line, "func "+p.Name+"_d") {
				cur = p.Name
			}
		}
		owner[n+1] = cur
	}
	bad := map[string]bool{}
	for _, m := range regexp.MustCompile(`kernels\.go:(\d+):`).FindAllStringSubmatch(err.Error(), -1) {
		if n, _ := strconv.Atoi(m[1]); n < len(owner) && owner[n] != "" {
			bad[owner[n]] = true
		}
	}
	return bad
}

// spirvValErr is spirv-val's verdict on a module (Vulkan 1.2).
func spirvValErr(t *testing.T, bin []byte) error {
	file := filepath.Join(t.TempDir(), "m.spv")
	if err := os.WriteFile(file, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(spirvVal(t), "--target-env", "vulkan1.2", file).CombinedOutput(); err != nil {
		return fmt.Errorf("spirv-val: %v\n%s", err, out)
	}
	return nil
}
