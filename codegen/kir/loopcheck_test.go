package kir_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// loopKernel is the shape of a counted loop for the LoopChecks and
// StrengthReduce tests:
//
//	for i := lo; i < hi; i += step { out[0] += in[a*i+c] }
//
// with variations that LoopChecks must refuse or handle.
type loopKernel struct {
	a, step   int64
	i32       bool // i is an int32, widened for the index
	nonAffine bool // the index is i*i+c
	varStep   bool // i += in[idx]|1: not a basic induction variable
	guarded   bool // the access runs only when i is even
	earlyExit bool // the loop returns when it reads a 7
	barrier   bool // the body holds a barrier
	threadLo  bool // lo is lo+tid.x: not uniform
	scaled    bool // the index is a*(i+c)*rows with rows a parameter
}

func (k loopKernel) build() *Func {
	b := newFB(Param{Name: "in_ptr", Type: PtrTo(Global)}, Param{Name: "in_len", Type: TI64, Len: true},
		Param{Name: "out_ptr", Type: PtrTo(Global)}, Param{Name: "out_len", Type: TI64, Len: true},
		Param{Name: "lo", Type: TI64}, Param{Name: "hi", Type: TI64}, Param{Name: "c", Type: TI64}, Param{Name: "rows", Type: TI64})
	in, n, out := b.param(0, PtrTo(Global)), b.param(1, TI64), b.param(2, PtrTo(Global))
	lo, hi, c, rows := b.param(4, TI64), b.param(5, TI64), b.param(6, TI64), b.param(7, TI64)
	if k.threadLo {
		tid := b.v(OpSpecial, TU32)
		tid.Index = ThreadIdxX
		lo = b.v(OpAdd, TI64, lo, b.v(OpConvert, TI64, tid))
	}
	it := TI64
	if k.i32 {
		it = Type{Kind: I32}
		lo, hi = b.v(OpConvert, it, lo), b.v(OpConvert, it, hi)
	}
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	chk := b.f.NewBlock(BlockPlain, "check")
	ok := b.f.NewBlock(BlockPlain, "checked")
	trap := b.f.NewBlock(BlockPlain, "trap")
	latch := b.f.NewBlock(BlockPlain, "latch")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	b.cur.Jump(head)
	b.cur = head
	i := b.f.NewPhi(head, it)
	head.Branch(b.v(OpLt, TBool, i, hi), body, done)
	b.cur = body
	wi := i
	if k.i32 {
		wi = b.v(OpConvert, TI64, i)
	}
	var idx *Value
	switch {
	case k.nonAffine:
		idx = b.v(OpAdd, TI64, b.v(OpMul, TI64, wi, wi), c)
	case k.scaled:
		idx = b.v(OpMul, TI64, b.v(OpMul, TI64, b.v(OpAdd, TI64, wi, c), b.c(TI64, uint64(k.a))), rows)
	default:
		idx = b.v(OpAdd, TI64, b.v(OpMul, TI64, wi, b.c(TI64, uint64(k.a))), c)
	}
	if k.barrier {
		b.v(OpBarrier, Type{})
	}
	if k.guarded {
		even := b.v(OpEq, TBool, b.v(OpAnd, it, i, b.c(it, 1)), b.c(it, 0))
		body.Branch(even, chk, latch)
	} else {
		body.Jump(chk)
	}
	b.cur = chk
	chk.Branch(b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, n)), ok, trap)
	trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: 1, Args: [2]*Value{idx, n}})
	b.cur = ok
	x := b.v(OpLoad, Type{Kind: U8}, b.v(OpPtrAdd, PtrTo(Global), in, idx))
	o := b.v(OpLoad, Type{Kind: U8}, out)
	b.v(OpStore, Type{}, out, b.v(OpAdd, Type{Kind: U8}, o, x))
	if k.earlyExit {
		ret := b.f.NewBlock(BlockPlain, "return")
		ok.Branch(b.v(OpEq, TBool, x, b.c(Type{Kind: U8}, 7)), ret, latch)
		ret.Return()
	} else {
		ok.Jump(latch)
	}
	b.cur = latch
	step := b.c(it, uint64(k.step))
	if k.varStep {
		step = b.v(OpConvert, it, b.v(OpOr, Type{Kind: U8}, x, b.c(Type{Kind: U8}, 1)))
	}
	i1 := b.v(OpAdd, it, i, step)
	latch.Jump(head)
	i.Args = []*Value{lo, i1}
	b.cur = done
	done.Return()
	return b.f
}

