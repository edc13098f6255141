package codegen_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// TestBenchmarkLoopsDoNotPoll: the benchmark kernels' loops, the held-out
// twins' included, are counted (a bounded induction variable), so
// kir.PollLoops gives them no poll of the stop word and their code is what
// it was; but for the loops of polledBench, whose bound is read from
// memory in every iteration.
func TestBenchmarkLoopsDoNotPoll(t *testing.T) {
	patterns := []string{"github.com/gpukvet/gpukvet/bench/kernels", "github.com/gpukvet/gpukvet/bench/heldout"}
	gens, _ := filepath.Glob("../testdata/benchkernels/*/gpukvet_gen.go") // "..." skips testdata
	for _, g := range gens {
		patterns = append(patterns, "github.com/gpukvet/gpukvet/testdata/benchkernels/"+filepath.Base(filepath.Dir(g)))
	}
	m := build(t, codegen.Options{}, patterns...)
	loops := 0
	for _, f := range m.IR.Funcs {
		loops += len(kir.NaturalLoops(f, kir.Dominators(f)))
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				if v.Op == kir.OpPoll && polledBench[f.Name] == "" {
					t.Errorf("%s polls in b%d (%s), from the loop at %s", f.Name, b.Index, b.Comment, m.IR.Positions[b.Succs[0].Trap.Pos])
				}
			}
		}
	}
	t.Logf("%d kernels, %d loops", len(m.IR.Funcs), loops)
}

// polledBench are the benchmark kernels with a loop that polls: a CSR row
// loop, for e := rowPtr[v]; e < rowPtr[v+1]; e++, reads its bound from
// memory in every iteration, which another writer could change.
var polledBench = map[string]string{
	"bfs_Expand":     "bfs.go:20",
	"spmv_CSR":       "spmv.go:13",
	"spmv_CSRVector": "spmv.go:28",
}

// spinSource has kernels that never end, and a counted loop.
const spinSource = `package spink

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Forever(t gpu.Thread, out []int32) {
	out[t.GlobalIdx().X] = 1
	for {
	}
}

//gpu:kernel
func WaitFlag(t gpu.Thread, flag []int32, out []int32) {
	i := t.GlobalIdx().X
	for flag[0] == 0 { // waits
	}
	out[i] = 1
}

//gpu:kernel
func Counted(t gpu.Thread, n int, out []int32) {
	i := t.GlobalIdx().X
	s := int32(0)
	for k := 0; k < n; k++ {
		s += int32(k)
	}
	for k := n; k > 0; k-- {
		s += int32(k)
	}
	for k := i; k < n; k += t.BlockDim().X * 2 * t.GridDim().X { // a stride NarrowIndices makes 32-bit in part
		s += int32(k)
	}
	out[i] = s
}
`

// TestNeverEndingKernelsPoll: a kernel that never ends (for {}, a loop
// waiting on a flag that stays 0) polls the stop word, and in the kernel-IR
// interpreter, whose deadline is a step count, traps with a deadline at its
// loop instead of running out of steps; at -O0 too. A counted loop does
// not poll.
func TestNeverEndingKernelsPoll(t *testing.T) {
	for _, opts := range []codegen.Options{{}, {DisableOptimizer: true}} {
		m, err := buildSource(t, spinSource, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.IR.Funcs {
			name := f.Name[strings.Index(f.Name, "_")+1:]
			if name == "Counted" {
				if n := pollCount(f); n > 0 {
					t.Errorf("Counted %+v: %d polls, want none", opts, n)
				}
				continue
			}
			args := []kirexec.Arg{{Buf: &kirexec.Buffer{Name: "out", Data: make([]byte, 4*4)}}, {Bits: 4}}
			if name == "WaitFlag" {
				args = append([]kirexec.Arg{{Buf: &kirexec.Buffer{Name: "flag", Data: make([]byte, 4)}}, {Bits: 1}}, args...)
			}
			trap, err := kirexec.Run(f, m.IR.Shared, [3]int{1, 1, 1}, [3]int{4, 1, 1}, args)
			if err != nil || trap == nil || trap.Code != gpuabi.TrapDeadline {
				t.Errorf("%s %+v: trap %+v, error %v; want a deadline trap", name, opts, trap, err)
				continue
			}
			if pos := m.IR.Positions[trap.Pos]; name == "WaitFlag" && !strings.Contains(nilLineOf(spinSource, pos), "waits") {
				t.Errorf("%s %+v: deadline trap at %s, want the loop's line", name, opts, pos)
			}
		}
	}
}

// pollCount counts f's polls of the stop word.
func pollCount(f *kir.Func) int {
	n := 0
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op == kir.OpPoll {
				n++
			}
		}
	}
	return n
}
