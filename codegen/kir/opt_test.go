package kir_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// fb is a small builder for hand-written kernel IR.
type fb struct {
	f   *Func
	cur *Block
}

func newFB(params ...Param) *fb {
	f := &Func{Name: "k", Params: params}
	return &fb{f: f, cur: f.NewBlock(BlockPlain, "entry")}
}

func (b *fb) v(op Op, t Type, args ...*Value) *Value { return b.f.NewValue(b.cur, op, t, args...) }

func (b *fb) c(t Type, bits uint64) *Value {
	v := b.v(OpConst, t)
	v.Imm = bits
	return v
}

func (b *fb) param(i int, t Type) *Value {
	v := b.v(OpParam, t)
	v.Index = i
	return v
}

func f32bits(x float32) uint64 { return uint64(math.Float32bits(x)) }

// out1 is a kernel parameter list with one output slice of n bytes.
var out1 = []Param{{Name: "out_ptr", Type: PtrTo(Global)}, {Name: "out_len", Type: TI64, Len: true}}

// run executes f on one thread with an output buffer of n bytes.
func run(t *testing.T, f *Func, n int) []byte {
	t.Helper()
	buf := &kirexec.Buffer{Name: "out", Data: make([]byte, n)}
	for i := 0; i+4 <= n; i += 4 {
		binary.LittleEndian.PutUint32(buf.Data[i:], math.Float32bits(0.5))
	}
	trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: uint64(n)}})
	if err != nil || trap != nil {
		t.Fatalf("run: trap %v, error %v\n%s", trap, err, Format(f))
	}
	return buf.Data
}

func verify(t *testing.T, f *Func) {
	t.Helper()
	if err := Verify(f); err != nil {
		t.Fatalf("Verify: %v\n%s", err, Format(f))
	}
}

func count(f *Func, op Op) int {
	n := 0
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op == op {
				n++
			}
		}
	}
	return n
}