// equivalent runs want and got over extreme bounds, offsets and lengths:
// the same bytes stored, the same trap (code and position) or none.
func equivalent(t *testing.T, name string, want, got *Func) (fastRuns int) {
	t.Helper()
	exec := func(g *Func, lo, hi, c, rows int64, n int) (string, *kirexec.Trap, error) {
		in := &kirexec.Buffer{Name: "in", Data: make([]byte, n)}
		for i := range in.Data {
			in.Data[i] = byte(3*i + 1)
		}
		out := &kirexec.Buffer{Name: "out", Data: []byte{0}}
		trap, err := kirexec.Run(g, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: in}, {Bits: uint64(n)},
			{Buf: out}, {Bits: 1}, {Bits: uint64(lo)}, {Bits: uint64(hi)}, {Bits: uint64(c)}, {Bits: uint64(rows)}})
		return string(out.Data), trap, err
	}
	ext := []int64{0, 1, 3, 10, -1, -3, 1 << 31, 1<<31 - 2, 1 << 40, 1<<40 + 1, math.MaxInt64, math.MaxInt64 - 1, math.MinInt64}
	for _, lo := range ext {
		for _, hi := range ext {
			for _, c := range []int64{0, 2, -2, 1 << 41, math.MinInt64, math.MaxInt64} {
				for _, rows := range []int64{1, 3, -1} {
					for _, n := range []int{0, 7, 40} {
						wd, wt, werr := exec(want, lo, hi, c, rows, n)
						gd, gt, gerr := exec(got, lo, hi, c, rows, n)
						if werr != nil {
							continue // the original does not end (a loop of 2^63 steps)
						}
						if gerr != nil || wd != gd || (wt == nil) != (gt == nil) || (wt != nil && (wt.Code != gt.Code || wt.Pos != gt.Pos)) {
							t.Fatalf("%s: lo=%d hi=%d c=%d rows=%d n=%d: got %x %+v %v, want %x %+v\n%s", name, lo, hi, c, rows, n, gd, gt, gerr, wd, wt, Format(got))
						}
						if wt == nil && wd != "\x00" {
							fastRuns++
						}
					}
				}
			}
		}
	}
	return fastRuns
}

func TestLoopChecks(t *testing.T) {
	for _, tc := range []struct {
		k    loopKernel
		want int
	}{
		{loopKernel{a: 1, step: 1}, 1},
		{loopKernel{a: 3, step: 2}, 1},
		{loopKernel{a: -2, step: 1}, 1},
		{loopKernel{a: 1, step: 1, i32: true}, 1},
		{loopKernel{a: 2, step: 3, i32: true}, 1},
		{loopKernel{a: 1, step: 1, barrier: true}, 1},
		{loopKernel{a: 2, step: 1, scaled: true}, 1}, // rows*i: uniform tests of its extremes (guardloop.go)
		{loopKernel{a: 1, step: 1, nonAffine: true}, 0},
		{loopKernel{a: 1, step: 1, varStep: true}, 0},
		{loopKernel{a: 1, step: 1, guarded: true}, 0},
		{loopKernel{a: 1, step: 1, earlyExit: true}, 0},
		{loopKernel{a: 1, step: 1, barrier: true, threadLo: true}, 0},
		{loopKernel{a: 1 << 20, step: 1}, 1}, // a coefficient past 2^16: uniform tests (guardloop.go)
		// (i+c)*2*rows from a thread's own start: a coefficient that is
		// not a constant, tests that read thread values (looplinear.go).
		{loopKernel{a: 2, step: 1, scaled: true, threadLo: true}, 1},
		{loopKernel{a: -3, step: 2, scaled: true, threadLo: true, i32: true}, 1},
		{loopKernel{a: 2, step: 1, scaled: true, threadLo: true, barrier: true}, 0},
	} {
		name := fmt.Sprintf("%+v", tc.k)
		f := tc.k.build()
		verify(t, f)
		if got := LoopChecks(f); got != tc.want {
			t.Errorf("%s: LoopChecks = %d, want %d\n%s", name, got, tc.want, Format(f))
			continue
		}
		verify(t, f)
		if tc.want > 0 {
			// The fast copy has no check left: one trap block remains.
			traps := 0
			for _, b := range f.Blocks {
				if b.Term == TermTrap {
					traps++
				}
			}
			if traps != 1 {
				t.Errorf("%s: %d trap blocks, want 1\n%s", name, traps, Format(f))
			}
		}
		if fast := equivalent(t, name, tc.k.build(), f); fast == 0 {
			t.Errorf("%s: no run read anything", name)
		}
	}
}

func TestStrengthReduce(t *testing.T) {
	for _, tc := range []struct {
		k    loopKernel
		want int
	}{
		{loopKernel{a: 2, step: 1, scaled: true}, 1},
		{loopKernel{a: 3, step: 2, scaled: true, i32: true}, 0}, // through a sign extension
		{loopKernel{a: 5, step: 3, scaled: true, earlyExit: true}, 1},
		{loopKernel{a: 5, step: 1, scaled: true, guarded: true, barrier: true}, 1},
		{loopKernel{a: 3, step: 1, nonAffine: true}, 0},
		{loopKernel{a: 3, step: 1, scaled: true, varStep: true}, 0},
	} {
		name := fmt.Sprintf("%+v", tc.k)
		f := tc.k.build()
		if got := StrengthReduce(f); got != tc.want {
			t.Errorf("%s: StrengthReduce = %d, want %d\n%s", name, got, tc.want, Format(f))
			continue
		}
		verify(t, f)
		if tc.want > 0 {
			// The multiplications moved to the preheader: none is left
			// in the loop.
			for _, b := range f.Blocks {
				if b.Comment == "entry" {
					continue
				}
				for _, v := range b.Values {
					if v.Op == OpMul {
						t.Errorf("%s: %v still multiplies in %s\n%s", name, v, b.Comment, Format(f))
					}
				}
			}
		}
		if fast := equivalent(t, name, tc.k.build(), f); fast == 0 {
			t.Errorf("%s: no run read anything", name)
		}
	}
}
