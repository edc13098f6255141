package kir_test

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// guardedStencil builds a 3-D 7-point stencil as the lowering does: the
// guard 1 <= x < nx-1, 1 <= y < ny-1, 1 <= z < nz-1 as a chain of
// branches, then c = z*(nx*ny) + y*nx + x and checked byte loads of
// in[c+o] for each offset, their sum stored to out[c] (checked).
func guardedStencil(offs []string) *Func {
	b := newFB(Param{Name: "in_ptr", Type: PtrTo(Global)}, Param{Name: "in_len", Type: TI64, Len: true},
		Param{Name: "out_ptr", Type: PtrTo(Global)}, Param{Name: "out_len", Type: TI64, Len: true},
		Param{Name: "nx", Type: TI64}, Param{Name: "ny", Type: TI64}, Param{Name: "nz", Type: TI64})
	in, inLen := b.param(0, PtrTo(Global)), b.param(1, TI64)
	out, outLen := b.param(2, PtrTo(Global)), b.param(3, TI64)
	nx, ny, nz := b.param(4, TI64), b.param(5, TI64), b.param(6, TI64)
	special := func(i int) *Value {
		v := b.v(OpSpecial, TU32)
		v.Index = i
		return b.v(OpConvert, TI64, v)
	}
	global := func(d int) *Value {
		return b.v(OpAdd, TI64, b.v(OpMul, TI64, special(BlockIdxX+d), special(BlockDimX+d)), special(ThreadIdxX+d))
	}
	x, y, z := global(0), global(1), global(2)
	one := b.c(TI64, 1)
	done := b.f.NewBlock(BlockPlain, "done")
	for _, g := range [][2]*Value{{x, nx}, {y, ny}, {z, nz}} {
		for _, cond := range []*Value{b.v(OpGe, TBool, g[0], one), b.v(OpLt, TBool, g[0], b.v(OpSub, TI64, g[1], one))} {
			next := b.f.NewBlock(BlockPlain, "guard")
			b.cur.Branch(cond, next, done)
			b.cur = next
		}
	}
	plane := b.v(OpMul, TI64, nx, ny)
	c := b.v(OpAdd, TI64, b.v(OpAdd, TI64, b.v(OpMul, TI64, z, plane), b.v(OpMul, TI64, y, nx)), x)
	check := func(idx, n *Value, pos int) {
		ok := b.f.NewBlock(BlockPlain, "checked")
		trap := b.f.NewBlock(BlockPlain, "trap")
		b.cur.Branch(b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, n)), ok, trap)
		trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: pos, Args: [2]*Value{idx, n}})
		b.cur = ok
	}
	var sum *Value
	for pos, o := range offs {
		idx := map[string]*Value{
			"0": c, "-1": b.v(OpSub, TI64, c, one), "+1": b.v(OpAdd, TI64, c, one),
			"-nx": b.v(OpSub, TI64, c, nx), "+nx": b.v(OpAdd, TI64, c, nx),
			"-plane": b.v(OpSub, TI64, c, plane), "+plane": b.v(OpAdd, TI64, c, plane),
		}[o]
		check(idx, inLen, pos+1)
		v := b.v(OpLoad, Type{Kind: U8}, b.v(OpPtrAdd, PtrTo(Global), in, idx))
		if sum == nil {
			sum = v
		} else {
			sum = b.v(OpAdd, Type{Kind: U8}, sum, v)
		}
	}
	check(c, outLen, len(offs)+1)
	b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), out, c), sum)
	b.cur.Jump(done)
	done.Return()
	return b.f
}

