package kir_test

import (
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
)

// TestSelectBranches: `lo <= x && x <= hi` as a value (a helper's
// result: a branch, an arm computing x <= hi, a phi of false and it) and
// a clamp `if x < lo { y = lo - 1 }` become straight code, an and and a
// select, with the stores of the original for every input.
func TestSelectBranches(t *testing.T) {
	build := func() *Func {
		b := newFB(append(out1, Param{Name: "x", Type: TI64}, Param{Name: "lo", Type: TI64}, Param{Name: "hi", Type: TI64})...)
		p := b.param(0, PtrTo(Global))
		x, lo, hi := b.param(2, TI64), b.param(3, TI64), b.param(4, TI64)
		triangle := func(c *Value, onTrue bool, arm func() *Value, other *Value) *Value {
			a := b.cur
			rhs := b.f.NewBlock(BlockPlain, "binop.rhs")
			done := b.f.NewBlock(BlockPlain, "binop.done")
			if onTrue {
				a.Branch(c, rhs, done)
			} else {
				a.Branch(c, done, rhs)
			}
			b.cur = rhs
			y := arm()
			rhs.Jump(done)
			b.cur = done
			phi := b.v(OpPhi, y.Type)
			phi.Args = make([]*Value, 2)
			for i, q := range done.Preds {
				phi.Args[i] = other
				if q == rhs {
					phi.Args[i] = y
				}
			}
			return phi
		}
		in := triangle(b.v(OpGe, TBool, x, lo), true, func() *Value { return b.v(OpLe, TBool, x, hi) }, b.c(TBool, 0))
		out := triangle(b.v(OpLt, TBool, x, lo), false, func() *Value { return b.v(OpGt, TBool, x, hi) }, b.c(TBool, 1))
		y := triangle(b.v(OpLt, TBool, x, lo), true, func() *Value { return b.v(OpSub, TI64, lo, b.c(TI64, 1)) }, x)
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 0)), b.v(OpConvert, Type{Kind: U8}, in))
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 1)), b.v(OpConvert, Type{Kind: U8}, out))
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 2)), b.v(OpConvert, Type{Kind: U8}, y))
		b.cur.Return()
		return b.f
	}
	exec := func(f *Func, x, lo, hi int64) string {
		buf := &kirexec.Buffer{Name: "x", Data: []byte{9, 9, 9, 9}}
		trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 4}, {Bits: uint64(x)}, {Bits: uint64(lo)}, {Bits: uint64(hi)}})
		if err != nil || trap != nil {
			t.Fatalf("run: trap %v, error %v\n%s", trap, err, Format(f))
		}
		return string(buf.Data)
	}
	f := build()
	verify(t, f)
	if n := SelectBranches(f); n != 3 {
		t.Fatalf("SelectBranches = %d, want 3\n%s", n, Format(f))
	}
	MergeBlocks(f)
	verify(t, f)
	if len(f.Blocks) != 1 || count(f, OpPhi) != 0 || count(f, OpAnd) != 1 || count(f, OpOr) != 1 || count(f, OpSelect) != 1 {
		t.Errorf("want one block with an and, an or and a select, no phi\n%s", Format(f))
	}
	for _, c := range [][3]int64{{5, 1, 9}, {0, 1, 9}, {10, 1, 9}, {1, 1, 1}, {-3, -2, -1}} {
		if want, got := exec(build(), c[0], c[1], c[2]), exec(f, c[0], c[1], c[2]); got != want {
			t.Errorf("x=%d lo=%d hi=%d: stored %x, want %x", c[0], c[1], c[2], got, want)
		}
	}
}

// TestSelectBranchesKeepsLoads: an arm that loads stays a branch (the
// load could fault where the condition does not hold).
func TestSelectBranchesKeepsLoads(t *testing.T) {
	b := newFB(out1...)
	p := b.param(0, PtrTo(Global))
	n := b.param(1, TI64)
	rhs := b.f.NewBlock(BlockPlain, "rhs")
	done := b.f.NewBlock(BlockPlain, "done")
	b.cur.Branch(b.v(OpGt, TBool, n, b.c(TI64, 0)), rhs, done)
	b.cur = rhs
	x := b.v(OpLoad, Type{Kind: U8}, p)
	rhs.Jump(done)
	b.cur = done
	phi := b.v(OpPhi, x.Type)
	phi.Args = []*Value{b.c(Type{Kind: U8}, 0), x}
	if done.Preds[0] == rhs {
		phi.Args[0], phi.Args[1] = x, phi.Args[0]
	}
	b.v(OpStore, Type{}, p, phi)
	b.cur.Return()
	if k := SelectBranches(b.f); k != 0 {
		t.Errorf("SelectBranches = %d, want 0\n%s", k, Format(b.f))
	}
}

// TestSelectBranchesKeepsMixedPhis: a phi joining a global pointer and a
// generic nil (a pointer that may be nil) stays: a select's operands must
// have its type.
func TestSelectBranchesKeepsMixedPhis(t *testing.T) {
	b := newFB(out1...)
	p := b.param(0, PtrTo(Global))
	n := b.param(1, TI64)
	nilp := b.c(PtrTo(Generic), 0)
	rhs := b.f.NewBlock(BlockPlain, "rhs")
	done := b.f.NewBlock(BlockPlain, "done")
	b.cur.Branch(b.v(OpGt, TBool, n, b.c(TI64, 0)), rhs, done)
	b.cur = rhs
	q := b.v(OpPtrAdd, PtrTo(Global), p, n)
	rhs.Jump(done)
	b.cur = done
	phi := b.v(OpPhi, q.Type)
	phi.Args = []*Value{nilp, q}
	if done.Preds[0] == rhs {
		phi.Args[0], phi.Args[1] = q, nilp
	}
	b.v(OpStore, Type{}, b.v(OpConvert, PtrTo(Generic), phi), b.c(TI32, 1))
	b.cur.Return()
	if k := SelectBranches(b.f); k != 0 {
		t.Errorf("SelectBranches = %d, want 0\n%s", k, Format(b.f))
	}
}
