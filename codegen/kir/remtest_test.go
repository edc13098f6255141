package kir_test

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
)

// TestMaskRemainderTests: x%16 != 0 and x%8 == 0 of a signed x become
// tests of x's low bits, which agree with the remainders' for negative x
// too; x%12 (not a power of two) and the remainder a store uses stay.
func TestMaskRemainderTests(t *testing.T) {
	build := func() *Func {
		b := newFB(append(out1, Param{Name: "x", Type: TI64})...)
		p, x := b.param(0, PtrTo(Global)), b.param(2, TI64)
		zero := b.c(TI64, 0)
		put := func(off uint64, c *Value) {
			v := b.v(OpSelect, Type{Kind: U8}, c, b.c(Type{Kind: U8}, 1), b.c(Type{Kind: U8}, 0))
			b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, off)), v)
		}
		put(0, b.v(OpNe, TBool, b.v(OpRem, TI64, x, b.c(TI64, 16)), zero))
		r8 := b.v(OpRem, TI64, x, b.c(TI64, 8))
		put(1, b.v(OpEq, TBool, r8, zero))
		put(2, b.v(OpEq, TBool, b.v(OpRem, TI64, x, b.c(TI64, 12)), zero))
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 3)), b.v(OpConvert, Type{Kind: I8}, r8))
		b.cur.Return()
		return b.f
	}
	exec := func(f *Func, x int64) string {
		buf := &kirexec.Buffer{Name: "out", Data: make([]byte, 4)}
		if trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 4}, {Bits: uint64(x)}}); err != nil || trap != nil {
			t.Fatalf("x=%d: trap %v, error %v\n%s", x, trap, err, Format(f))
		}
		return string(buf.Data)
	}
	f := build()
	if n := MaskRemainderTests(f); n != 2 {
		t.Fatalf("MaskRemainderTests = %d, want 2\n%s", n, Format(f))
	}
	verify(t, f)
	DeadCode(f)
	if n := count(f, OpRem); n != 2 {
		t.Errorf("%d remainders left, want 2 (x%%12 and the stored x%%8)\n%s", n, Format(f))
	}
	for _, x := range []int64{0, 5, 8, 16, -8, -16, -17, 24, 1 << 62, math.MinInt64, math.MaxInt64} {
		if got, want := exec(f, x), exec(build(), x); got != want {
			t.Errorf("x=%d: got %x, want %x", x, got, want)
		}
	}
}
