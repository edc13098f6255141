package kir_test

import (
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// TestSplitAtBarriersVersionsTheLastCopy: two checked row copies, the
// second in the block of the barrier after it (a tile load unrolled). Split
// at the barrier, both copies' loads are in the copy without checks, so
// they can be issued together; unsplit, VersionChecks stopped at the
// barrier's block and left the second load behind the join. Results and
// traps stay the original's, and one barrier remains.
func TestSplitAtBarriersVersionsTheLastCopy(t *testing.T) {
	build := func() *Func {
		b := newFB(append(out1, Param{Name: "i", Type: TI64}, Param{Name: "j", Type: TI64})...)
		p := b.param(0, PtrTo(Global))
		n := b.param(1, TI64)
		i, j := b.param(2, TI64), b.param(3, TI64)
		checkedCopy := func(idx *Value, to uint64, pos int) {
			ok := b.f.NewBlock(BlockPlain, "checked")
			trap := b.f.NewBlock(BlockPlain, "trap")
			cond := b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, n))
			b.cur.Branch(cond, ok, trap)
			trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: pos, Args: [2]*Value{idx, n}})
			b.cur = ok
			x := b.v(OpLoad, Type{Kind: U8}, b.v(OpPtrAdd, PtrTo(Global), p, idx))
			b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, to)), x)
		}
		checkedCopy(i, 7, 1)
		checkedCopy(j, 6, 2)
		b.v(OpBarrier, Type{})
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 5)), b.c(Type{Kind: U8}, 9))
		b.cur.Return()
		return b.f
	}
	exec := func(f *Func, i, j uint64) (string, *kirexec.Trap) { return runOnBytes(t, f, i, j) }
	f := build()
	verify(t, f)
	if n := SplitAtBarriers(f); n != 1 {
		t.Fatalf("SplitAtBarriers = %d, want 1\n%s", n, Format(f))
	}
	verify(t, f)
	if n := VersionChecks(f); n != 1 {
		t.Fatalf("VersionChecks = %d, want 1\n%s", n, Format(f))
	}
	FoldConstants(f)
	MergeBlocks(f)
	verify(t, f)
	if n := count(f, OpLoad); n != 4 {
		t.Errorf("want both loads in both copies, got %d loads\n%s", n, Format(f))
	}
	if n := count(f, OpBarrier); n != 1 {
		t.Errorf("want one barrier, got %d\n%s", n, Format(f))
	}
	for _, c := range [][2]uint64{{0, 1}, {4, 3}, {6, 1}, {1, 6}, {6, 6}} {
		wd, wt := exec(build(), c[0], c[1])
		gd, gt := exec(f, c[0], c[1])
		if wd != gd || (wt == nil) != (gt == nil) || (wt != nil && (wt.Code != gt.Code || wt.Pos != gt.Pos)) {
			t.Errorf("i=%d j=%d: got %x %+v, want %x %+v", c[0], c[1], gd, gt, wd, wt)
		}
	}
}

// TestSplitAtBarriersLeavesLeadingBarriers: a block whose barrier comes
// first (after its phis) is not split.
func TestSplitAtBarriersLeavesLeadingBarriers(t *testing.T) {
	b := newFB(out1...)
	b.v(OpBarrier, Type{})
	b.cur.Return()
	if n := SplitAtBarriers(b.f); n != 0 {
		t.Errorf("SplitAtBarriers = %d, want 0\n%s", n, Format(b.f))
	}
}