func TestFoldConstantsGoSemantics(t *testing.T) {
	type c struct {
		name string
		op   Op
		t    Type
		args []uint64
		at   []Type // operand types when they differ from t
		want uint64
		ok   bool
	}
	i8, i32 := Type{Kind: I8}, TI32
	cases := []c{
		{"float32 division is the float32 quotient", OpDiv, TF32, []uint64{f32bits(1), f32bits(3)}, nil, f32bits(float32(1) / float32(3)), true},
		{"float32 1/65", OpDiv, TF32, []uint64{f32bits(1), f32bits(65)}, nil, f32bits(float32(1) / float32(65)), true},
		{"int8 wraps", OpAdd, i8, []uint64{127, 1}, nil, uint64(math.MaxUint64 - 127), true}, // -128 sign-extended
		{"int32 mul wraps", OpMul, i32, []uint64{1 << 30, 4}, nil, 0, true},
		{"shift past the width gives 0", OpShl, i32, []uint64{1, 40}, []Type{i32, TU32}, 0, true},
		{"signed shift past the width gives the sign", OpShr, i32, []uint64{uint64(math.MaxUint64), 40}, []Type{i32, TU32}, uint64(math.MaxUint64), true},
		{"signed division truncates", OpDiv, TI64, []uint64{uint64(1<<64 - 7), 2}, nil, uint64(1<<64 - 3), true},
		{"division by zero is left to the check", OpDiv, TI64, []uint64{7, 0}, nil, 0, false},
		{"MinInt/-1 is left to the lowering", OpDiv, TI64, []uint64{1 << 63, uint64(math.MaxUint64)}, nil, 0, false},
		{"NaN != NaN", OpNe, TBool, []uint64{f32bits(float32(math.NaN())), f32bits(float32(math.NaN()))}, []Type{TF32, TF32}, 1, true},
		{"NaN >= 1 is false", OpGe, TBool, []uint64{f32bits(float32(math.NaN())), f32bits(1)}, []Type{TF32, TF32}, 0, true},
		{"float→int in range", OpConvert, TI32, []uint64{f32bits(-2.75)}, []Type{TF32}, uint64(math.MaxUint64 - 1), true},
		{"float→int out of range is the device's", OpConvert, TI32, []uint64{f32bits(3e9)}, []Type{TF32}, 0, false},
		{"int→float32 rounds", OpConvert, TF32, []uint64{1<<24 + 1}, []Type{TI64}, f32bits(1 << 24), true},
	}
	for _, tc := range cases {
		b := newFB()
		var args []*Value
		for i, a := range tc.args {
			at := tc.t
			if tc.at != nil {
				at = tc.at[i]
			}
			args = append(args, b.c(at, a))
		}
		v := b.v(tc.op, tc.t, args...)
		got, ok := EvalConst(v)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%s: EvalConst = %#x, %v; want %#x, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestFoldConstantsBranches folds a branch on a constant comparison: the
// untaken arm disappears and the phi that merged the arms loses its edge.
func TestFoldConstantsBranches(t *testing.T) {
	b := newFB(out1...)
	p := b.param(0, PtrTo(Global))
	cond := b.v(OpLt, TBool, b.c(TI64, 2), b.c(TI64, 3))
	then := b.f.NewBlock(BlockIfThen, "then")
	els := b.f.NewBlock(BlockIfElse, "else")
	done := b.f.NewBlock(BlockIfDone, "done")
	b.cur.Branch(cond, then, els)
	b.cur = then
	x := b.v(OpDiv, TF32, b.c(TF32, f32bits(1)), b.c(TF32, f32bits(7)))
	then.Jump(done)
	b.cur = els
	y := b.c(TF32, f32bits(5))
	els.Jump(done)
	b.cur = done
	phi := b.f.NewPhi(done, TF32)
	phi.Args = []*Value{x, y}
	b.v(OpStore, Type{}, p, phi)
	done.Return()
	verify(t, b.f)
	before := run(t, b.f, 4)
	if FoldConstants(b.f) == 0 {
		t.Fatal("nothing folded")
	}
	verify(t, b.f)
	if len(b.f.Blocks) != 3 || count(b.f, OpDiv) != 0 {
		t.Errorf("the else arm or the division survived:\n%s", Format(b.f))
	}
	if after := run(t, b.f, 4); string(after) != string(before) || binary.LittleEndian.Uint32(after) != math.Float32bits(float32(1)/7) {
		t.Errorf("stored %x, want %x", after, before)
	}
}

// dim3Local builds the shape gpu.Dim3 takes when a kernel assigns its
// fields one by one: a 24-byte local, zeroed, written field by field in
// both arms of a branch, read after the merge.
func dim3Local() *Func {
	b := newFB(out1...)
	p := b.param(0, PtrTo(Global))
	l := b.v(OpLocal, PtrTo(Local))
	l.Imm, l.Index = 24, 8
	field := func(off int64) *Value { return b.v(OpPtrAdd, PtrTo(Local), l, b.c(TI64, uint64(off))) }
	for _, off := range []int64{0, 8, 16} {
		b.v(OpStore, Type{}, field(off), b.c(TI64, 0))
	}
	tid := b.v(OpSpecial, TU32)
	tid.Index = ThreadIdxX
	cond := b.v(OpEq, TBool, tid, b.c(TU32, 0))
	then := b.f.NewBlock(BlockIfThen, "then")
	done := b.f.NewBlock(BlockIfDone, "done")
	b.cur.Branch(cond, then, done)
	b.cur = then
	b.v(OpStore, Type{}, field(8), b.c(TI64, 5))
	b.v(OpStore, Type{}, field(16), b.c(TI64, 7))
	then.Jump(done)
	b.cur = done
	x := b.v(OpLoad, TI64, field(0))
	y := b.v(OpLoad, TI64, field(8))
	z := b.v(OpLoad, TI64, field(16))
	s := b.v(OpAdd, TI64, b.v(OpAdd, TI64, x, y), z)
	b.v(OpStore, Type{}, p, s)
	done.Return()
	return b.f
}

func TestScalarReplaceDim3(t *testing.T) {
	f := dim3Local()
	verify(t, f)
	before := run(t, f, 8)
	if n := ScalarReplace(f); n != 3 {
		t.Errorf("ScalarReplace replaced %d slots, want 3\n%s", n, Format(f))
	}
	verify(t, f)
	if count(f, OpLocal) != 0 || count(f, OpLoad) != 0 {
		t.Errorf("the local is still in memory:\n%s", Format(f))
	}
	if count(f, OpPhi) < 2 {
		t.Errorf("want phis for the fields written in one arm:\n%s", Format(f))
	}
	if after := run(t, f, 8); string(after) != string(before) {
		t.Errorf("result %x, want %x", after, before)
	}
}

// A local whose address escapes (here into an atomic) or that is read at
// a type other than the one written stays in memory.
func TestScalarReplaceKeepsEscapingLocals(t *testing.T) {
	for name, change := range map[string]func(f *Func){
		"atomic": func(f *Func) {
			var l, c *Value
			for _, v := range f.Blocks[0].Values {
				if v.Op == OpLocal {
					l = v
				}
				if v.Op == OpConst && v.Type == TI64 && c == nil {
					c = v
				}
			}
			f.NewValue(f.Blocks[0], OpAtomic, TI64, l, c)
		},
		"type pun": func(f *Func) {
			for _, v := range f.Blocks[len(f.Blocks)-1].Values {
				if v.Op == OpLoad {
					w := f.NewValue(v.Block, OpLoad, TF64, v.Args[0])
					f.NewValue(v.Block, OpStore, Type{}, f.Blocks[0].Values[0], w)
					break
				}
			}
		},
	} {
		f := dim3Local()
		change(f)
		if err := Verify(f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := ScalarReplace(f); n != 0 {
			t.Errorf("%s: ScalarReplace replaced %d slots of an escaping local\n%s", name, n, Format(f))
		}
		verify(t, f)
	}
}

// hornerLoop builds x := out[0]; p := 0; for k := 64; k >= 0; k-- { p = p*x + 1/float32(k+1) }; out[0] = p.
func hornerLoop() *Func {
	b := newFB(out1...)
	p := b.param(0, PtrTo(Global))
	xv := b.v(OpLoad, TF32, p)
	start := b.c(TI64, 64)
	zero := b.c(TF32, 0)
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	b.cur.Jump(head)
	b.cur = head
	k := b.f.NewPhi(head, TI64)
	acc := b.f.NewPhi(head, TF32)
	head.Branch(b.v(OpGe, TBool, k, b.c(TI64, 0)), body, done)
	b.cur = body
	kf := b.v(OpConvert, TF32, b.v(OpAdd, TI64, k, b.c(TI64, 1)))
	coef := b.v(OpDiv, TF32, b.c(TF32, f32bits(1)), kf)
	next := b.v(OpAdd, TF32, b.v(OpMul, TF32, acc, xv), coef)
	kn := b.v(OpSub, TI64, k, b.c(TI64, 1))
	body.Jump(head)
	k.Args = []*Value{start, kn}
	acc.Args = []*Value{zero, next}
	b.cur = done
	b.v(OpStore, Type{}, p, acc)
	done.Return()
	return b.f
}

func TestUnrollHorner(t *testing.T) {
	f := hornerLoop()
	verify(t, f)
	before := run(t, f, 4)
	if n := Unroll(f); n != 1 {
		t.Fatalf("Unroll = %d, want 1\n%s", n, Format(f))
	}
	verify(t, f)
	FoldConstants(f)
	verify(t, f)
	if count(f, OpPhi) != 0 || count(f, OpDiv) != 0 || count(f, OpConvert) != 0 {
		t.Errorf("after unrolling and folding, want no phi, division or conversion:\n%s", Format(f))
	}
	if count(f, OpMul) != 65 {
		t.Errorf("want 65 multiplications, one per term; got %d", count(f, OpMul))
	}
	if after := run(t, f, 4); string(after) != string(before) {
		t.Errorf("result %x, want %x", after, before)
	}
}

// A loop with a bound that is not constant, or more trips than the
// heuristic allows, stays a loop.
func TestUnrollKeepsLongOrUnknownLoops(t *testing.T) {
	f := hornerLoop()
	// k starts at 10000: past UnrollMaxTrips.
	f.Blocks[0].Values[2].Imm = 10000
	if Unroll(f) != 0 {
		t.Errorf("a 10001-trip loop was unrolled")
	}
	f = hornerLoop()
	b := f.Blocks[0]
	n := f.NewValue(b, OpParam, TI64)
	n.Index = 1
	f.Params = append(f.Params, Param{Name: "n", Type: TI64})
	b.Values = append([]*Value{n}, b.Values[:len(b.Values)-1]...)
	cmp := f.Blocks[1].Cond
	cmp.Args[1] = n
	verify(t, f)
	if Unroll(f) != 0 {
		t.Errorf("a loop with a parameter bound was unrolled")
	}
}

// TestUnrollCountsWrapAround: an int8 counter from 120 stepping by 10
// while it is positive wraps after one step: one trip, as Go runs it.
func TestUnrollCountsWrapAround(t *testing.T) {
	b := newFB(out1...)
	p := b.param(0, PtrTo(Global))
	i8 := Type{Kind: I8}
	zero := b.c(TI64, 0)
	start := b.c(i8, 120)
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	b.cur.Jump(head)
	b.cur = head
	i := b.f.NewPhi(head, i8)
	n := b.f.NewPhi(head, TI64)
	head.Branch(b.v(OpGt, TBool, i, b.c(i8, 0)), body, done)
	b.cur = body
	in := b.v(OpAdd, i8, i, b.c(i8, 10))
	nn := b.v(OpAdd, TI64, n, b.c(TI64, 1))
	body.Jump(head)
	i.Args = []*Value{start, in}
	n.Args = []*Value{zero, nn}
	b.cur = done
	b.v(OpStore, Type{}, p, n)
	done.Return()
	verify(t, b.f)
	before := run(t, b.f, 8)
	if Unroll(b.f) != 1 {
		t.Fatalf("not unrolled\n%s", Format(b.f))
	}
	verify(t, b.f)
	FoldConstants(b.f)
	after := run(t, b.f, 8)
	if string(after) != string(before) || binary.LittleEndian.Uint64(after) != 1 {
		t.Errorf("trips %d after unrolling, %d before; want 1", binary.LittleEndian.Uint64(after), binary.LittleEndian.Uint64(before))
	}
}

// TestHoistInvariants moves x*y out of a loop that uses it, but not a load.
func TestHoistInvariants(t *testing.T) {
	b := newFB(append(out1, Param{Name: "n", Type: TI64})...)
	p := b.param(0, PtrTo(Global))
	n := b.param(2, TI64)
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	zero := b.c(TI64, 0)
	b.cur.Jump(head)
	b.cur = head
	i := b.f.NewPhi(head, TI64)
	s := b.f.NewPhi(head, TI64)
	head.Branch(b.v(OpLt, TBool, i, n), body, done)
	b.cur = body
	inv := b.v(OpMul, TI64, n, n)
	ld := b.v(OpLoad, TI64, p)
	s1 := b.v(OpAdd, TI64, b.v(OpAdd, TI64, s, inv), ld)
	i1 := b.v(OpAdd, TI64, i, b.c(TI64, 1))
	body.Jump(head)
	i.Args = []*Value{zero, i1}
	s.Args = []*Value{zero, s1}
	b.cur = done
	b.v(OpStore, Type{}, p, s)
	done.Return()
	verify(t, b.f)
	if HoistInvariants(b.f) == 0 {
		t.Fatal("nothing hoisted")
	}
	verify(t, b.f)
	if inv.Block != b.f.Blocks[0] {
		t.Errorf("n*n stays in b%d", inv.Block.Index)
	}
	if ld.Block != body {
		t.Errorf("the load moved to b%d", ld.Block.Index)
	}
}

// TestSplitConstOffsets: x[i+1] and x[i-1] share the address of x[i].
func TestSplitConstOffsets(t *testing.T) {
	b := newFB(append(out1, Param{Name: "i", Type: TI64})...)
	p := b.param(0, PtrTo(Global))
	i := b.param(2, TI64)
	four := b.c(TI64, 4)
	addr := func(d int64) *Value {
		idx := b.v(OpAdd, TI64, i, b.c(TI64, uint64(d)))
		return b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, idx, four))
	}
	b.v(OpStore, Type{}, addr(1), b.c(TI32, 1))
	b.v(OpStore, Type{}, addr(-1), b.c(TI32, 2))
	b.v(OpStore, Type{}, addr(0), b.c(TI32, 3))
	b.cur.Return()
	verify(t, b.f)
	args := func() []kirexec.Arg {
		return []kirexec.Arg{{Buf: &kirexec.Buffer{Name: "out", Data: make([]byte, 16)}}, {Bits: 16}, {Bits: 1}}
	}
	a0 := args()
	if _, err := kirexec.Run(b.f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, a0); err != nil {
		t.Fatal(err)
	}
	if n := SplitConstOffsets(b.f); n != 2 {
		t.Errorf("split %d offsets, want 2", n)
	}
	Simplify(b.f)
	verify(t, b.f)
	if got := count(b.f, OpMul); got != 1 {
		t.Errorf("want one i*4 for the three addresses, got %d:\n%s", got, Format(b.f))
	}
	a1 := args()
	if _, err := kirexec.Run(b.f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, a1); err != nil {
		t.Fatal(err)
	}
	if string(a0[0].Buf.Data) != string(a1[0].Buf.Data) {
		t.Errorf("stores %x, want %x", a1[0].Buf.Data, a0[0].Buf.Data)
	}
}

// TestSplitConstOffsetsNested: the row-major neighbours of a 5-point
// stencil, x[i*n+(j-1)], x[i*n+(j+1)], x[(i*n+j)+2] and x[i*n+j] - the
// constant inside a sum - share the address of x[i*n+j], and
// x[5-(j+i*n)] (a constant minus the index, no negation to build) keeps
// its own.
func TestSplitConstOffsetsNested(t *testing.T) {
	b := newFB(append(out1, Param{Name: "i", Type: TI64}, Param{Name: "j", Type: TI64}, Param{Name: "n", Type: TI64})...)
	p := b.param(0, PtrTo(Global))
	i, j, n := b.param(2, TI64), b.param(3, TI64), b.param(4, TI64)
	four := b.c(TI64, 4)
	row := b.v(OpMul, TI64, i, n)
	store := func(idx *Value, x uint64) {
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, idx, four)), b.c(TI32, x))
	}
	store(b.v(OpAdd, TI64, row, b.v(OpSub, TI64, j, b.c(TI64, 1))), 1)
	store(b.v(OpAdd, TI64, row, b.v(OpAdd, TI64, b.c(TI64, 1), j)), 2)
	store(b.v(OpAdd, TI64, b.v(OpAdd, TI64, row, j), b.c(TI64, 2)), 3)
	store(b.v(OpAdd, TI64, row, j), 4)
	store(b.v(OpSub, TI64, b.c(TI64, 5), b.v(OpAdd, TI64, j, row)), 5)
	b.cur.Return()
	verify(t, b.f)
	args := func() []kirexec.Arg {
		return []kirexec.Arg{{Buf: &kirexec.Buffer{Name: "out", Data: make([]byte, 32)}}, {Bits: 32}, {Bits: 1}, {Bits: 2}, {Bits: 3}}
	}
	a0 := args()
	if _, err := kirexec.Run(b.f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, a0); err != nil {
		t.Fatal(err)
	}
	if k := SplitConstOffsets(b.f); k != 3 {
		t.Errorf("split %d offsets, want 3\n%s", k, Format(b.f))
	}
	Simplify(b.f)
	verify(t, b.f)
	if got := count(b.f, OpMul); got != 3 {
		t.Errorf("want i*n, one (i*n+j)*4 for four addresses and the fifth's, got %d multiplications:\n%s", got, Format(b.f))
	}
	a1 := args()
	if _, err := kirexec.Run(b.f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, a1); err != nil {
		t.Fatal(err)
	}
	if string(a0[0].Buf.Data) != string(a1[0].Buf.Data) {
		t.Errorf("stores %x, want %x", a1[0].Buf.Data, a0[0].Buf.Data)
	}
}

