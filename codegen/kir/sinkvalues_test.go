package kir_test

import (
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
)

// TestSinkValues: a computation only the false arm of a branch uses moves
// into that arm, one only a phi's argument from the true arm uses into
// that arm; one both arms use and a load stay.
func TestSinkValues(t *testing.T) {
	build := func() (*Func, [4]*Value) {
		b := newFB(append(out1, Param{Name: "i", Type: TI64})...)
		p := b.param(0, PtrTo(Global))
		n := b.param(1, TI64)
		i := b.param(2, TI64)
		slow := b.v(OpMul, TI64, b.v(OpAdd, TI64, i, b.c(TI64, 3)), n) // only the else arm
		both := b.v(OpSub, TI64, i, n)                                 // both arms
		joined := b.v(OpAdd, TI64, i, i)                               // a phi after the join, from the true arm
		ld := b.v(OpLoad, Type{Kind: U8}, p)                           // only the else arm, but a load
		then := b.f.NewBlock(BlockIfThen, "if.then")
		els := b.f.NewBlock(BlockIfElse, "if.else")
		done := b.f.NewBlock(BlockIfDone, "if.done")
		b.cur.Branch(b.v(OpLt, TBool, i, n), then, els)
		b.cur = then
		b.v(OpStore, Type{}, p, b.v(OpConvert, Type{Kind: U8}, both))
		then.Jump(done)
		b.cur = els
		b.v(OpStore, Type{}, p, b.v(OpAdd, Type{Kind: U8}, ld, b.v(OpConvert, Type{Kind: U8}, b.v(OpAdd, TI64, slow, both))))
		els.Jump(done)
		b.cur = done
		phi := b.f.NewPhi(done, TI64)
		phi.Args = []*Value{joined, i}
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 1)), b.v(OpConvert, Type{Kind: U8}, phi))
		done.Return()
		return b.f, [4]*Value{slow, both, joined, ld}
	}
	f, vs := build()
	verify(t, f)
	if n := SinkValues(f); n != 4 { // slow, its i+3, the constant 3, and joined
		t.Errorf("SinkValues moved %d values, want 4\n%s", n, Format(f))
	}
	verify(t, f)
	if vs[0].Block.Comment != "if.else" || vs[2].Block.Comment != "if.then" {
		t.Errorf("the else arm's computation is in %s, the phi's in %s\n%s", vs[0].Block.Comment, vs[2].Block.Comment, Format(f))
	}
	for _, v := range []*Value{vs[1], vs[3]} {
		if v.Block != f.Blocks[0] {
			t.Errorf("%v moved to %s\n%s", v, v.Block.Comment, Format(f))
		}
	}
	for _, i := range []uint64{0, 1, 5, 9} {
		var got, want []byte
		for k, g := range []*Func{build0(build), f} {
			buf := &kirexec.Buffer{Name: "x", Data: []byte{7, 7, 7, 7}}
			if _, err := kirexec.Run(g, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 4}, {Bits: i}}); err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				want = buf.Data
			} else {
				got = buf.Data
			}
		}
		if string(got) != string(want) {
			t.Errorf("i=%d: stored %v, want %v", i, got, want)
		}
	}
}

func build0(build func() (*Func, [4]*Value)) *Func { f, _ := build(); return f }
