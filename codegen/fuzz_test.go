package codegen_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/internal/budget"
)

// shape is a kernel's shape, read from fuzz input: each knob one byte (or
// two), 0 when the input runs out.
type shape struct {
	depth, fanout int // a call tree: depth levels, fanout calls per level
	straight      int // statements of straight-line code
	cases         int // cases of a switch
	params        int // scalar and slice parameters after the gpu.Thread
	nest          int // nested ifs and loops
	threadPtr     bool
	// exits adds control flow that leaves the nested loops: a labeled
	// break and a labeled continue of loops chosen by its value, a
	// return (bit 0) and a switch with fallthrough and a continue (bit 1).
	exits int
}

func readShape(data []byte) shape {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	var s shape
	s.depth = next() % 80
	s.fanout = 1 + next()%4
	s.straight = next()<<8 | next()
	s.straight %= 3000
	s.cases = next()<<8 | next()
	s.cases %= 300
	s.params = next()
	s.nest = next() % 60
	s.threadPtr = next()%16 == 15
	s.exits = next()
	s.bound()
	return s
}

// maxCost bounds what one shape may cost to check and compile for every
// target, in units of cost (about a millisecond of one core's time on an
// unloaded CI machine, measured per knob on the 2-core one). The fuzzing
// engine kills a worker whose input runs 10 s; at load 5 on 2 cores a
// second of CPU takes about 2.5 s, so 1000 units keep every input well
// within it. Each knob alone reaches its maximum within the bound; only
// combinations are shrunk (the 'maxall' seed, every knob at its largest,
// cost about 1800: 2.9 s of CPU on a loaded machine, and more than 10 s
// at load 3-5).
const maxCost = 1000

// cost estimates what s costs in maxCost's units: about 0.25 per
// statement, 3 per switch case, 7 per level of nesting, 1 per parameter.
// Call trees cost little (a tree over internal/budget's size is refused
// before it is inlined; one within it compiled in 0.1-0.25 s).
func (s shape) cost() int {
	return s.straight/4 + 3*s.cases + 7*s.nest + s.params
}

// bound shrinks s's costliest knob by a quarter until s costs at most
// maxCost.
func (s *shape) bound() {
	for s.cost() > maxCost {
		knobs := []*int{&s.straight, &s.cases, &s.nest, &s.params}
		costs := []int{s.straight / 4, 3 * s.cases, 7 * s.nest, s.params}
		k := 0
		for i := range costs {
			if costs[i] > costs[k] {
				k = i
			}
		}
		*knobs[k] -= max(1, *knobs[k]/4)
	}
}

