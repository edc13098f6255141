package kir_test

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// TestVersionChecksRowMajor: two guarded row-major reads,
// `if a+k < rows && x < cols { out[k] = in[(a+k)*cols+x] }`, are covered
// on the fast path by one test of rows, cols and len(in); for every input
// (rows*cols past the length, past 2^63, negative or zero extents,
// negative indices) the versioned kernel stores and traps as the original.
func TestVersionChecksRowMajor(t *testing.T) {
	build := func() *Func {
		b := newFB(Param{Name: "in_ptr", Type: PtrTo(Global)}, Param{Name: "in_len", Type: TI64, Len: true},
			Param{Name: "out_ptr", Type: PtrTo(Global)}, Param{Name: "out_len", Type: TI64, Len: true},
			Param{Name: "rows", Type: TI64}, Param{Name: "cols", Type: TI64}, Param{Name: "a", Type: TI64}, Param{Name: "x", Type: TI64})
		in, n, out := b.param(0, PtrTo(Global)), b.param(1, TI64), b.param(2, PtrTo(Global))
		rows, cols, a, x := b.param(4, TI64), b.param(5, TI64), b.param(6, TI64), b.param(7, TI64)
		// a and x are non-negative, as thread indices are.
		a = b.v(OpAnd, TI64, a, b.c(TI64, 0xff))
		x = b.v(OpAnd, TI64, x, b.c(TI64, 0xff))
		for k := range 2 {
			ak := b.v(OpAdd, TI64, a, b.c(TI64, uint64(k)))
			body := b.f.NewBlock(BlockIfThen, "if.then")
			ok := b.f.NewBlock(BlockPlain, "checked")
			trap := b.f.NewBlock(BlockPlain, "trap")
			done := b.f.NewBlock(BlockIfDone, "if.done")
			b.cur.Branch(b.v(OpAnd, TBool, b.v(OpLt, TBool, x, cols), b.v(OpLt, TBool, ak, rows)), body, done)
			b.cur = body
			idx := b.v(OpAdd, TI64, b.v(OpMul, TI64, ak, cols), x)
			body.Branch(b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, n)), ok, trap)
			trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: k + 1, Args: [2]*Value{idx, n}})
			b.cur = ok
			v := b.v(OpLoad, Type{Kind: U8}, b.v(OpPtrAdd, PtrTo(Global), in, idx))
			b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), out, b.c(TI64, uint64(k))), v)
			ok.Jump(done)
			b.cur = done
		}
		b.cur.Return()
		return b.f
	}
	f := build()
	verify(t, f)
	if n := VersionChecks(f); n != 1 {
		t.Fatalf("VersionChecks = %d, want 1\n%s", n, Format(f))
	}
	verify(t, f)
	// The fast path's test multiplies only rows by cols: no index is
	// computed before the branch into the copy.
	if c := count(&Func{Blocks: f.Blocks[:1]}, OpMul); c != 1 {
		t.Errorf("%d products before the versioned branch, want 1 (rows*cols)\n%s", c, Format(f))
	}
	exec := func(g *Func, rows, cols, a, x int64, n int) (string, *kirexec.Trap) {
		in := &kirexec.Buffer{Name: "in", Data: make([]byte, n)}
		for i := range in.Data {
			in.Data[i] = byte(i + 1)
		}
		out := &kirexec.Buffer{Name: "out", Data: []byte{0, 0}}
		trap, err := kirexec.Run(g, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: in}, {Bits: uint64(n)},
			{Buf: out}, {Bits: 2}, {Bits: uint64(rows)}, {Bits: uint64(cols)}, {Bits: uint64(a)}, {Bits: uint64(x)}})
		if err != nil {
			t.Fatalf("rows=%d cols=%d a=%d x=%d n=%d: %v\n%s", rows, cols, a, x, n, err, Format(g))
		}
		return string(out.Data), trap
	}
	ref := build()
	ext := []int64{0, 1, 2, 3, 4, 7, -1, -4, 1 << 31, 1<<31 + 1, 1 << 32, math.MaxInt64, math.MinInt64}
	fast := 0
	for _, rows := range ext {
		for _, cols := range ext {
			for _, a := range []int64{0, 1, 2, 3, 6} {
				for _, x := range []int64{0, 1, 3, 6} {
					for _, n := range []int{0, 5, 12, 20} {
						wd, wt := exec(ref, rows, cols, a, x, n)
						gd, gt := exec(f, rows, cols, a, x, n)
						if wd != gd || (wt == nil) != (gt == nil) || (wt != nil && (wt.Code != gt.Code || wt.Pos != gt.Pos)) {
							t.Fatalf("rows=%d cols=%d a=%d x=%d n=%d: got %x %+v, want %x %+v\n%s", rows, cols, a, x, n, gd, gt, wd, wt, Format(f))
						}
						if wt == nil && wd != "\x00\x00" {
							fast++
						}
					}
				}
			}
		}
	}
	if fast == 0 {
		t.Error("no run read anything")
	}
}

