package kir_test

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// checkedSum builds s := 0; for i := init; i cmp bound (signed, in the
// counter's type); i = i stepOp step { s += x[k]*x[k] with k counting the trips
// and x[k] checked against m }; x[0] = s, over int32 elements: a loop
// with a constant trip count, a bounds check and a load per iteration.
func checkedSum(counter Type, init uint64, stepOp Op, step uint64, cmp Op, bound uint64) *Func {
	b := newFB(append(out1, Param{Name: "m", Type: TI64})...)
	p := b.param(0, PtrTo(Global))
	m := b.param(2, TI64)
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	ok := b.f.NewBlock(BlockPlain, "checked")
	trap := b.f.NewBlock(BlockPlain, "trap")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	start, zero, zero32 := b.c(counter, init), b.c(TI64, 0), b.c(TI32, 0)
	b.cur.Jump(head)
	b.cur = head
	i := b.f.NewPhi(head, counter)
	k := b.f.NewPhi(head, TI64)
	s := b.f.NewPhi(head, TI32)
	head.Branch(b.v(cmp, TBool, i, b.c(counter, bound)), body, done)
	b.cur = body
	body.Branch(b.v(OpLt, TBool, b.v(OpBitcast, TU64, k), b.v(OpBitcast, TU64, m)), ok, trap)
	trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: 1, Args: [2]*Value{k, m}})
	b.cur = ok
	x := b.v(OpLoad, TI32, b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, k, b.c(TI64, 4))))
	s1 := b.v(OpAdd, TI32, s, b.v(OpMul, TI32, x, x))
	stepType := counter
	if stepOp == OpShl || stepOp == OpShr {
		stepType = TU64 // a shift's count is unsigned
	}
	i1 := b.v(stepOp, counter, i, b.c(stepType, step))
	k1 := b.v(OpAdd, TI64, k, b.c(TI64, 1))
	ok.Jump(head)
	i.Args = []*Value{start, i1}
	k.Args = []*Value{zero, k1}
	s.Args = []*Value{zero32, s1}
	b.cur = done
	b.v(OpStore, Type{}, p, s)
	done.Return()
	return b.f
}

// runChecked runs f on 16 int32 elements with the check's length m and
// returns the output and the trap.
func runChecked(t *testing.T, f *Func, m int) ([]byte, *kirexec.Trap) {
	t.Helper()
	data := make([]byte, 4*16)
	for i := range 16 {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(3*i+1))
	}
	buf := &kirexec.Buffer{Name: "x", Data: data}
	trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: uint64(len(data))}, {Bits: uint64(m)}})
	if err != nil {
		t.Fatalf("m=%d: %v\n%s", m, err, Format(f))
	}
	return data, trap
}

// TestUnrollPartial: a 12-trip loop is unrolled by 4 (8 does not divide
// 12): four loads per test of the counter, the counter stepped by one
// addition of 4, and the same sums and the same traps, at the same
// element, as before.
func TestUnrollPartial(t *testing.T) {
	f := checkedSum(TI64, 0, OpAdd, 1, OpLt, 12)
	verify(t, f)
	if n := UnrollPartial(f); n != 1 {
		t.Fatalf("UnrollPartial = %d, want 1\n%s", n, Format(f))
	}
	verify(t, f)
	if got := count(f, OpLoad); got != 4 {
		t.Errorf("%d loads after unrolling, want 4\n%s", got, Format(f))
	}
	loops := NaturalLoops(f, Dominators(f))
	if len(loops) != 1 {
		t.Fatalf("%d loops after unrolling, want 1", len(loops))
	}
	iv := loops[0].Header.Phis()[0]
	if next := iv.Args[1]; next.Op != OpAdd || next.Args[0] != iv || next.Args[1].Op != OpConst || next.Args[1].Imm != 4 {
		t.Errorf("the counter steps by %s = %s, want one addition of 4\n%s", next, next.Op, Format(f))
	}
	for _, m := range []int{16, 12, 5, 0} {
		wantOut, wantTrap := runChecked(t, checkedSum(TI64, 0, OpAdd, 1, OpLt, 12), m)
		gotOut, gotTrap := runChecked(t, f, m)
		if string(gotOut) != string(wantOut) || !reflect.DeepEqual(gotTrap, wantTrap) {
			t.Errorf("m=%d: output %x trap %+v, want %x trap %+v", m, gotOut, gotTrap, wantOut, wantTrap)
		}
	}
}

// TestUnrollPartialWrapsAround: an int8 counter from 0 stepping by 16
// while not negative runs 8 times (112+16 wraps to -128); unrolled by 4, the
// group's step of 64 wraps alike.
func TestUnrollPartialWrapsAround(t *testing.T) {
	i8 := Type{Kind: I8}
	f := checkedSum(i8, 0, OpAdd, 16, OpGe, 0)
	if UnrollPartial(f) != 1 {
		t.Fatalf("not unrolled\n%s", Format(f))
	}
	verify(t, f)
	want, _ := runChecked(t, checkedSum(i8, 0, OpAdd, 16, OpGe, 0), 16)
	got, trap := runChecked(t, f, 16)
	if string(got) != string(want) || trap != nil {
		t.Errorf("output %x trap %+v, want %x", got, trap, want)
	}
	var sum uint32
	for k := range 8 {
		sum += uint32((3*k + 1) * (3*k + 1))
	}
	if s := binary.LittleEndian.Uint32(got); s != sum {
		t.Errorf("sum %d, want %d (8 trips)", s, sum)
	}
}

// A 16-trip loop of the same body is unrolled by 8, the largest factor;
// a loop whose trip count no factor divides (7) stays as it is.
func TestUnrollPartialFactors(t *testing.T) {
	f := checkedSum(TI64, 0, OpAdd, 1, OpLt, 16)
	if UnrollPartial(f) != 1 || count(f, OpLoad) != 8 {
		t.Errorf("want the 16-trip loop unrolled by 8:\n%s", Format(f))
	}
	f = checkedSum(TI64, 0, OpAdd, 1, OpLt, 7)
	if UnrollPartial(f) != 0 {
		t.Errorf("a 7-trip loop was unrolled\n%s", Format(f))
	}
}

// TestUnrollPartialShiftStep: for i := 128; i > 0; i >>= 1 runs 8 times;
// unrolled by 4 its counter steps by one shift of 4, so the loop is still
// counted (PollLoops gives it no poll), and the sum is the same.
func TestUnrollPartialShiftStep(t *testing.T) {
	f := checkedSum(TI64, 128, OpShr, 1, OpGt, 0)
	if UnrollPartial(f) != 1 {
		t.Fatalf("not unrolled\n%s", Format(f))
	}
	verify(t, f)
	iv := NaturalLoops(f, Dominators(f))[0].Header.Phis()[0]
	if next := iv.Args[1]; next.Op != OpShr || next.Args[0] != iv || next.Args[1].Imm != 4 {
		t.Errorf("the counter steps by %s = %s, want one shift by 4\n%s", next, next.Op, Format(f))
	}
	want, _ := runChecked(t, checkedSum(TI64, 128, OpShr, 1, OpGt, 0), 16)
	if got, trap := runChecked(t, f, 16); string(got) != string(want) || trap != nil {
		t.Errorf("output %x trap %+v, want %x", got, trap, want)
	}
	if PollLoops(f) != 0 {
		t.Errorf("the unrolled loop polls: not counted\n%s", Format(f))
	}
}