// TestOptimizeVerifiesEveryPass runs the whole pipeline with verification.
func TestOptimizeVerifiesEveryPass(t *testing.T) {
	for _, f := range []*Func{hornerLoop(), dim3Local()} {
		before := run(t, f, 8)
		if err := Optimize(f, OptOptions{Verify: true}); err != nil {
			t.Fatal(err)
		}
		if after := run(t, f, 8); string(after) != string(before) {
			t.Errorf("%s", strings.TrimSpace(Format(f)))
		}
	}
}

// gridStrideSum builds, for the thread's x index i0 and stride ntid.x,
// sum := 0; for i := i0; i < len(x); i += stride { sum += x[i] }; x[0] = sum
// over int32 elements (the bounds check on x[i] already removed, as
// EliminateBoundsChecks does for this loop).
func gridStrideSum() *Func {
	b := newFB(out1...)
	p := b.param(0, PtrTo(Global))
	n := b.param(1, TI64)
	tid := b.v(OpSpecial, TU32)
	tid.Index = ThreadIdxX
	ntid := b.v(OpSpecial, TU32)
	ntid.Index = BlockDimX
	start := b.v(OpConvert, TI64, tid)
	step := b.v(OpConvert, TI64, ntid)
	zero := b.c(TI32, 0)
	head := b.f.NewBlock(BlockLoopHeader, "for.loop")
	body := b.f.NewBlock(BlockLoopBody, "for.body")
	done := b.f.NewBlock(BlockLoopDone, "for.done")
	b.cur.Jump(head)
	b.cur = head
	i := b.f.NewPhi(head, TI64)
	s := b.f.NewPhi(head, TI32)
	head.Branch(b.v(OpLt, TBool, i, n), body, done)
	b.cur = body
	x := b.v(OpLoad, TI32, b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, i, b.c(TI64, 4))))
	s1 := b.v(OpAdd, TI32, s, x)
	i1 := b.v(OpAdd, TI64, i, step)
	body.Jump(head)
	i.Args = []*Value{start, i1}
	s.Args = []*Value{zero, s1}
	b.cur = done
	b.v(OpStore, Type{}, p, s)
	done.Return()
	return b.f
}