// TestVersionChecksGroups: six read-modify-writes c[x+k*ld], k = 0..5 (a
// sgemm's last stores), are covered on the fast path by the checks of
// their first and last index and one test that ld is small and positive,
// three comparisons instead of six; for every input (ld negative, zero,
// past 2^40 or 2^63, indices past the length) the versioned kernel
// stores and traps as the original.
func TestVersionChecksGroups(t *testing.T) {
	const accesses = 6
	build := func() *Func {
		b := newFB(Param{Name: "c_ptr", Type: PtrTo(Global)}, Param{Name: "c_len", Type: TI64, Len: true},
			Param{Name: "ld", Type: TI64}, Param{Name: "x", Type: TI64})
		c, n, ld, x := b.param(0, PtrTo(Global)), b.param(1, TI64), b.param(2, TI64), b.param(3, TI64)
		x = b.v(OpAnd, TI64, x, b.c(TI64, 0xff)) // non-negative, as a thread index is
		for k := range accesses {
			idx := b.v(OpAdd, TI64, x, b.v(OpMul, TI64, b.c(TI64, uint64(k)), ld))
			ok := b.f.NewBlock(BlockPlain, "checked")
			trap := b.f.NewBlock(BlockPlain, "trap")
			b.cur.Branch(b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, n)), ok, trap)
			trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: k + 1, Args: [2]*Value{idx, n}})
			b.cur = ok
			p := b.v(OpPtrAdd, PtrTo(Global), c, idx)
			b.v(OpStore, Type{}, p, b.v(OpAdd, Type{Kind: U8}, b.v(OpLoad, Type{Kind: U8}, p), b.c(Type{Kind: U8}, uint64(k+1))))
		}
		b.cur.Return()
		return b.f
	}
	f := build()
	verify(t, f)
	if n := VersionChecks(f); n != 1 {
		t.Fatalf("VersionChecks = %d, want 1\n%s", n, Format(f))
	}
	verify(t, f)
	if c := count(&Func{Blocks: f.Blocks[:1]}, OpLt); c != 3 {
		t.Errorf("%d comparisons before the versioned branch, want 3\n%s", c, Format(f))
	}
	exec := func(g *Func, ld, x int64, n int) (string, *kirexec.Trap) {
		buf := &kirexec.Buffer{Name: "c", Data: make([]byte, n)}
		trap, err := kirexec.Run(g, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: uint64(n)},
			{Bits: uint64(ld)}, {Bits: uint64(x)}})
		if err != nil {
			t.Fatalf("ld=%d x=%d n=%d: %v\n%s", ld, x, n, err, Format(g))
		}
		return string(buf.Data), trap
	}
	ref := build()
	fast := 0
	for _, ld := range []int64{0, 1, 2, 3, -1, -3, 1 << 40, 1<<40 + 1, 1 << 61, math.MaxInt64, math.MinInt64} {
		for _, x := range []int64{0, 1, 5, 255} {
			for _, n := range []int{0, 5, 16, 20, 300} {
				wd, wt := exec(ref, ld, x, n)
				gd, gt := exec(f, ld, x, n)
				if wd != gd || (wt == nil) != (gt == nil) || (wt != nil && (wt.Code != gt.Code || wt.Pos != gt.Pos)) {
					t.Fatalf("ld=%d x=%d n=%d: got %x %+v, want %x %+v\n%s", ld, x, n, gd, gt, wd, wt, Format(f))
				}
				if wt == nil && ld > 0 {
					fast++
				}
			}
		}
	}
	if fast == 0 {
		t.Error("no run passed every check")
	}
}
