package codegen_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// TestGuardFacts: a uniform guard at a kernel's top is a fact for the
// optimizer. The 32×32 tiled matmul with issue 22's guard runs its tile
// loop without checks behind one uniform test (plain entry) or none (its
// launch-facts variant); the matmul that states every size it assumes,
// the power-of-two ring and the block-size-guarded sum have no check
// left; the matmul guarding the wrong multiple keeps its checks where
// the guard does not imply them.
func TestGuardFacts(t *testing.T) {
	m := build(t, codegen.Options{VerifyPasses: true}, corpus+"guards")
	want := map[string]struct{ plain, fast, loopFree int }{
		// plain: index checks left; fast: in the variant; loopFree: loops
		// holding a barrier and no check (the copy the test enters).
		"guards_MatMulGuarded":    {plain: 3, fast: 1, loopFree: 1},
		"guards_MatMulFullGuard":  {plain: 0, fast: -1, loopFree: 1},
		"guards_MatMulWrongGuard": {plain: 3, fast: 1, loopFree: 1},
		"guards_Ring":             {plain: 0, fast: -1},
		"guards_BlockSum":         {plain: 0, fast: -1},
	}
	for _, f := range m.IR.Funcs {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		if got := traps(f, gpuabi.TrapIndex); got != w.plain {
			t.Errorf("%s: %d index checks, want %d\n%s", f.Name, got, w.plain, kir.Format(f))
		}
		if got := uncheckedBarrierLoops(f); got < w.loopFree {
			t.Errorf("%s: %d barrier loops without checks, want %d\n%s", f.Name, got, w.loopFree, kir.Format(f))
		}
		g, _, ok := kir.AssumeFacts(f)
		switch {
		case w.fast < 0 && ok:
			t.Errorf("%s: a launch-facts variant, want none", f.Name)
		case w.fast >= 0 && !ok:
			t.Errorf("%s: no launch-facts variant", f.Name)
		case ok && traps(g, gpuabi.TrapIndex) != w.fast:
			t.Errorf("%s: %d index checks, want %d\n%s", g.Name, traps(g, gpuabi.TrapIndex), w.fast, kir.Format(g))
		}
	}
}

// TestGuardFactsRun runs the guarded matmuls in the interpreter,
// optimized and with -O0, where the guard holds: same result, and for
// the wrong guard at n = 48, a multiple of 16 whose last tile reads past
// the matrix, the same index trap.
func TestGuardFactsRun(t *testing.T) {
	opt := build(t, codegen.Options{VerifyPasses: true}, corpus+"guards")
	raw := build(t, codegen.Options{DisableOptimizer: true}, corpus+"guards")
	for _, tc := range []struct {
		kernel   string
		n, grid  int
		wantTrap bool
	}{
		{"guards_MatMulGuarded", 64, 2, false},
		{"guards_MatMulFullGuard", 64, 2, false},
		{"guards_MatMulWrongGuard", 64, 2, false},
		{"guards_MatMulWrongGuard", 48, 2, true},
	} {
		// The optimized plain entry, its launch-facts variant where its
		// facts hold, and the -O0 kernel, last.
		grid, block := [3]int{tc.grid, tc.grid, 1}, [3]int{32, 32, 1}
		f := funcNamed(t, opt, tc.kernel)
		funcs, shared := []*kir.Func{f}, [][]kir.SharedVar{opt.IR.Shared}
		if g, facts, ok := kir.AssumeFacts(f); ok && factsHold(t, facts, matmulArgs(tc.n), grid, block) {
			funcs, shared = append(funcs, g), append(shared, opt.IR.Shared)
		}
		funcs, shared = append(funcs, funcNamed(t, raw, tc.kernel)), append(shared, raw.IR.Shared)
		var outs [][]byte
		for i, f := range funcs {
			args := matmulArgs(tc.n)
			trap, err := kirexec.Run(f, shared[i], grid, block, args)
			if err != nil {
				t.Fatalf("%s n=%d: %v", f.Name, tc.n, err)
			}
			if got := trap != nil && trap.Code == gpuabi.TrapIndex; got != tc.wantTrap {
				t.Errorf("%s n=%d: trap %+v, want an index trap: %v", f.Name, tc.n, trap, tc.wantTrap)
			}
			outs = append(outs, args[5].Buf.Data)
		}
		t.Logf("%s n=%d: %d entries run", tc.kernel, tc.n, len(funcs))
		for i := range len(outs) - 1 {
			if !tc.wantTrap && !bytes.Equal(outs[i], outs[len(outs)-1]) {
				t.Errorf("%s n=%d: %s's result differs from -O0's", tc.kernel, tc.n, funcs[i].Name)
			}
		}
	}
}

// matmulArgs are n, a, b and c of n×n float32 matrices (a, b small
// integers, so that every summation order gives the same result).
func matmulArgs(n int) []kirexec.Arg {
	mat := func(seed int) *kirexec.Buffer {
		b := &kirexec.Buffer{Data: make([]byte, 4*n*n)}
		for i := range n * n {
			binary.LittleEndian.PutUint32(b.Data[4*i:], math.Float32bits(float32((i*seed)%7)))
		}
		return b
	}
	nn := uint64(n * n)
	return []kirexec.Arg{{Bits: uint64(n)}, {Buf: mat(3)}, {Bits: nn}, {Buf: mat(5)}, {Bits: nn}, {Buf: mat(0)}, {Bits: nn}}
}

func funcNamed(t *testing.T, m *codegen.Module, name string) *kir.Func {
	t.Helper()
	for _, f := range m.IR.Funcs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

// traps counts f's trap blocks of the given code (index checks, nil
// tests, …).
func traps(f *kir.Func, code gpuabi.TrapCode) int {
	n := 0
	for _, b := range f.Blocks {
		if b.Term == kir.TermTrap && b.Trap.Code == code {
			n++
		}
	}
	return n
}

// uncheckedBarrierLoops counts f's loops that hold a barrier and no
// index check.
func uncheckedBarrierLoops(f *kir.Func) int {
	n := 0
	for _, l := range kir.NaturalLoops(f, kir.Dominators(f)) {
		barrier, checked := false, false
		for b := range l.Blocks {
			for _, v := range b.Values {
				barrier = barrier || v.Op == kir.OpBarrier
			}
			for _, s := range b.Succs {
				checked = checked || s.Term == kir.TermTrap && s.Trap.Code == gpuabi.TrapIndex
			}
		}
		if barrier && !checked {
			n++
		}
	}
	return n
}