// TestGuardBounds: the variant of a guarded 2-D and 3-D stencil that
// assumes its launch facts (AssumeFacts, with guard bounds for the
// checks that depend on the thread) compares no per-thread index, and
// for extents of every sign and size (zero, too small for the guard, at
// and beyond the tested 2^K, wrapping) and lengths short, exact and long,
// the launch runs what a runtime would choose (the variant where
// Facts.Eval holds, else the kernel) and every store and trap is the
// unoptimized kernel's.
func TestGuardBounds(t *testing.T) {
	for _, offs := range [][]string{
		{"0", "-1", "+1", "-nx", "+nx"},
		{"0", "-1", "+1", "-nx", "+nx", "-plane", "+plane"},
		{"+plane", "-plane", "0"},
	} {
		f := guardedStencil(offs)
		verify(t, f)
		ChecksFirst(f)
		MergeBlocks(f)
		if CombineChecks(f) == 0 {
			t.Fatalf("%v: not combined\n%s", offs, Format(f))
		}
		RangeChecks(f)
		MergeBlocks(f)
		FoldConstants(f)
		verify(t, f)
		g, facts, ok := AssumeFacts(f)
		if !ok {
			t.Fatalf("%v: no launch facts\n%s", offs, Format(f))
		}
		verify(t, g)
		if n := threadCompares(g); n != 0 {
			t.Errorf("%v: %d comparisons of per-thread indices in the variant, want 0\n%s", offs, n, Format(g))
		}

		ref := guardedStencil(offs)
		grid, block := [3]int{2, 2, 2}, [3]int{3, 2, 2}
		exec := func(g *Func, ext [3]int64, nIn, nOut int) ([]byte, *kirexec.Trap) {
			in := &kirexec.Buffer{Name: "in", Data: make([]byte, nIn)}
			for i := range in.Data {
				in.Data[i] = byte(7*i + 1)
			}
			out := &kirexec.Buffer{Name: "out", Data: make([]byte, nOut)}
			args := []kirexec.Arg{{Buf: in}, {Bits: uint64(nIn)}, {Buf: out}, {Bits: uint64(nOut)}}
			for _, e := range ext {
				args = append(args, kirexec.Arg{Bits: uint64(e)})
			}
			trap, err := kirexec.Run(g, nil, grid, block, args)
			if err != nil {
				t.Fatalf("%v %v: %v\n%s", offs, ext, err, Format(g))
			}
			return out.Data, trap
		}
		sizes := []int64{0, 1, 2, 3, 4, 6, -1, 1<<20 - 1, 1 << 20, 1<<20 + 1, 1 << 31, math.MaxInt64, math.MinInt64, math.MinInt64 + 2}
		runs, held := 0, 0
		for _, nx := range sizes {
			for _, ny := range []int64{0, 1, 3, 4, -1, 1 << 20, 1 << 31, math.MaxInt64, math.MinInt64} {
				for _, nz := range []int64{0, 3, 4, 1 << 20, math.MinInt64 + 2, -1} {
					full := int(min(max(nx*ny*nz, 0), 200))
					for _, n := range []int{0, full - 1, full, 200} {
						if n < 0 {
							continue
						}
						e := [3]int64{nx, ny, nz}
						params := map[int]uint64{1: uint64(n), 3: uint64(n), 4: uint64(nx), 5: uint64(ny), 6: uint64(nz)}
						hold, err := facts.Eval(func(i, off, size int) (uint64, bool) {
							v, ok := params[i]
							return v, ok && off == 0 && size == 8
						}, [3]uint32{3, 2, 2}, [3]uint32{2, 2, 2})
						if err != nil {
							t.Fatal(err)
						}
						run := f
						if hold {
							run = g
							held++
						}
						want, wt := exec(ref, e, n, n)
						got, gt := exec(run, e, n, n)
						runs++
						// Threads run concurrently, so which trapping
						// thread reports first varies: each report must
						// name a check that fails first in its thread.
						for _, tr := range []*kirexec.Trap{wt, gt} {
							if tr != nil && (tr.Code != gpuabi.TrapIndex || tr.Pos != firstFailing(offs, e, n, tr.Block, tr.Thread)) {
								t.Fatalf("%v ext=%v n=%d (facts %v): trap %+v is not the thread's first failing check %d", offs, e, n, hold, tr, firstFailing(offs, e, n, tr.Block, tr.Thread))
							}
						}
						if (wt == nil) != (gt == nil) || (wt == nil && string(got) != string(want)) {
							t.Fatalf("%v ext=%v n=%d (facts %v): got %v %+v, want %v %+v", offs, e, n, hold, got, gt, want, wt)
						}
					}
				}
			}
		}
		if held == 0 {
			t.Errorf("%v: the facts held in none of %d runs", offs, runs)
		}
	}
}

// firstFailing is the position of the first check of guardedStencil
// that fails in the thread (0 when none does), by Go's arithmetic.
func firstFailing(offs []string, ext [3]int64, n int, block, thread [3]int) int {
	var g [3]int64
	for d := range 3 {
		g[d] = int64(block[d]*[]int{3, 2, 2}[d] + thread[d])
		if g[d] < 1 || g[d] >= ext[d]-1 {
			return 0
		}
	}
	nx, plane := ext[0], ext[0]*ext[1]
	c := g[2]*plane + g[1]*nx + g[0]
	for pos, o := range offs {
		idx := map[string]int64{"0": c, "-1": c - 1, "+1": c + 1, "-nx": c - nx, "+nx": c + nx, "-plane": c - plane, "+plane": c + plane}[o]
		if uint64(idx) >= uint64(n) {
			return pos + 1
		}
	}
	if uint64(c) >= uint64(n) {
		return len(offs) + 1
	}
	return 0
}

// threadCompares counts the comparisons with a length parameter whose
// index depends on the thread, in the blocks dominating the load with the
// fewest.
func threadCompares(f *Func) int {
	dom := Dominators(f)
	best := -1
	for _, l := range f.Blocks {
		hasLoad := false
		for _, v := range l.Values {
			hasLoad = hasLoad || v.Op == OpLoad
		}
		if !hasLoad {
			continue
		}
		n := 0
		for _, b := range f.Blocks {
			if !dom.Dominates(b, l) {
				continue
			}
			for _, v := range b.Values {
				if v.Op == OpLt && v.Args[1].Op == OpBitcast && v.Args[1].Args[0].Op == OpParam && dependsOnThread(v.Args[0]) {
					n++
				}
			}
		}
		if best < 0 || n < best {
			best = n
		}
	}
	return best
}

func dependsOnThread(v *Value) bool {
	if v.Op == OpSpecial {
		return v.Index < BlockDimX
	}
	for _, a := range v.Args {
		if dependsOnThread(a) {
			return true
		}
	}
	return false
}