// source writes a kernel of shape s.
func (s shape) source(pkg string) string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	p("package %s\n\nimport \"github.com/gpukvet/gpukvet/gpu\"\n\n//gpu:kernel\nfunc K(t ", pkg)
	if s.threadPtr {
		p("*")
	}
	p("gpu.Thread, out []float32")
	types := []string{"float32", "int32", "uint32", "float64", "int64", "bool", "[]int32", "uint8"}
	for i := range s.params {
		p(", p%d %s", i, types[i%len(types)])
	}
	p(") {\n\ti := t.GlobalIdx().X\n\tif i >= len(out) {\n\t\treturn\n\t}\n\ta := out[i]\n")
	for i := range s.params {
		switch types[i%len(types)] {
		case "bool":
			p("\tif p%d {\n\t\ta++\n\t}\n", i)
		case "[]int32":
			p("\tif len(p%d) > 0 {\n\t\ta += float32(p%d[0])\n\t}\n", i, i)
		default:
			p("\ta += float32(p%d)\n", i)
		}
	}
	if s.depth > 0 {
		p("\ta = c0(a)\n")
	}
	ops := []string{"a = a*1.5 + %d", "a -= float32(i + %d)", "a = a*a - %d", "a += float32(i*%d) * 0.5"}
	for k := range s.straight {
		p("\t"+ops[k%len(ops)]+"\n", k%97+1)
	}
	if s.cases > 0 {
		p("\tswitch i %% %d {\n", s.cases)
		for k := range s.cases {
			p("\tcase %d:\n\t\ta += %d\n", k, k+1)
		}
		p("\t}\n")
	}
	var loops []int // the nesting levels that are loops
	for k := range s.nest {
		if k%2 == 1 {
			loops = append(loops, k)
		}
	}
	brk, cont := -1, -1
	if s.exits > 0 && len(loops) > 0 {
		brk, cont = loops[s.exits%len(loops)], loops[(s.exits/3)%len(loops)]
	}
	for k := range s.nest {
		if k%2 == 0 {
			p("\tif a > %d {\n", k)
			continue
		}
		if k == brk || k == cont {
			p("l%d:\n", k)
		}
		p("\tfor j := 0; j < i%%3; j++ {\n")
	}
	p("\ta += 1\n")
	if brk >= 0 {
		p("\tif a > 7 {\n\t\tbreak l%d\n\t}\n\tif a < -3 {\n\t\tcontinue l%d\n\t}\n", brk, cont)
		if s.exits&1 == 1 {
			p("\tif a == 5 {\n\t\tout[i] = a\n\t\treturn\n\t}\n")
		}
		if s.exits&2 == 2 {
			p("\tswitch int(a) %% 3 {\n\tcase 0:\n\t\ta += 2\n\t\tfallthrough\n\tcase 1:\n\t\ta *= 2\n\t\tif a > 3 {\n\t\t\tcontinue l%d\n\t\t}\n\tdefault:\n\t\ta -= 1\n\t}\n", cont)
		}
	}
	p("%s", strings.Repeat("\t}\n", s.nest))
	p("\tout[i] = a\n}\n")
	for d := range s.depth {
		p("\nfunc c%d(x float32) float32 {\n\ty := x\n", d)
		if d == s.depth-1 {
			p("\treturn y*2 + 1\n}\n")
			continue
		}
		for range s.fanout {
			p("\ty += c%d(y)\n", d+1)
		}
		p("\treturn y\n}\n")
	}
	return w.String()
}

// buildTimeout bounds one shape's loading, checking and compiling for
// every target: a kernel within the budget compiles in a few seconds.
const buildTimeout = 2 * time.Minute

// FuzzKernelShapes compiles generated kernels of every shape the fuzz input
// describes (deep and wide call trees, long straight-line code, wide
// switches, many parameters, deep nesting) with the checks, for every
// target. The compiler must never panic or run away: each build ends, in
// time, with a module or with an error that names the problem (a refusal
// citing a check, or a position and a message), never an internal error;
// and a kernel the checks pass must compile for every target. The source
// is type-checked against package gpu and codegen/devmath loaded once
// (PrepareSource), not loaded with go list, so that an input costs well
// under the fuzzing engine's limit of 10 s per input (a worker that passes
// it is killed, "fuzzing process hung"): shapes are bounded to 3000
// statements and 300 cases, which with every target and spirv-val take
// about 4 s on a 2-core machine (6000 and 600 took 10-13 s once the SPIR-V
// structurizer learned every loop-exit shape), and together by maxCost.
// Package gpu and codegen/devmath are loaded before the first input, so
// that no input pays for it (2-3 s of CPU, which made the first input of
// every worker run past 10 s on a loaded machine).
func FuzzKernelShapes(f *testing.F) {
	f.Add([]byte{20, 1, 0, 0, 0, 0, 0, 0, 0})      // 2^20 calls
	f.Add([]byte{70, 0, 0, 0, 0, 0, 0, 0, 0})      // a chain 70 deep
	f.Add([]byte{63, 0, 2, 0, 0, 128, 0, 0, 0})    // a chain 63 deep, 512 statements, a switch of 128 cases
	f.Add([]byte{0, 0, 0, 0, 0, 0, 200, 30, 0})    // 200 parameters, nesting 30 deep
	f.Add([]byte{3, 2, 0, 10, 0, 10, 9, 7, 15})    // a *gpu.Thread kernel
	f.Add([]byte{2, 2, 0, 4, 0, 3, 2, 7, 0, 7})    // loops left by labeled break, continue, return and a switch
	f.Add([]byte{1, 1, 0, 0, 0, 0, 0, 12, 0, 254}) // six loops deep, the break and continue far apart
	if _, err := codegen.PrepareSource(f.TempDir(), "k", shape{fanout: 1}.source("k"), codegen.Options{}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := readShape(data)
		dir := t.TempDir()
		src := s.source("k")
		if err := os.WriteFile(filepath.Join(dir, "k.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			checkShape(t, s, dir, src)
		}()
		select {
		case <-done:
		case <-time.After(buildTimeout):
			t.Fatalf("shape %+v: no result after %v", s, buildTimeout)
		}
	})
}

