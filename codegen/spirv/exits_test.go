package spirv

import (
	"testing"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// twoExitLoops builds, by hand, an inner loop that leaves to two places
// (the outer loop's latch and, by a labeled break, the code after the
// outer loop) with values defined on one exit path and used after the
// other's join:
//
//	for i := 0; i < 10; i++ {
//		for j := 0; ; j++ {
//			s := i + j
//			if s == x { r = s + 1; goto done }   // break outer
//			t := j * 2
//			if !(j < 5) { u = t + 1; break }     // to the outer latch
//		}
//	}
//	r = i
//	done:
func twoExitLoops() *kir.Func {
	f := &kir.Func{Name: "k"}
	b := make([]*kir.Block, 9)
	for i := range b {
		b[i] = f.NewBlock(kir.BlockPlain, "")
	}
	c := func(blk *kir.Block, n uint64) *kir.Value {
		v := f.NewValue(blk, kir.OpConst, kir.TI32)
		v.Imm = n
		return v
	}
	x := f.NewValue(b[0], kir.OpParam, kir.TI32)
	zero, one, two, five, ten := c(b[0], 0), c(b[0], 1), c(b[0], 2), c(b[0], 5), c(b[0], 10)
	b[0].Jump(b[1])
	i := f.NewPhi(b[1], kir.TI32)
	b[1].Branch(f.NewValue(b[1], kir.OpLt, kir.TBool, i, ten), b[2], b[7])
	b[2].Jump(b[3])
	j := f.NewPhi(b[3], kir.TI32)
	s := f.NewValue(b[3], kir.OpAdd, kir.TI32, i, j)
	b[3].Branch(f.NewValue(b[3], kir.OpEq, kir.TBool, s, x), b[8], b[4])
	t := f.NewValue(b[4], kir.OpMul, kir.TI32, j, two)
	b[4].Branch(f.NewValue(b[4], kir.OpLt, kir.TBool, j, five), b[5], b[6])
	j1 := f.NewValue(b[5], kir.OpAdd, kir.TI32, j, one)
	b[5].Jump(b[3])
	u := f.NewValue(b[6], kir.OpAdd, kir.TI32, t, one)
	i1 := f.NewValue(b[6], kir.OpAdd, kir.TI32, i, u)
	b[6].Jump(b[1])
	v := f.NewValue(b[8], kir.OpAdd, kir.TI32, s, one)
	b[8].Jump(b[7])
	r := f.NewPhi(b[7], kir.TI32)
	f.NewValue(b[7], kir.OpAdd, kir.TI32, r, x)
	b[7].Return()
	i.Args = []*kir.Value{zero, i1}
	j.Args = []*kir.Value{zero, j1}
	r.Args = []*kir.Value{i, v} // preds b1, b8
	return f
}

// TestSingleExitLoops checks the rerouting of a loop's exits on IR built
// by hand: afterwards every loop has one exit that goes on, the IR is
// valid (kir.Verify: every use dominated by its definition, phis matching
// predecessors) and the plan is made.
func TestSingleExitLoops(t *testing.T) {
	f := twoExitLoops()
	if err := kir.Verify(f); err != nil {
		t.Fatalf("the test's IR: %v", err)
	}
	loops, _, _, _ := analyze(f)
	live := 0
	for _, l := range loops {
		live = max(live, len(liveExits(f, l)))
	}
	if live != 2 {
		t.Fatalf("want a loop with 2 live exits before, got at most %d", live)
	}
	singleExitLoops(f)
	repairSSA(f)
	if err := kir.Verify(f); err != nil {
		t.Fatalf("after rerouting: %v\n%s", err, kir.Format(f))
	}
	loops, _, _, reducible := analyze(f)
	if !reducible {
		t.Fatalf("rerouting made the graph irreducible:\n%s", kir.Format(f))
	}
	for _, l := range loops {
		if n := len(liveExits(f, l)); n > 1 {
			t.Errorf("loop at b%d still leaves to %d places:\n%s", l.Header.Index, n, kir.Format(f))
		}
	}
	if _, err := structurize(twoExitLoops()); err != nil {
		t.Errorf("structurize: %v", err)
	}
}