func runSum(t *testing.T, f *Func, n int) uint32 {
	t.Helper()
	data := make([]byte, 4*max(n, 1))
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(i*i+1))
	}
	buf := &kirexec.Buffer{Name: "x", Data: data}
	trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: uint64(n)}})
	if err != nil || trap != nil {
		t.Fatalf("n=%d: trap %v, error %v\n%s", n, trap, err, Format(f))
	}
	return binary.LittleEndian.Uint32(data)
}

func TestUnrollRuntime(t *testing.T) {
	f := gridStrideSum()
	verify(t, f)
	want := map[int]uint32{}
	for n := 0; n < 12; n++ {
		want[n] = runSum(t, gridStrideSum(), n)
	}
	if UnrollRuntime(f) != 1 {
		t.Fatalf("not unrolled\n%s", Format(f))
	}
	verify(t, f)
	MergeBlocks(f)
	verify(t, f)
	most := 0
	for _, b := range f.Blocks {
		loads := 0
		for _, v := range b.Values {
			if v.Op == OpLoad {
				loads++
			}
		}
		most = max(most, loads)
	}
	if most != UnrollFactor {
		t.Errorf("want %d loads in one block after unrolling and merging, got %d\n%s", UnrollFactor, most, Format(f))
	}
	for n := 0; n < 12; n++ {
		if got := runSum(t, f, n); got != want[n] {
			t.Errorf("n=%d: sum %d, want %d", n, got, want[n])
		}
	}
}

