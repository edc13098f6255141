package kir_test

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// stencil builds a kernel that reads in[c+o] for each offset o of offs (a
// constant, or ±nx, ±plane: the parameters), each access checked as the
// lowering checks it, and stores the sum of the bytes read to out[0].
func stencil(offs []string) *Func {
	b := newFB(Param{Name: "in_ptr", Type: PtrTo(Global)}, Param{Name: "in_len", Type: TI64, Len: true},
		Param{Name: "out_ptr", Type: PtrTo(Global)}, Param{Name: "out_len", Type: TI64, Len: true},
		Param{Name: "nx", Type: TI64}, Param{Name: "c", Type: TI64}, Param{Name: "plane", Type: TI64})
	in := b.param(0, PtrTo(Global))
	n := b.param(1, TI64)
	out := b.param(2, PtrTo(Global))
	nx, c, plane := b.param(4, TI64), b.param(5, TI64), b.param(6, TI64)
	var sum *Value
	for pos, o := range offs {
		var idx *Value
		switch o {
		case "-nx":
			idx = b.v(OpSub, TI64, c, nx)
		case "+nx":
			idx = b.v(OpAdd, TI64, c, nx)
		case "-plane":
			idx = b.v(OpSub, TI64, c, plane)
		case "+plane":
			idx = b.v(OpAdd, TI64, c, plane)
		case "-1":
			idx = b.v(OpSub, TI64, c, b.c(TI64, 1))
		case "+1":
			idx = b.v(OpAdd, TI64, c, b.c(TI64, 1))
		case "+2":
			idx = b.v(OpAdd, TI64, c, b.c(TI64, 2))
		default:
			idx = c
		}
		ok := b.f.NewBlock(BlockPlain, "checked")
		trap := b.f.NewBlock(BlockPlain, "trap")
		cond := b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, n))
		b.cur.Branch(cond, ok, trap)
		trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: pos + 1, Args: [2]*Value{idx, n}})
		b.cur = ok
		x := b.v(OpLoad, Type{Kind: U8}, b.v(OpPtrAdd, PtrTo(Global), in, idx))
		if sum == nil {
			sum = x
		} else {
			sum = b.v(OpAdd, Type{Kind: U8}, sum, x)
		}
	}
	b.v(OpStore, Type{}, out, sum)
	b.cur.Return()
	return b.f
}

// TestRangeChecks: a 2-D and a 3-D stencil's checks reduce to the
// smallest and largest index plus runtime facts about the strides; for
// strides and centres of every sign and size (zero, negative, huge,
// wrapping) the kernel stores and traps (code and position: the first
// failing check) exactly as the unoptimized one does.
func TestRangeChecks(t *testing.T) {
	for _, tc := range []struct {
		offs    []string
		after   int // comparisons of indices left on the fast path
		uniform int // comparisons of uniform values with a constant
	}{
		{[]string{"0", "-1", "+1", "-nx", "+nx"}, 2, 1},
		// nx-1, plane-1 and plane-nx below 2^40: one comparison of
		// their OR.
		{[]string{"0", "-1", "+1", "-nx", "+nx", "-plane", "+plane"}, 2, 1},
		{[]string{"-1", "0", "+1", "+2"}, 2, 0},
	} {
		f := stencil(tc.offs)
		verify(t, f)
		ChecksFirst(f)
		MergeBlocks(f)
		if CombineChecks(f) == 0 {
			t.Fatalf("%v: not combined\n%s", tc.offs, Format(f))
		}
		verify(t, f)
		removed := RangeChecks(f)
		verify(t, f)
		if removed != len(tc.offs)-tc.after {
			t.Errorf("%v: RangeChecks removed %d checks, want %d\n%s", tc.offs, removed, len(tc.offs)-tc.after, Format(f))
		}
		// The fast path compares two indices with the length (and
		// uniform values with constants).
		e := f.Blocks[0]
		lens, uniform := 0, 0
		for _, v := range e.Values {
			if v.Op == OpLt && v.Args[1].Op == OpBitcast && v.Args[1].Args[0].Op == OpParam {
				lens++
			}
			if v.Op == OpLt && v.Args[1].Op == OpConst {
				uniform++
			}
		}
		if uniform != tc.uniform {
			t.Errorf("%v: %d comparisons of uniform values on the fast path, want %d\n%s", tc.offs, uniform, tc.uniform, Format(f))
		}
		if lens != tc.after {
			t.Errorf("%v: %d comparisons with the length on the fast path, want %d\n%s", tc.offs, lens, tc.after, Format(f))
		}
		MergeBlocks(f)
		FoldConstants(f)
		verify(t, f)
		exec := func(g *Func, nx, c, plane int64, n int) (byte, *kirexec.Trap) {
			in := &kirexec.Buffer{Name: "in", Data: make([]byte, n)}
			for i := range in.Data {
				in.Data[i] = byte(3*i + 1)
			}
			out := &kirexec.Buffer{Name: "out", Data: []byte{0}}
			trap, err := kirexec.Run(g, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: in}, {Bits: uint64(n)},
				{Buf: out}, {Bits: 1}, {Bits: uint64(nx)}, {Bits: uint64(c)}, {Bits: uint64(plane)}})
			if err != nil {
				t.Fatalf("nx=%d c=%d plane=%d n=%d: %v\n%s", nx, c, plane, n, err, Format(g))
			}
			return out.Data[0], trap
		}
		strides := []int64{0, 1, 2, 3, 5, -1, -3, 1 << 40, 1<<40 + 1, 1 << 62, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
		ref := stencil(tc.offs)
		runs, fast := 0, 0
		for _, nx := range strides {
			for _, pk := range []int64{0, 1, 2, 3, -1, 1 << 23} {
				plane := nx * pk
				for _, c := range []int64{0, 1, 2, 3, 4, 5, 6, 9, 12, 20, 29, 30, -1, -4, math.MaxInt64, math.MinInt64, 1 << 62} {
					for _, n := range []int{0, 3, 10, 31} {
						want, wt := exec(ref, nx, c, plane, n)
						got, gt := exec(f, nx, c, plane, n)
						runs++
						if wt == nil {
							fast++
						}
						if got != want || (wt == nil) != (gt == nil) || (wt != nil && (wt.Code != gt.Code || wt.Pos != gt.Pos)) {
							t.Fatalf("%v nx=%d c=%d plane=%d n=%d: got %d %+v, want %d %+v\n%s", tc.offs, nx, c, plane, n, got, gt, want, wt, Format(f))
						}
					}
				}
			}
		}
		if fast == 0 {
			t.Errorf("%v: no run passed every check (%d runs)", tc.offs, runs)
		}
	}
}

// TestRangeChecksKeepsOtherGroups: checks against two different lengths
// are not combined with each other, and a group of two gains nothing.
func TestRangeChecksKeepsOtherGroups(t *testing.T) {
	f := stencil([]string{"0", "+1"})
	ChecksFirst(f)
	MergeBlocks(f)
	CombineChecks(f)
	if n := RangeChecks(f); n != 0 {
		t.Errorf("RangeChecks removed %d checks of a pair\n%s", n, Format(f))
	}
	verify(t, f)
}
