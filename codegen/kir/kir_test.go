package kir

import (
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// loopFunc builds
//
//	b0: i0 = 0; jump b1
//	b1: i = phi(i0, i1); branch i < n, b2, b3
//	b2: i1 = i + 1; jump b1
//	b3: return
func loopFunc() (*Func, *Value) {
	f := &Func{Name: "loop", Params: []Param{{Name: "n", Type: TI64}}}
	b0 := f.NewBlock(BlockPlain, "entry")
	b1 := f.NewBlock(BlockLoopHeader, "for.loop")
	b2 := f.NewBlock(BlockLoopBody, "for.body")
	b3 := f.NewBlock(BlockLoopDone, "for.done")
	n := f.NewValue(b0, OpParam, TI64)
	zero := f.NewValue(b0, OpConst, TI64)
	b0.Jump(b1)
	i := f.NewPhi(b1, TI64)
	lt := f.NewValue(b1, OpLt, TBool, i, n)
	b1.Branch(lt, b2, b3)
	one := f.NewValue(b2, OpConst, TI64)
	one.Imm = 1
	next := f.NewValue(b2, OpAdd, TI64, i, one)
	b2.Jump(b1)
	i.Args = []*Value{zero, next}
	b3.Return()
	return f, i
}

func TestVerifyAcceptsLoop(t *testing.T) {
	f, _ := loopFunc()
	if err := Verify(f); err != nil {
		t.Fatalf("Verify: %v\n%s", err, Format(f))
	}
}

func TestVerifyRejects(t *testing.T) {
	for name, break_ := range map[string]func(f *Func, i *Value){
		"phi arity":     func(f *Func, i *Value) { i.Args = i.Args[:1] },
		"unterminated":  func(f *Func, i *Value) { f.Blocks[3].Term = TermNone },
		"type mismatch": func(f *Func, i *Value) { f.Blocks[2].Values[1].Args[1].Type = TI32 },
		"use before def": func(f *Func, i *Value) {
			b0 := f.Blocks[0]
			b0.Values[1].Op, b0.Values[1].Args = OpAdd, []*Value{f.Blocks[2].Values[1], f.Blocks[2].Values[1]}
		},
	} {
		f, i := loopFunc()
		break_(f, i)
		if err := Verify(f); err == nil {
			t.Errorf("%s: Verify accepted\n%s", name, Format(f))
		}
	}
}

func TestAnalyzeLoop(t *testing.T) {
	f, _ := loopFunc()
	s := Analyze(f)
	if len(s.Loops) != 1 {
		t.Fatalf("%d loops, want 1", len(s.Loops))
	}
	l := s.Loops[0]
	if l.Header != f.Blocks[1] || len(l.Latches) != 1 || l.Latches[0] != f.Blocks[2] {
		t.Errorf("loop header b%d latches %v", l.Header.Index, l.Latches)
	}
	if len(l.Exits) != 1 || l.Exits[0] != f.Blocks[3] {
		t.Errorf("loop exits %v, want b3", l.Exits)
	}
	if m := s.Merge[f.Blocks[1]]; m != f.Blocks[3] {
		t.Errorf("merge of the header's branch is %v, want b3", m)
	}
}

func TestBoundsCheckElimination(t *testing.T) {
	// for i := 0; i < n; i++ { check u64(i) < u64(n) }: provable.
	if got := checkedLoop(t, false); got != 1 {
		t.Errorf("removed %d checks, want 1", got)
	}
	// for i := 0; i < n; i++ { check u64(i) < u64(m) }: not provable.
	if got := checkedLoop(t, true); got != 0 {
		t.Errorf("removed %d checks against another length, want 0", got)
	}
}

func checkedLoop(t *testing.T, otherLen bool) int {
	f, i := loopFunc()
	body := f.Blocks[2]
	n := f.Blocks[0].Values[0]
	if otherLen {
		f.Params = append(f.Params, Param{Name: "m", Type: TI64, Len: true})
		m := f.NewValue(f.Blocks[0], OpParam, TI64)
		m.Index = 1
		n = m
	}
	n.Index = 0
	f.Params[0].Len = true
	cont := f.NewBlock(BlockPlain, "checked")
	trap := f.NewBlock(BlockPlain, "trap")
	// Move the increment into cont and end body with the check.
	inc := body.Values
	body.Values = nil
	ui := f.NewValue(body, OpBitcast, TU64, i)
	un := f.NewValue(body, OpBitcast, TU64, n)
	ok := f.NewValue(body, OpLt, TBool, ui, un)
	body.Succs, f.Blocks[1].Preds = nil, f.Blocks[1].Preds[:1]
	body.Branch(ok, cont, trap)
	trap.TrapWith(Trap{Code: gpuabi.TrapIndex})
	for _, v := range inc {
		v.Block = cont
	}
	cont.Values = inc
	cont.Jump(f.Blocks[1])
	if err := Verify(f); err != nil {
		t.Fatalf("Verify: %v\n%s", err, Format(f))
	}
	got := EliminateBoundsChecks(f)
	if err := Verify(f); err != nil {
		t.Fatalf("Verify after: %v\n%s", err, Format(f))
	}
	if (got == 1) == strings.Contains(Format(f), "trap") {
		t.Errorf("removed %d checks but the listing says otherwise:\n%s", got, Format(f))
	}
	return got
}