// A loop with a barrier, or whose step may be negative, is not unrolled
// at run time.
func TestUnrollRuntimeRefuses(t *testing.T) {
	f := gridStrideSum()
	body := f.Blocks[2]
	f.NewValue(body, OpBarrier, Type{})
	if UnrollRuntime(f) != 0 {
		t.Error("a loop with a barrier was unrolled")
	}
	g := gridStrideSum()
	var step *Value
	for _, v := range g.Blocks[0].Values {
		if v.Op == OpConvert && v.Args[0].Index == BlockDimX {
			step = v
		}
	}
	g.Params = append(g.Params, Param{Name: "s", Type: TI64})
	step.Op, step.Args, step.Index = OpParam, nil, 2 // an arbitrary int64: may be negative
	verify(t, g)
	if UnrollRuntime(g) != 0 {
		t.Error("a loop with a possibly negative step was unrolled")
	}
}

// TestChecksFirst: two checked loads and the arithmetic between them end
// up after both checks, in one block, and traps stay the same.
func TestChecksFirst(t *testing.T) {
	build := func() *Func {
		b := newFB(append(out1, Param{Name: "i", Type: TI64}, Param{Name: "j", Type: TI64})...)
		p := b.param(0, PtrTo(Global))
		n := b.param(1, TI64)
		load := func(idx *Value, pos int) *Value {
			ok := b.f.NewBlock(BlockPlain, "checked")
			trap := b.f.NewBlock(BlockPlain, "trap")
			cond := b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, b.v(OpMul, TI64, n, b.c(TI64, 1))))
			b.cur.Branch(cond, ok, trap)
			trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: pos, Args: [2]*Value{idx, n}})
			b.cur = ok
			return b.v(OpLoad, TI32, b.v(OpPtrAdd, PtrTo(Global), p, b.v(OpMul, TI64, idx, b.c(TI64, 1))))
		}
		x := load(b.param(2, TI64), 1)
		x2 := b.v(OpMul, TI32, x, x)
		y := load(b.param(3, TI64), 2)
		b.v(OpStore, Type{}, p, b.v(OpAdd, TI32, x2, y))
		b.cur.Return()
		return b.f
	}
	exec := func(f *Func, i, j uint64) (string, *kirexec.Trap) { return runOnBytes(t, f, i, j) }
	f := build()
	verify(t, f)
	if ChecksFirst(f) == 0 {
		t.Fatalf("nothing moved\n%s", Format(f))
	}
	verify(t, f)
	MergeBlocks(f)
	verify(t, f)
	last := f.Blocks[len(f.Blocks)-1]
	for _, b := range f.Blocks {
		if b.Term == TermReturn {
			last = b
		}
	}
	if n := count(&Func{Blocks: []*Block{last}}, OpLoad); n != 2 {
		t.Errorf("want both loads after the checks, in the last block; %d there\n%s", n, Format(f))
	}
	same := func(f *Func) {
		t.Helper()
		for _, ij := range [][2]uint64{{0, 1}, {4, 0}, {9, 1}, {1, 9}, {9, 9}} {
			wd, wt := exec(build(), ij[0], ij[1])
			gd, gt := exec(f, ij[0], ij[1])
			if wd != gd || (wt == nil) != (gt == nil) || (wt != nil && (wt.Code != gt.Code || wt.Pos != gt.Pos)) {
				t.Errorf("i=%d j=%d: got %x %+v, want %x %+v", ij[0], ij[1], gd, gt, wd, wt)
			}
		}
	}
	same(f)
	// CombineChecks: one branch on both conditions; the slow path still
	// traps at the first failing check with its own index.
	if CombineChecks(f) != 1 {
		t.Fatalf("checks not combined\n%s", Format(f))
	}
	verify(t, f)
	if !strings.Contains(Format(f), "and") {
		t.Errorf("no conjunction of the conditions:\n%s", Format(f))
	}
	same(f)
}

