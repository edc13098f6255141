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

// TestLinearLoopChecks: loops whose index has a coefficient of the
// counter that is no constant (a[r+(k0+j)*ld]) run without their checks
// behind a test of the index's extremes (kir/looplinear.go), and an
// inner loop bounded through the guard and the outer loop's counter has
// no check left in the launch-facts variant.
func TestLinearLoopChecks(t *testing.T) {
	m := build(t, codegen.Options{VerifyPasses: true}, corpus+"guards")
	if all, unchecked := loopChecks(funcNamed(t, m, "guards_Columns")); all != 2 || unchecked != 1 {
		t.Errorf("guards_Columns: %d loops, %d without an index check, want 2 and 1 (the versioned copy)\n%s", all, unchecked, kir.Format(funcNamed(t, m, "guards_Columns")))
	}
	f := funcNamed(t, m, "guards_Panels")
	g, _, ok := kir.AssumeFacts(f)
	if !ok {
		t.Fatalf("guards_Panels: no launch-facts variant\n%s", kir.Format(f))
	}
	if all, unchecked := loopChecks(g); all != 2 || unchecked != 2 {
		t.Errorf("guards_Panels_fast: %d loops, %d without an index check, want 2 and 2\n%s", all, unchecked, kir.Format(g))
	}
}

// TestLinearLoopChecksRun runs the kernels of TestLinearLoopChecks in the
// interpreter, optimized (plain entry, and the variant where its facts
// hold) and with -O0: the same results where every index is in range,
// including a negative coefficient, and the same index trap, at the same
// thread, where one is not (one thread traps in each case: which trap of
// several is recorded is the schedule's choice). A versioned loop that let an access out of
// range through would fault in the interpreter.
func TestLinearLoopChecksRun(t *testing.T) {
	opt := build(t, codegen.Options{VerifyPasses: true}, corpus+"guards")
	raw := build(t, codegen.Options{DisableOptimizer: true}, corpus+"guards")
	for _, tc := range []struct {
		kernel         string
		lenA           int
		ld, p1, p2     int64 // Columns: ld, k0, cols; Panels: ld, k, w
		grid           int
		wantTrap, fast bool // fast: the variant's facts hold
	}{
		{"guards_Columns", 256, 64, 1, 3, 1, false, false},
		{"guards_Columns", 254, 64, 1, 3, 1, true, false},    // thread 62, j = 2: a[254]
		{"guards_Columns", 256, -64, -3, 3, 1, false, false}, // a negative coefficient
		{"guards_Columns", 252, -64, -3, 3, 1, true, false},  // thread 60, j = 0: a[252]
		{"guards_Columns", 256, -1, 0, 2, 1, true, false},    // thread 0, j = 1: a[-1]
		{"guards_Panels", 1024, 128, 8, 4, 2, false, true},
		{"guards_Panels", 1023, 128, 8, 4, 2, true, false}, // thread 127, i = 4, j = 3
	} {
		grid, block := [3]int{tc.grid, 1, 1}, [3]int{64, 1, 1}
		f := funcNamed(t, opt, tc.kernel)
		funcs := []*kir.Func{f}
		if g, facts, ok := kir.AssumeFacts(f); ok && factsHold(t, facts, linearArgs(tc.lenA, tc.ld, tc.p1, tc.p2, 64*tc.grid), grid, block) {
			funcs = append(funcs, g)
		}
		if tc.fast && len(funcs) != 2 {
			t.Errorf("%s %+v: the launch-facts variant did not run", tc.kernel, tc)
		}
		funcs = append(funcs, funcNamed(t, raw, tc.kernel))
		var outs [][]byte
		var trapsSeen []*kirexec.Trap
		for _, f := range funcs {
			args := linearArgs(tc.lenA, tc.ld, tc.p1, tc.p2, 64*tc.grid)
			trap, err := kirexec.Run(f, nil, grid, block, args)
			if err != nil {
				t.Fatalf("%s %+v: %v", f.Name, tc, err)
			}
			if got := trap != nil && trap.Code == gpuabi.TrapIndex; got != tc.wantTrap {
				t.Errorf("%s %+v: trap %+v, want an index trap: %v", f.Name, tc, trap, tc.wantTrap)
			}
			outs, trapsSeen = append(outs, args[5].Buf.Data), append(trapsSeen, trap)
		}
		last := len(funcs) - 1
		for i := range last {
			if !tc.wantTrap && !bytes.Equal(outs[i], outs[last]) {
				t.Errorf("%s %+v: %s's result differs from -O0's", tc.kernel, tc, funcs[i].Name)
			}
			if a, b := trapsSeen[i], trapsSeen[last]; tc.wantTrap && a != nil && b != nil && *a != *b {
				t.Errorf("%s %+v: %s traps %+v, -O0 %+v", tc.kernel, tc, funcs[i].Name, *a, *b)
			}
		}
	}
}

// linearArgs are a (lenA small integers), three int parameters and out
// (one float32 per thread) for Columns and Panels.
func linearArgs(lenA int, ld, p1, p2 int64, threads int) []kirexec.Arg {
	a := &kirexec.Buffer{Data: make([]byte, 4*lenA)}
	for i := range lenA {
		binary.LittleEndian.PutUint32(a.Data[4*i:], math.Float32bits(float32(i%5)))
	}
	out := &kirexec.Buffer{Data: make([]byte, 4*threads)}
	return []kirexec.Arg{{Buf: a}, {Bits: uint64(lenA)}, {Bits: uint64(ld)}, {Bits: uint64(p1)}, {Bits: uint64(p2)},
		{Buf: out}, {Bits: uint64(threads)}}
}

// loopChecks counts f's loops, and those with no index check.
func loopChecks(f *kir.Func) (all, unchecked int) {
	loops := kir.NaturalLoops(f, kir.Dominators(f))
	for _, l := range loops {
		checked := false
		for b := range l.Blocks {
			for _, s := range b.Succs {
				checked = checked || s.Term == kir.TermTrap && s.Trap.Code == gpuabi.TrapIndex
			}
		}
		if !checked {
			unchecked++
		}
	}
	return len(loops), unchecked
}
