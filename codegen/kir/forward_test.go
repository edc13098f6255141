package kir_test

import (
	"encoding/binary"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
)

// accumulate builds, over int32 elements x of the output buffer,
// for j := 0; j < n; j++ { x[m] += x[j+1] } (no bounds checks), with the
// address of x[m] computed in the loop, as the lowering leaves it; with
// extra, the body also stores to x[j+1] (a second address).
func accumulate(extra bool) *Func {
	b := newFB(append(out1, Param{Name: "n", Type: TI64}, Param{Name: "m", Type: TI64})...)
	p := b.param(0, PtrTo(Global))
	n := b.param(2, TI64)
	m := b.param(3, TI64)
	four, one, zero := b.c(TI64, 4), b.c(TI64, 1), b.c(TI64, 0)
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	b.cur.Jump(head)
	b.cur = head
	j := b.f.NewPhi(head, TI64)
	head.Branch(b.v(OpLt, TBool, j, n), body, done)
	b.cur = body
	acc := b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, m, four))
	cur := b.v(OpLoad, TI32, acc)
	j1 := b.v(OpAdd, TI64, j, one)
	xj := b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, j1, four))
	xv := b.v(OpLoad, TI32, xj)
	b.v(OpStore, Type{}, acc, b.v(OpAdd, TI32, cur, xv))
	if extra {
		b.v(OpStore, Type{}, xj, b.v(OpAdd, TI32, xv, xv))
	}
	body.Jump(head)
	j.Args = []*Value{zero, j1}
	b.cur = done
	done.Return()
	return b.f
}

// runAccumulate runs f on 8 int32 elements 1, 2, ... with n and m.
func runAccumulate(t *testing.T, f *Func, n, m int) ([]byte, error) {
	t.Helper()
	data := make([]byte, 4*8)
	for i := range 8 {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(i+1))
	}
	buf := &kirexec.Buffer{Name: "x", Data: data}
	trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: uint64(len(data))}, {Bits: uint64(n)}, {Bits: uint64(m)}})
	if trap != nil {
		t.Fatalf("n=%d m=%d: trap %+v", n, m, trap)
	}
	return data, err
}

// TestForwardStoresAcrossLatch: x[m] is loaded once before the loop and
// carried in a phi; the sums are the same, and where the loop does not
// run (n = 0) x[m] is not read: with m out of the buffer, no fault.
func TestForwardStoresAcrossLatch(t *testing.T) {
	f := accumulate(false)
	verify(t, f)
	if n := ForwardStores(f); n != 1 {
		t.Fatalf("ForwardStores = %d, want 1\n%s", n, Format(f))
	}
	verify(t, f)
	loops := NaturalLoops(f, Dominators(f))
	if len(loops) != 1 {
		t.Fatalf("%d loops, want 1", len(loops))
	}
	for b := range loops[0].Blocks {
		for _, v := range b.Values {
			if v.Op == OpLoad && v.Args[0].Op == OpPtrAdd && v.Args[0].Args[1].Args[0].Op == OpParam && v.Args[0].Args[1].Args[0].Index == 3 {
				t.Errorf("x[m] is still loaded in the loop, in b%d\n%s", b.Index, Format(f))
			}
		}
	}
	for _, c := range [][2]int{{0, 0}, {1, 0}, {5, 0}, {6, 7}, {3, 2}} {
		want, _ := runAccumulate(t, accumulate(false), c[0], c[1])
		got, err := runAccumulate(t, f, c[0], c[1])
		if err != nil || string(got) != string(want) {
			t.Errorf("n=%d m=%d: %x (error %v), want %x", c[0], c[1], got, err, want)
		}
	}
	if _, err := runAccumulate(t, f, 0, 1000); err != nil {
		t.Errorf("n=0, m out of the buffer: %v; the loop that does not run must not load x[m]", err)
	}
}

// A loop that also stores to another address (which may be x[m]: m = 2
// makes x[j+1] and x[m] meet) keeps its load.
func TestForwardStoresKeepsAliasedLoads(t *testing.T) {
	f := accumulate(true)
	if n := ForwardStores(f); n != 0 {
		t.Errorf("ForwardStores = %d on a loop storing to two addresses, want 0\n%s", n, Format(f))
	}
}

// TestForwardStoresInBlock: a load of the address just stored reads the
// stored value; a store to another address or a barrier between them
// keeps the load.
func TestForwardStoresInBlock(t *testing.T) {
	build := func(between Op) *Func {
		b := newFB(out1...)
		p := b.param(0, PtrTo(Global))
		q := b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 4))
		b.v(OpStore, Type{}, p, b.c(TI32, 7))
		switch between {
		case OpStore:
			b.v(OpStore, Type{}, q, b.c(TI32, 9))
		case OpBarrier:
			b.v(OpBarrier, Type{})
		}
		b.v(OpStore, Type{}, q, b.v(OpAdd, TI32, b.v(OpLoad, TI32, p), b.c(TI32, 1)))
		b.cur.Return()
		return b.f
	}
	f := build(OpInvalid)
	if n := ForwardStores(f); n != 1 || count(f, OpLoad) != 0 {
		t.Errorf("ForwardStores = %d, want the load replaced\n%s", n, Format(f))
	}
	verify(t, f)
	for _, op := range []Op{OpStore, OpBarrier} {
		f := build(op)
		if n := ForwardStores(f); n != 0 {
			t.Errorf("with a %s between: ForwardStores = %d, want 0", op, n)
		}
	}
}