// TestFuseConditions: `if i < n && j < n { out[0] = 1 }` becomes one
// branch on both comparisons, with the same stores.
func TestFuseConditions(t *testing.T) {
	build := func() *Func {
		b := newFB(append(out1, Param{Name: "i", Type: TI64}, Param{Name: "j", Type: TI64})...)
		p := b.param(0, PtrTo(Global))
		n := b.param(1, TI64)
		i, j := b.param(2, TI64), b.param(3, TI64)
		second := b.f.NewBlock(BlockPlain, "cond.true")
		then := b.f.NewBlock(BlockIfThen, "if.then")
		done := b.f.NewBlock(BlockIfDone, "if.done")
		b.cur.Branch(b.v(OpLt, TBool, i, n), second, done)
		b.cur = second
		second.Branch(b.v(OpLt, TBool, b.v(OpAdd, TI64, j, b.c(TI64, 1)), n), then, done)
		b.cur = then
		b.v(OpStore, Type{}, p, b.c(Type{Kind: U8}, 1))
		then.Jump(done)
		b.cur = done
		done.Return()
		return b.f
	}
	f := build()
	verify(t, f)
	if FuseConditions(f) != 1 {
		t.Fatalf("not fused\n%s", Format(f))
	}
	verify(t, f)
	if len(f.Blocks) != 3 {
		t.Errorf("want 3 blocks after fusing:\n%s", Format(f))
	}
	for _, ij := range [][2]uint64{{0, 0}, {0, 3}, {4, 0}, {3, 4}} {
		var got, want [2]byte
		for k, g := range []*Func{build(), f} {
			buf := &kirexec.Buffer{Name: "x", Data: make([]byte, 4)}
			if _, err := kirexec.Run(g, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 4}, {Bits: ij[0]}, {Bits: ij[1]}}); err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				want[0] = buf.Data[0]
			} else {
				got[0] = buf.Data[0]
			}
		}
		if got != want {
			t.Errorf("i=%d j=%d: stored %d, want %d", ij[0], ij[1], got[0], want[0])
		}
	}
}

