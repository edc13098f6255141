package kir_test

import (
	"testing"

	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// TestRecomputeColdChecks: a loop reads x[i] and x[j] (i, j invariant)
// each iteration. HoistInvariants takes both comparisons out of the
// loop and CombineChecks ANDs them into one branch; the slow path's
// checks then branched on the hoisted comparisons, kept live through the
// loop. After RecomputeColdChecks each slow-path check computes its
// comparison in its own block, and x[i]'s index and length (parameters)
// too, while x[j]'s index, computed from a load, is the one computed
// before; the kernel's bytes and traps stay the original's.
func TestRecomputeColdChecks(t *testing.T) {
	build := func() *Func {
		b := newFB(append(out1, Param{Name: "i", Type: TI64}, Param{Name: "j", Type: TI64})...)
		p, n := b.param(0, PtrTo(Global)), b.param(1, TI64)
		i := b.param(2, TI64)
		zero, one, three := b.c(TI64, 0), b.c(TI64, 1), b.c(TI64, 3)
		// j + x[0] - 1 (x[0] is 1): an index computed from a load, which
		// the slow path cannot recompute.
		j := b.v(OpSub, TI64, b.v(OpAdd, TI64, b.param(3, TI64), b.v(OpConvert, TI64, b.v(OpLoad, Type{Kind: U8}, p))), one)
		entry, head, body, done := b.cur, b.f.NewBlock(BlockLoopHeader, "loop"), b.f.NewBlock(BlockLoopBody, "body"), b.f.NewBlock(BlockLoopDone, "done")
		entry.Jump(head)
		b.cur = head
		k := b.f.NewPhi(head, TI64)
		head.Branch(b.v(OpLt, TBool, k, three), body, done)
		b.cur = body
		load := func(idx *Value, pos int) *Value {
			ok, trap := b.f.NewBlock(BlockPlain, "checked"), b.f.NewBlock(BlockPlain, "trap")
			b.cur.Branch(b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, n)), ok, trap)
			trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: pos, Args: [2]*Value{idx, n}})
			b.cur = ok
			return b.v(OpLoad, Type{Kind: U8}, b.v(OpPtrAdd, PtrTo(Global), p, idx))
		}
		sum := b.v(OpAdd, Type{Kind: U8}, load(i, 1), load(j, 2))
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpAdd, TI64, k, b.c(TI64, 5))), sum)
		next := b.v(OpAdd, TI64, k, one)
		b.cur.Jump(head)
		k.Args = []*Value{zero, next}
		b.cur = done
		done.Return()
		return b.f
	}
	f := build()
	verify(t, f)
	HoistInvariants(f)
	ChecksFirst(f)
	MergeBlocks(f)
	if n := CombineChecks(f); n != 1 {
		t.Fatalf("CombineChecks = %d, want 1\n%s", n, Format(f))
	}
	if n := RecomputeColdChecks(f); n != 2 {
		t.Fatalf("RecomputeColdChecks = %d, want 2\n%s", n, Format(f))
	}
	verify(t, f)
	for _, b := range f.Blocks {
		if b.Comment == "checks, one by one" || (b.Term == TermBranch && b.Succs[0].Term == TermTrap) {
			if b.Cond.Block != b {
				t.Errorf("slow-path check %v branches on %v of %v\n%s", b.Index, b.Cond, b.Cond.Block.Index, Format(f))
			}
			// x[i]'s index and length are recomputed; x[j]'s index
			// cannot be, so its trap reports the value computed before.
			tr := b.Succs[1].Trap
			if b.Succs[1].Term == TermTrap && tr.Code == gpuabi.TrapIndex {
				recomputed := tr.Args[0].Block == b && tr.Args[1].Block == b
				if want := tr.Pos == 1; recomputed != want {
					t.Errorf("slow-path check %v (pos %d) reports %v of b%d, recomputed: %v, want %v\n%s",
						b.Index, tr.Pos, tr.Args[0], tr.Args[0].Block.Index, recomputed, want, Format(f))
				}
			}
		}
	}
	for _, c := range [][2]uint64{{0, 1}, {4, 3}, {5, 1}, {1, 6}, {7, 7}} {
		wd, wt := runOnBytes(t, build(), c[0], c[1])
		gd, gt := runOnBytes(t, f, c[0], c[1])
		if wd != gd || (wt == nil) != (gt == nil) || (wt != nil && (wt.Code != gt.Code || wt.Pos != gt.Pos)) {
			t.Errorf("i=%d j=%d: got %x %+v, want %x %+v", c[0], c[1], gd, gt, wd, wt)
		}
	}
}
