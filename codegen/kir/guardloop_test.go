package kir_test

import (
	"fmt"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// tileLoop is a tile loop with a barrier under a guard on n:
//
//	if n%mod != 0 { panic(...) }
//	for k0 := 0; k0 < n; k0 += 32 { barrier; out[tid.x] += in[k0+tid.x] }
//
// with 32 threads a block: the index is thread-dependent, so only tests
// through the thread's bounds can version the loop.
func tileLoop(mod int64) *Func {
	b := newFB(Param{Name: "in_ptr", Type: PtrTo(Global)}, Param{Name: "in_len", Type: TI64, Len: true},
		Param{Name: "out_ptr", Type: PtrTo(Global)}, Param{Name: "out_len", Type: TI64, Len: true}, Param{Name: "n", Type: TI64})
	b.f.Block = [3]int{32, 1, 1}
	in, length, out, n := b.param(0, PtrTo(Global)), b.param(1, TI64), b.param(2, PtrTo(Global)), b.param(4, TI64)
	tid := b.v(OpSpecial, TU32)
	tid.Index = ThreadIdxX
	tx := b.v(OpConvert, TI64, tid)
	zero := b.c(TI64, 0)
	panicked := b.f.NewBlock(BlockPlain, "panic")
	pre := b.f.NewBlock(BlockPlain, "pre")
	b.cur.Branch(b.v(OpEq, TBool, b.v(OpRem, TI64, n, b.c(TI64, uint64(mod))), zero), pre, panicked)
	panicked.TrapWith(Trap{Code: gpuabi.TrapPanic, Pos: 1})
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	ok := b.f.NewBlock(BlockPlain, "checked")
	trap := b.f.NewBlock(BlockPlain, "trap")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	pre.Jump(head)
	b.cur = head
	k0 := b.f.NewPhi(head, TI64)
	head.Branch(b.v(OpLt, TBool, k0, n), body, done)
	b.cur = body
	b.v(OpBarrier, Type{})
	idx := b.v(OpAdd, TI64, k0, tx)
	body.Branch(b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, length)), ok, trap)
	trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: 2, Args: [2]*Value{idx, length}})
	b.cur = ok
	x := b.v(OpLoad, Type{Kind: U8}, b.v(OpPtrAdd, PtrTo(Global), in, idx))
	slot := b.v(OpPtrAdd, PtrTo(Global), out, tx)
	o := b.v(OpLoad, Type{Kind: U8}, slot)
	b.v(OpStore, Type{}, slot, b.v(OpAdd, Type{Kind: U8}, o, x))
	k1 := b.v(OpAdd, TI64, k0, b.c(TI64, 32))
	ok.Jump(head)
	k0.Args = []*Value{zero, k1}
	done.Return()
	return b.f
}

// TestGuardedLoopChecks: the tile loop is versioned on uniform tests; a
// guard n%32 == 0 (or n%64) makes the counter's last value n-32, a guard
// n%16 == 0 does not and leaves the test that 32 divides n. The versioned
// loop runs like the original, trap for trap, for n and lengths around
// the edges.
func TestGuardedLoopChecks(t *testing.T) {
	for _, tc := range []struct {
		mod     int64
		aligned bool // the test asks n&31 == 0
	}{{32, false}, {64, false}, {16, true}, {1, true}} {
		f := tileLoop(tc.mod)
		if got := LoopChecks(f); got != 1 {
			t.Fatalf("n%%%d: LoopChecks = %d, want 1\n%s", tc.mod, got, Format(f))
		}
		verify(t, f)
		asks := false
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				asks = asks || v.Op == OpAnd && v.Type == TI64 && v.Args[1].Op == OpConst && v.Args[1].Imm == 31
			}
		}
		if asks != tc.aligned {
			t.Errorf("n%%%d: the test asks n&31 == 0: %v, want %v\n%s", tc.mod, asks, tc.aligned, Format(f))
		}
		want := tileLoop(tc.mod)
		for _, n := range []int64{0, 16, 32, 48, 64, 96} {
			for _, l := range []int{int(n) - 1, int(n), int(n) + 31, int(n) + 32} {
				if l < 0 {
					continue
				}
				name := fmt.Sprintf("n%%%d n=%d len=%d", tc.mod, n, l)
				a, ta := runTile(t, want, n, l)
				b, tb := runTile(t, f, n, l)
				if a != b || (ta == nil) != (tb == nil) || ta != nil && (ta.Code != tb.Code || ta.Pos != tb.Pos) {
					t.Errorf("%s: %x, trap %+v; want %x, trap %+v", name, b, tb, a, ta)
				}
			}
		}
	}
}

func runTile(t *testing.T, f *Func, n int64, l int) (string, *kirexec.Trap) {
	t.Helper()
	in := &kirexec.Buffer{Name: "in", Data: make([]byte, l)}
	for i := range in.Data {
		in.Data[i] = byte(5*i + 1)
	}
	out := &kirexec.Buffer{Name: "out", Data: make([]byte, 32)}
	trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{32, 1, 1}, []kirexec.Arg{{Buf: in}, {Bits: uint64(l)}, {Buf: out}, {Bits: 32}, {Bits: uint64(n)}})
	if err != nil {
		t.Fatalf("%v\n%s", err, Format(f))
	}
	return string(out.Data), trap
}