// TestFuseConditionsChain: `if x >= 1 && x < n-1 && y >= 1 && y < n-1
// && z >= 1 && z < n-1`, the guard of a 3-D stencil, whose condition
// blocks were created last-first (as the lowering of && creates them),
// becomes one branch: each block is small, though the chain together is
// above the bound of one block. Fusing a later block's successors first
// would make it too large for the entry to absorb and leave two exits.
func TestFuseConditionsChain(t *testing.T) {
	build := func() *Func {
		b := newFB(append(out1, Param{Name: "n", Type: TI64}, Param{Name: "x", Type: TI64}, Param{Name: "y", Type: TI64}, Param{Name: "z", Type: TI64})...)
		p := b.param(0, PtrTo(Global))
		n := b.param(2, TI64)
		xs := []*Value{b.param(3, TI64), b.param(3, TI64), b.param(4, TI64), b.param(4, TI64), b.param(5, TI64), b.param(5, TI64)}
		then := b.f.NewBlock(BlockIfThen, "if.then")
		done := b.f.NewBlock(BlockIfDone, "if.done")
		conds := make([]*Block, 5)
		for i := len(conds) - 1; i >= 0; i-- {
			conds[i] = b.f.NewBlock(BlockPlain, "cond.true")
		}
		test := func(i int) *Value {
			if i%2 == 0 {
				return b.v(OpGe, TBool, xs[i], b.c(TI64, 1))
			}
			return b.v(OpLt, TBool, xs[i], b.v(OpSub, TI64, n, b.c(TI64, 1)))
		}
		b.cur.Branch(test(0), conds[0], done)
		for i, c := range conds {
			b.cur = c
			next := then
			if i+1 < len(conds) {
				next = conds[i+1]
			}
			c.Branch(test(i+1), next, done)
		}
		b.cur = then
		b.v(OpStore, Type{}, p, b.c(Type{Kind: U8}, 1))
		then.Jump(done)
		b.cur = done
		done.Return()
		return b.f
	}
	f := build()
	verify(t, f)
	if got := FuseConditions(f); got != 5 {
		t.Fatalf("fused %d branches, want 5\n%s", got, Format(f))
	}
	verify(t, f)
	branches := 0
	for _, blk := range f.Blocks {
		if blk.Term == TermBranch {
			branches++
		}
	}
	if branches != 1 {
		t.Errorf("%d branches left, want 1:\n%s", branches, Format(f))
	}
	for _, xyz := range [][3]uint64{{1, 1, 1}, {0, 1, 1}, {1, 8, 1}, {1, 1, 9}, {8, 8, 8}, {9, 1, 1}, {3, 4, 5}, {1 << 63, 2, 2}} {
		var got, want byte
		for k, g := range []*Func{build(), f} {
			buf := &kirexec.Buffer{Name: "x", Data: make([]byte, 4)}
			if _, err := kirexec.Run(g, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 4}, {Bits: 10}, {Bits: xyz[0]}, {Bits: xyz[1]}, {Bits: xyz[2]}}); err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				want = buf.Data[0]
			} else {
				got = buf.Data[0]
			}
		}
		if got != want {
			t.Errorf("x,y,z=%v: stored %d, want %d", xyz, got, want)
		}
	}
}

