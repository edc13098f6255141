package kir_test

import (
	"testing"

	. "github.com/gpukvet/gpukvet/codegen/kir"
)

// TestHoistInvariantsWithLoopConstants: n*64 is invariant although its
// constant was made inside the loop (later passes make constants next to
// their uses, as the shared-tile addresses row*64 of a stencil's loop
// are); it moves to the preheader with a copy of the constant, while
// i+64, which is not invariant, keeps the constant it shares.
func TestHoistInvariantsWithLoopConstants(t *testing.T) {
	b := newFB(append(out1, Param{Name: "n", Type: TI64})...)
	p := b.param(0, PtrTo(Global))
	n := b.param(2, TI64)
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	zero := b.c(TI64, 0)
	b.cur.Jump(head)
	b.cur = head
	i := b.f.NewPhi(head, TI64)
	head.Branch(b.v(OpLt, TBool, i, n), body, done)
	b.cur = body
	c64 := b.c(TI64, 64)
	inv := b.v(OpMul, TI64, n, c64)
	b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, inv), i)
	i1 := b.v(OpAdd, TI64, i, c64)
	body.Jump(head)
	i.Args = []*Value{zero, i1}
	b.cur = done
	done.Return()
	verify(t, b.f)
	if HoistInvariants(b.f) == 0 {
		t.Fatalf("nothing hoisted\n%s", Format(b.f))
	}
	verify(t, b.f)
	if inv.Block != b.f.Blocks[0] || inv.Args[1].Block != b.f.Blocks[0] || inv.Args[1].Int() != 64 {
		t.Errorf("n*64 in b%d, its constant %v in b%d\n%s", inv.Block.Index, inv.Args[1], inv.Args[1].Block.Index, Format(b.f))
	}
	if i1.Block != body || i1.Args[1] != c64 || c64.Block != body {
		t.Errorf("i+64 or its constant moved\n%s", Format(b.f))
	}
}
