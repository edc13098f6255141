package kir_test

import (
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// paramSum builds s := 0; for j := 0; j < n; j++ { s += x[k] }; x[0] = s
// over int32 elements, n a plain parameter (no range), the check of x[k]
// against m; k is j, or with gather x[j]&7, an index the counter does not
// give.
func paramSum(gather bool) *Func {
	b := newFB(append(out1, Param{Name: "n", Type: TI64}, Param{Name: "m", Type: TI64})...)
	p := b.param(0, PtrTo(Global))
	n := b.param(2, TI64)
	m := b.param(3, TI64)
	zero, zero32, four, one := b.c(TI64, 0), b.c(TI32, 0), b.c(TI64, 4), b.c(TI64, 1)
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	ok := b.f.NewBlock(BlockPlain, "checked")
	trap := b.f.NewBlock(BlockPlain, "trap")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	b.cur.Jump(head)
	b.cur = head
	j := b.f.NewPhi(head, TI64)
	s := b.f.NewPhi(head, TI32)
	head.Branch(b.v(OpLt, TBool, j, n), body, done)
	b.cur = body
	k := j
	if gather {
		k = b.v(OpAnd, TI64, b.v(OpConvert, TI64, b.v(OpLoad, TI32, b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, j, four)))), b.c(TI64, 7))
	}
	body.Branch(b.v(OpLt, TBool, b.v(OpBitcast, TU64, k), b.v(OpBitcast, TU64, m)), ok, trap)
	trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: 1, Args: [2]*Value{k, m}})
	b.cur = ok
	x := b.v(OpLoad, TI32, b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, k, four)))
	s1 := b.v(OpAdd, TI32, s, x)
	j1 := b.v(OpAdd, TI64, j, one)
	ok.Jump(head)
	j.Args = []*Value{zero, j1}
	s.Args = []*Value{zero32, s1}
	b.cur = done
	b.v(OpStore, Type{}, p, s)
	done.Return()
	return b.f
}

// runParamSum runs f on 16 int32 elements with n and m.
func runParamSum(t *testing.T, f *Func, n, m int) ([]byte, *kirexec.Trap) {
	t.Helper()
	data := make([]byte, 4*16)
	for i := range 16 {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(3*i+1))
	}
	buf := &kirexec.Buffer{Name: "x", Data: data}
	trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: uint64(len(data))}, {Bits: uint64(n)}, {Bits: uint64(m)}})
	if err != nil {
		t.Fatalf("n=%d m=%d: %v\n%s", n, m, err, Format(f))
	}
	return data, trap
}

// TestUnrollRuntimeParamBound: a loop up to a plain parameter is unrolled
// behind a run-time test of the bound, with four loads per test of the
// counter; sums and traps are the same for every n, negative and past
// the check's m included.
func TestUnrollRuntimeParamBound(t *testing.T) {
	f := paramSum(false)
	if UnrollRuntime(f) != 1 {
		t.Fatalf("a loop up to a parameter was not unrolled\n%s", Format(f))
	}
	verify(t, f)
	if got := count(f, OpLoad); got != 1+UnrollFactor {
		t.Errorf("%d loads, want %d (the unrolled copies and the rest)\n%s", got, 1+UnrollFactor, Format(f))
	}
	for _, c := range [][2]int{{-3, 16}, {0, 16}, {1, 16}, {3, 16}, {4, 16}, {7, 16}, {16, 16}, {9, 6}, {16, 13}} {
		wantOut, wantTrap := runParamSum(t, paramSum(false), c[0], c[1])
		gotOut, gotTrap := runParamSum(t, f, c[0], c[1])
		if string(gotOut) != string(wantOut) || !reflect.DeepEqual(gotTrap, wantTrap) {
			t.Errorf("n=%d m=%d: %x trap %+v, want %x trap %+v", c[0], c[1], gotOut, gotTrap, wantOut, wantTrap)
		}
	}
}

// A loop up to a parameter whose check reads an index the counter does
// not give (a gather) is left: the check would stay in every copy.
func TestUnrollRuntimeParamBoundGather(t *testing.T) {
	if f := paramSum(true); UnrollRuntime(f) != 0 {
		t.Errorf("a gather loop up to a parameter was unrolled\n%s", Format(f))
	}
}

// TestOptimizeSkip leaves a pass out by name (gpukvet build
// -skip-passes) and refuses a name no pass has.
func TestOptimizeSkip(t *testing.T) {
	unrolled := func(skip ...string) bool {
		f := paramSum(false)
		if err := Optimize(f, OptOptions{Verify: true, Skip: skip}); err != nil {
			t.Fatal(err)
		}
		for _, b := range f.Blocks {
			if b.Unrolled {
				return true
			}
		}
		return false
	}
	if !unrolled() {
		t.Fatal("the whole pipeline does not unroll paramSum's loop at run time")
	}
	if unrolled("licm", "unroll-runtime") {
		t.Error("Skip: unroll-runtime still unrolled the loop")
	}
	err := Optimize(paramSum(false), OptOptions{Skip: []string{"unroll-runtim"}})
	if err == nil || !strings.Contains(err.Error(), `"unroll-runtim"`) || !strings.Contains(err.Error(), "unroll-runtime") {
		t.Errorf("an unknown pass name: got %v, want an error naming it and the passes", err)
	}
}