// TestVersionChecks: two `if` bodies each holding a bounds check get a
// copy without the checks, entered when both hold; stores, loads and
// traps (code and position) stay those of the original for every input,
// and a value of the region used after it reaches its use through a phi.
func TestVersionChecks(t *testing.T) {
	build := func() *Func {
		b := newFB(append(out1, Param{Name: "i", Type: TI64}, Param{Name: "j", Type: TI64}, Param{Name: "g", Type: TI64})...)
		p := b.param(0, PtrTo(Global))
		n := b.param(1, TI64)
		i, j, g := b.param(2, TI64), b.param(3, TI64), b.param(4, TI64)
		var mid *Value
		guarded := func(idx *Value, k uint64, pos int) {
			body := b.f.NewBlock(BlockIfThen, "if.then")
			ok := b.f.NewBlock(BlockPlain, "checked")
			trap := b.f.NewBlock(BlockPlain, "trap")
			done := b.f.NewBlock(BlockIfDone, "if.done")
			b.cur.Branch(b.v(OpLt, TBool, idx, g), body, done)
			b.cur = body
			cond := b.v(OpLt, TBool, b.v(OpBitcast, TU64, idx), b.v(OpBitcast, TU64, n))
			body.Branch(cond, ok, trap)
			trap.TrapWith(Trap{Code: gpuabi.TrapIndex, Pos: pos, Args: [2]*Value{idx, n}})
			b.cur = ok
			x := b.v(OpLoad, Type{Kind: U8}, b.v(OpPtrAdd, PtrTo(Global), p, idx))
			b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 7-k)), x)
			ok.Jump(done)
			b.cur = done
		}
		guarded(i, 0, 1)
		mid = b.v(OpAdd, TI64, i, j)
		guarded(j, 1, 2)
		b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), p, b.c(TI64, 6)), b.v(OpConvert, Type{Kind: U8}, mid))
		b.cur.Return()
		return b.f
	}
	exec := func(f *Func, i, j, g uint64) (string, *kirexec.Trap) {
		buf := &kirexec.Buffer{Name: "x", Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
		trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 5}, {Bits: i}, {Bits: j}, {Bits: g}})
		if err != nil {
			t.Fatal(err)
		}
		return string(buf.Data), trap
	}
	f := build()
	verify(t, f)
	if n := VersionChecks(f); n != 1 {
		t.Fatalf("VersionChecks = %d, want 1\n%s", n, Format(f))
	}
	verify(t, f)
	FoldConstants(f)
	MergeBlocks(f)
	verify(t, f)
	if n := count(f, OpLoad); n != 4 {
		t.Errorf("want the two loads in two copies, got %d loads\n%s", n, Format(f))
	}
	for _, c := range [][3]uint64{{0, 1, 9}, {4, 3, 9}, {6, 1, 9}, {1, 6, 9}, {6, 6, 9}, {6, 6, 0}, {6, 1, 5}, {2, 7, 7}, {2, 7, 5}} {
		wd, wt := exec(build(), c[0], c[1], c[2])
		gd, gt := exec(f, c[0], c[1], c[2])
		if wd != gd || (wt == nil) != (gt == nil) || (wt != nil && (wt.Code != gt.Code || wt.Pos != gt.Pos)) {
			t.Errorf("i=%d j=%d g=%d: got %x %+v, want %x %+v", c[0], c[1], c[2], gd, gt, wd, wt)
		}
	}
}

// runOnBytes runs f, a one-thread kernel of parameters (x []byte of
// length 8 = 1..8, 5, i, j), and returns x after it and the trap.
func runOnBytes(t *testing.T, f *Func, i, j uint64) (string, *kirexec.Trap) {
	t.Helper()
	buf := &kirexec.Buffer{Name: "x", Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 5}, {Bits: i}, {Bits: j}})
	if err != nil {
		t.Fatal(err)
	}
	return string(buf.Data), trap
}