// checkShape builds the kernel in dir and checks the outcome.
func checkShape(t *testing.T, s shape, dir, src string) {
	compile, err := codegen.PrepareSource(dir, "k", src, codegen.Options{Checks: analyzers.All()})
	if err != nil {
		t.Errorf("shape %+v: loading or checking failed: %v", s, err)
		return
	}
	for _, target := range []string{"ptx", "spirv", "llvm-amdgcn", "llvm-nvptx"} {
		m, err := compile(target)
		var refusal *codegen.Refusal
		switch {
		case err == nil:
			if m == nil || len(m.Manifest.Kernels) != 1 {
				t.Errorf("shape %+v, target %s: no error and no kernel", s, target)
			}
			if target == "spirv" && m != nil {
				spirvValid(t, s, m.SPIRV)
			}
		case errors.As(err, &refusal):
			// The checks reported the kernel: a shape that exceeds the
			// budget must be refused for it, with the limit named.
			if !strings.Contains(err.Error(), "k.go:") {
				t.Errorf("shape %+v, target %s: refusal without a position: %v", s, target, err)
			}
		default:
			t.Errorf("shape %+v, target %s: the checks pass but the build fails: %v", s, target, err)
		}
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Errorf("shape %+v, target %s: internal error: %v", s, target, err)
		}
		if over := s.overBudget(); over != "" && err == nil {
			t.Errorf("shape %+v, target %s: compiled although %s", s, target, over)
		}
		if over := s.overBudget(); over != "" && err != nil && !strings.Contains(err.Error(), "budget") && !s.threadPtr {
			t.Errorf("shape %+v, target %s: %s, but the error does not name the budget: %v", s, target, over, err)
		}
		if refusal != nil {
			return // the checks refuse the kernel for every target alike
		}
	}
}

// spirvValid runs SPIRV-Tools' validator, where installed, on a shape's
// SPIR-V module (the environment the codegen/spirv tests use).
func spirvValid(t *testing.T, s shape, bin []byte) {
	val, err := exec.LookPath("spirv-val")
	if err != nil {
		return // codegen/spirv's tests say how to install it
	}
	file := filepath.Join(t.TempDir(), "k.spv")
	if err := os.WriteFile(file, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(val, "--target-env", "vulkan1.2", file).CombinedOutput(); err != nil {
		t.Errorf("shape %+v: spirv-val: %v\n%s", s, err, out)
	}
}

// overBudget says why a shape's call tree exceeds internal/budget, or "".
// It only looks at the depth of the tree and a lower bound of its size.
func (s shape) overBudget() string {
	if s.depth+1 > budget.MaxDepth {
		return fmt.Sprintf("calls nest %d deep", s.depth+1)
	}
	copies := 1
	for range s.depth - 1 {
		copies *= s.fanout
		if copies > budget.MaxSize {
			return fmt.Sprintf("the call tree inlines %d^%d copies of its leaf", s.fanout, s.depth-1)
		}
	}
	return ""
}

// TestShapeCostBounded checks that no fuzz input describes a shape over
// maxCost, and that each knob alone still reaches its maximum.
func TestShapeCostBounded(t *testing.T) {
	if s := readShape([]byte{0xff, 0xff, 0x0b, 0xb7, 0x01, 0x2b, 0xff, 0x3b, 0, 0xff}); s.cost() > maxCost {
		t.Errorf("every knob at its largest: %+v costs %d, over %d", s, s.cost(), maxCost)
	}
	for _, c := range []struct {
		data []byte
		want shape
	}{
		{[]byte{0, 0, 0x0b, 0xb7}, shape{fanout: 1, straight: 2999}},
		{[]byte{0, 0, 0, 0, 0x01, 0x2b}, shape{fanout: 1, cases: 299}},
		{[]byte{0, 0, 0, 0, 0, 0, 0xff}, shape{fanout: 1, params: 255}},
		{[]byte{0, 0, 0, 0, 0, 0, 0, 0x3b}, shape{fanout: 1, nest: 59}},
	} {
		if got := readShape(c.data); got != c.want {
			t.Errorf("readShape(%x) = %+v, want %+v", c.data, got, c.want)
		}
	}
}
