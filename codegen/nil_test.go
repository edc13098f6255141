package codegen_test

import (
	"encoding/binary"
	"strconv"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// nilSource has kernels that dereference a pointer nil on one thread's path
// (through a store, a field, an array pointer and an atomic), and kernels
// whose pointers the IR proves (a local's address, an element's, a method
// on a local), which must keep no nil test.
const nilSource = `package nilk

import "github.com/gpukvet/gpukvet/gpu"

type pair struct{ a, b int32 }

func (p *pair) sum() int32 { return p.a + p.b }

//gpu:kernel
func Store(t gpu.Thread, k []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		var v int32
		var p *int32
		if k[i] != 0 {
			p = &v
		}
		*p = k[i] // nil store
		out[i] = v
	}
}

//gpu:kernel
func Field(t gpu.Thread, k []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		var s pair
		var p *pair
		if k[i] != 0 {
			p = &s
		}
		out[i] = p.b // nil field
	}
}

//gpu:kernel
func Array(t gpu.Thread, k []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		var a [4]int32
		var p *[4]int32
		if k[i] != 0 {
			p = &a
		}
		out[i] = p[i%4] // nil array
	}
}

//gpu:kernel
func Atomic(t gpu.Thread, k []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		var p *int32
		if k[i] != 0 {
			p = &out[i]
		}
		gpu.AtomicAdd(p, 1) // nil atomic
	}
}

//gpu:kernel
func Proved(t gpu.Thread, k []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		var s, u pair
		p := &s
		if k[i] != 0 {
			p = &u
		}
		p.a = k[i]
		q := &out[i]
		*q = p.sum() + s.sum()
		gpu.AtomicAdd(&out[0], 1)
	}
}
`

// TestNilDereferenceTraps runs, in the kernel-IR interpreter, kernels that
// dereference a pointer left nil on one thread's path: the launch traps
// with a nil dereference at the line of the dereference (before, the IR had
// no test and a device stored through address 0), and runs without a trap
// when no pointer is nil. The kernel whose pointers the IR proves keeps no
// nil test.
func TestNilDereferenceTraps(t *testing.T) {
	for _, opts := range []codegen.Options{{}, {DisableOptimizer: true}} {
		m, err := buildSource(t, nilSource, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.IR.Funcs {
			name := f.Name[strings.Index(f.Name, "_")+1:]
			if name == "Proved" {
				if n := traps(f, gpuabi.TrapNil); n > 0 && !opts.DisableOptimizer {
					t.Errorf("Proved keeps %d nil tests, want none: its pointers are never nil", n)
				}
				continue
			}
			runNil(t, m, f, name, opts)
		}
	}
}

// runNil runs f on 64 threads with k all 1 (no nil pointer), then with
// k[37] = 0 (thread 37's pointer is nil).
func runNil(t *testing.T, m *codegen.Module, f *kir.Func, name string, opts codegen.Options) {
	t.Helper()
	for _, nilAt := range []int{-1, 37} {
		k := make([]byte, 4*64)
		for i := range 64 {
			if i != nilAt {
				binary.LittleEndian.PutUint32(k[4*i:], 1)
			}
		}
		args := []kirexec.Arg{{Buf: &kirexec.Buffer{Name: "k", Data: k}}, {Bits: 64}, {Buf: &kirexec.Buffer{Name: "out", Data: make([]byte, 4*64)}}, {Bits: 64}}
		trap, err := kirexec.Run(f, m.IR.Shared, [3]int{2, 1, 1}, [3]int{32, 1, 1}, args)
		switch {
		case err != nil:
			t.Errorf("%s %+v, nil at %d: %v", name, opts, nilAt, err)
		case nilAt < 0 && trap != nil:
			t.Errorf("%s %+v with no nil pointer: trap %+v", name, opts, trap)
		case nilAt >= 0 && (trap == nil || trap.Code != gpuabi.TrapNil || trap.Thread[0] != nilAt%32 || trap.Block[0] != nilAt/32):
			t.Errorf("%s %+v: trap %+v, want a nil dereference in thread 37", name, opts, trap)
		case nilAt >= 0 && !strings.Contains(nilLineOf(nilSource, m.IR.Positions[trap.Pos]), "nil "+strings.ToLower(name)):
			t.Errorf("%s %+v: trap at %s, want the dereference's line", name, opts, m.IR.Positions[trap.Pos])
		}
	}
}

// nilLineOf returns the line of src that position pos ("file:line:col")
// names (its "// …" comment says what is there).
func nilLineOf(src, pos string) string {
	line := 0
	if i := strings.LastIndex(pos, ":"); i > 0 {
		if j := strings.LastIndex(pos[:i], ":"); j > 0 {
			line, _ = strconv.Atoi(pos[j+1 : i])
		}
	}
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return pos
	}
	return lines[line-1]
}
