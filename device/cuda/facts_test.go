package cuda

import (
	_ "embed"
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// These tests need no GPU: they check how a launch picks its entry point
// from the code's variants, and the launch facts that decide the fast one.

func TestEntryName(t *testing.T) {
	all := &backend.Code{Entry: "k", EntryNC: "k_nc", EntryFast: "k_fast", EntryFastNC: "k_fast_nc"}
	noFastNC := &backend.Code{Entry: "k", EntryNC: "k_nc", EntryFast: "k_fast"}
	plain := &backend.Code{Entry: "k"}
	for _, c := range []struct {
		code     *backend.Code
		nc, fast bool
		want     string
	}{
		{all, false, false, "k"},
		{all, true, false, "k_nc"},
		{all, false, true, "k_fast"},
		{all, true, true, "k_fast_nc"},
		{noFastNC, true, true, "k_fast"}, // the facts' variant wins
		{noFastNC, true, false, "k_nc"},
		{plain, true, true, "k"}, // a variant the code lacks is never chosen
		{plain, false, true, "k"},
		{&backend.Code{Entry: "k", EntryFastNC: "k_fast_nc"}, true, true, "k"},
	} {
		if got := EntryName(c.code, c.nc, c.fast); got != c.want {
			t.Errorf("EntryName(%+v, nc=%v, fast=%v) = %q, want %q", *c.code, c.nc, c.fast, got, c.want)
		}
	}
}

type factsStruct struct {
	A int32
	B int64
	C bool
}

// factsKernel takes (a float32, x []float32, n int32, s factsStruct, y
// []float32): PTX parameters 0 a, 1 x_ptr, 2 x_len, 3 n, 4 s (24 bytes),
// 5 y_ptr, 6 y_len, 7 the trap record.
func factsKernel(code *backend.Code) *backend.Kernel {
	return &backend.Kernel{Name: "facts.K", Params: []reflect.Type{
		reflect.TypeFor[float32](), f32s, reflect.TypeFor[int32](), reflect.TypeFor[factsStruct](), f32s,
	}, Code: code, Dims: 1}
}

func factsArgs(xLen, yLen int, n int32) []backend.Arg {
	return []backend.Arg{
		{Value: reflect.ValueOf(float32(1.5))},
		{Mem: &memory{ptr: 0x1000, n: xLen, size: 4 * xLen, elem: reflect.TypeFor[float32]()}},
		{Value: reflect.ValueOf(n)},
		{Value: reflect.ValueOf(factsStruct{A: -7, B: 0x0102030405060708, C: true})},
		{Mem: &memory{ptr: 0x100000, n: yLen, size: 4 * yLen, elem: reflect.TypeFor[float32]()}},
	}
}

// TestParamsRead: the reader launch facts evaluate over reads each PTX
// parameter's own bytes, little-endian, and refuses bytes outside it.
func TestParamsRead(t *testing.T) {
	p, err := marshalParams(factsKernel(nil), factsArgs(7, 5, -3), 0x9000)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		i, off, size int
		want         uint64
		ok           bool
	}{
		{0, 0, 4, 0x3fc00000, true}, // float32 1.5
		{0, 0, 8, 0, false},         // a float32 has 4 bytes
		{0, 2, 2, 0x3fc0, true},
		{1, 0, 8, 0x1000, true},
		{2, 0, 8, 7, true},
		{2, 0, 4, 7, true},
		{3, 0, 4, 0xfffffffd, true}, // int32 -3
		{3, 4, 4, 0, false},
		{4, 0, 4, 0xfffffff9, true}, // s.A
		{4, 8, 8, 0x0102030405060708, true},
		{4, 9, 2, 0x0607, true},
		{4, 16, 1, 1, true}, // s.C
		{4, 20, 4, 0, true}, // padding, inside the struct's 24 bytes
		{4, 20, 8, 0, false},
		{5, 0, 8, 0x100000, true},
		{6, 0, 8, 5, true},
		{7, 0, 8, 0x9000, true}, // the trap record
		{8, 0, 8, 0, false},     // no such parameter
		{-1, 0, 8, 0, false},
		{2, -1, 1, 0, false},
		{2, 0, 0, 0, false},
		{2, 0, 9, 0, false},
		{2, 1 << 62, 8, 0, false},
		{2, -1 << 62, 8, 0, false},
	} {
		got, ok := p.read(c.i, c.off, c.size)
		if got != c.want || ok != c.ok {
			t.Errorf("read(%d, %d, %d) = %#x, %v; want %#x, %v", c.i, c.off, c.size, got, ok, c.want, c.ok)
		}
	}
}

// fastFacts hold when len(y) <= len(x), n > 0 (a signed test of the
// int32), s.B is 0x0102030405060708, the block's x extent is at most 256
// and the grid's y extent is 1.
var fastFacts = &backend.Facts{Ops: []backend.FactOp{
	{Op: "param", Kind: "i64", Index: 2},                // 0 len(x)
	{Op: "param", Kind: "i64", Index: 6},                // 1 len(y)
	{Op: "le", Kind: "bool", Args: []int{1, 0}},         // 2
	{Op: "param", Kind: "i32", Index: 3},                // 3 n
	{Op: "const", Kind: "i32"},                          // 4 0
	{Op: "gt", Kind: "bool", Args: []int{3, 4}},         // 5 n > 0
	{Op: "param", Kind: "i64", Index: 4, Imm: 8},        // 6 s.B
	{Op: "const", Kind: "i64", Imm: 0x0102030405060708}, // 7
	{Op: "eq", Kind: "bool", Args: []int{6, 7}},         // 8
	{Op: "special", Kind: "u32", Index: 0},              // 9 ntid.x
	{Op: "const", Kind: "u32", Imm: 256},                // 10
	{Op: "le", Kind: "bool", Args: []int{9, 10}},        // 11
	{Op: "special", Kind: "u32", Index: 4},              // 12 nctaid.y
	{Op: "const", Kind: "u32", Imm: 1},                  // 13
	{Op: "eq", Kind: "bool", Args: []int{12, 13}},       // 14
}, Result: []int{2, 5, 8, 11, 14}}

// TestLaunchFacts: the fast entry point is chosen exactly when the facts
// hold for the launch's arguments and shape (extents below 1 counting as
// 1, as the driver gets them), and only for code that has one.
func TestLaunchFacts(t *testing.T) {
	code := &backend.Code{Entry: "k", EntryNC: "k_nc", EntryFast: "k_fast", EntryFastNC: "k_fast_nc", Facts: fastFacts}
	k := factsKernel(code)
	grid, block := gpu.Dim3{X: 4}, gpu.Dim3{X: 256, Y: 1, Z: 1} // grid Y and Z 0: extent 1
	for _, c := range []struct {
		name        string
		xLen, yLen  int
		n           int32
		grid, block gpu.Dim3
		want        bool
	}{
		{"facts hold", 7, 5, 3, grid, block, true},
		{"equal lengths", 5, 5, 3, grid, block, true},
		{"y longer than x", 5, 7, 3, grid, block, false},
		{"n negative (signed compare)", 7, 5, -3, grid, block, false},
		{"n zero", 7, 5, 0, grid, block, false},
		{"block too wide", 7, 5, 3, grid, gpu.Dim3{X: 512, Y: 1, Z: 1}, false},
		{"grid y 2", 7, 5, 3, gpu.Dim3{X: 4, Y: 2, Z: 1}, block, false},
		{"grid y 1 given", 7, 5, 3, gpu.Dim3{X: 4, Y: 1, Z: 1}, block, true},
	} {
		args := factsArgs(c.xLen, c.yLen, c.n)
		p, err := marshalParams(k, args, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := launchFacts(code, p, c.grid, c.block); got != c.want {
			t.Errorf("%s: launchFacts = %v, want %v", c.name, got, c.want)
		}
		// The key Launch uses: nc by the buffers (distinct here), fast
		// by the facts; and what LaunchChoice reports.
		key := launchKey(k, c.grid, c.block, args, p)
		if want := (entryKey{code, true, c.want}); key != want {
			t.Errorf("%s: launchKey = %+v, want %+v", c.name, key, want)
		}
		nc, fast, err := (*Backend)(nil).LaunchChoice(k, c.grid, c.block, args)
		if err != nil || !nc || fast != c.want {
			t.Errorf("%s: LaunchChoice = %v, %v, %v; want true, %v, nil", c.name, nc, fast, err, c.want)
		}
	}

	// Code without a fast variant, or without facts, never runs one.
	p, err := marshalParams(k, factsArgs(7, 5, 3), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*backend.Code{
		{Entry: "k", Facts: fastFacts},
		{Entry: "k", EntryFast: "k_fast"},
		{Entry: "k", EntryFast: "k_fast", Facts: &backend.Facts{Ops: fastFacts.Ops}}, // no result: no facts
		nil,
	} {
		if launchFacts(c, p, grid, block) {
			t.Errorf("launchFacts(%+v) = true for code without facts or a fast variant", c)
		}
	}
	// Aliased buffers: the coherent fast variant.
	args := factsArgs(7, 5, 3)
	args[4].Mem = args[1].Mem
	code.ReadOnly = []int{1}
	defer func() { code.ReadOnly = nil }()
	if key := launchKey(k, grid, block, args, p); key != (entryKey{code, false, true}) || EntryName(code, key.nc, key.fast) != "k_fast" {
		t.Errorf("aliased launch: key %+v, entry %q; want the coherent fast variant", key, EntryName(code, key.nc, key.fast))
	}
}

// TestMalformedFacts: facts that do not evaluate (as a newer or broken
// codegen might write) never fail or crash a launch: the launch takes the
// entry that is always correct.
func TestMalformedFacts(t *testing.T) {
	k := factsKernel(nil)
	p, err := marshalParams(k, factsArgs(7, 5, 3), 0)
	if err != nil {
		t.Fatal(err)
	}
	T := backend.FactOp{Op: "const", Kind: "bool", Imm: 1}
	for _, c := range []struct {
		name  string
		facts *backend.Facts
	}{
		{"unknown op", &backend.Facts{Ops: []backend.FactOp{{Op: "frobnicate", Kind: "bool"}}, Result: []int{0}}},
		{"unknown kind", &backend.Facts{Ops: []backend.FactOp{{Op: "const", Kind: "f32", Imm: 1}}, Result: []int{0}}},
		{"operand not earlier", &backend.Facts{Ops: []backend.FactOp{T, {Op: "and", Kind: "bool", Args: []int{0, 1}}}, Result: []int{1}}},
		{"negative operand", &backend.Facts{Ops: []backend.FactOp{T, {Op: "not", Kind: "bool", Args: []int{-1}}}, Result: []int{1}}},
		{"too few operands", &backend.Facts{Ops: []backend.FactOp{T, {Op: "select", Kind: "bool", Args: []int{0}}}, Result: []int{1}}},
		{"many operands", &backend.Facts{Ops: []backend.FactOp{T, {Op: "and", Kind: "bool", Args: []int{0, 0, 0, 0, 0}}}, Result: []int{1}}},
		{"no such parameter", &backend.Facts{Ops: []backend.FactOp{{Op: "param", Kind: "i64", Index: 99}, T}, Result: []int{1}}},
		{"negative parameter", &backend.Facts{Ops: []backend.FactOp{{Op: "param", Kind: "i64", Index: -1}, T}, Result: []int{1}}},
		{"offset past the parameter", &backend.Facts{Ops: []backend.FactOp{{Op: "param", Kind: "i64", Index: 2, Imm: 4}, T}, Result: []int{1}}},
		{"huge offset", &backend.Facts{Ops: []backend.FactOp{{Op: "param", Kind: "i64", Index: 4, Imm: 1 << 63}, T}, Result: []int{1}}},
		{"bool parameter", &backend.Facts{Ops: []backend.FactOp{{Op: "param", Kind: "bool", Index: 2}}, Result: []int{0}}},
		{"no such special", &backend.Facts{Ops: []backend.FactOp{{Op: "special", Kind: "u32", Index: 6}, T}, Result: []int{1}}},
		{"negative special", &backend.Facts{Ops: []backend.FactOp{{Op: "special", Kind: "u32", Index: -1}, T}, Result: []int{1}}},
		{"result out of range", &backend.Facts{Ops: []backend.FactOp{T}, Result: []int{1}}},
		{"negative result", &backend.Facts{Ops: []backend.FactOp{T}, Result: []int{-1}}},
		{"result not a bool", &backend.Facts{Ops: []backend.FactOp{{Op: "const", Kind: "u32", Imm: 1}}, Result: []int{0}}},
		{"no ops", &backend.Facts{Result: []int{0}}},
	} {
		code := &backend.Code{Entry: "k", EntryFast: "k_fast", Facts: c.facts}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: launchFacts panicked: %v", c.name, r)
				}
			}()
			if launchFacts(code, p, gpu.Dim3{X: 1}, gpu.Dim3{X: 1}) {
				t.Errorf("%s: launchFacts = true for malformed facts", c.name)
			}
		}()
	}
	// The same ops well formed do hold (the cases above fail for their
	// flaw, not for the fixture).
	ok := &backend.Code{Entry: "k", EntryFast: "k_fast", Facts: &backend.Facts{Ops: []backend.FactOp{{Op: "param", Kind: "i64", Index: 2}, T}, Result: []int{1}}}
	if !launchFacts(ok, p, gpu.Dim3{X: 1}, gpu.Dim3{X: 1}) {
		t.Error("launchFacts = false for well-formed facts that hold")
	}
}

// TestLaunchFactsAllocs: the facts run at every launch; their evaluation
// allocates at most the one array of values.
func TestLaunchFactsAllocs(t *testing.T) {
	code := &backend.Code{Entry: "k", EntryFast: "k_fast", Facts: fastFacts}
	p, err := marshalParams(factsKernel(code), factsArgs(7, 5, 3), 0)
	if err != nil {
		t.Fatal(err)
	}
	grid, block := gpu.Dim3{X: 4}, gpu.Dim3{X: 256}
	if !launchFacts(code, p, grid, block) {
		t.Fatal("facts do not hold")
	}
	if n := testing.AllocsPerRun(100, func() { launchFacts(code, p, grid, block) }); n > 1 {
		t.Errorf("launchFacts allocates %v times per launch, want at most 1", n)
	}
}

// mark.ptx holds four entry points that store 1, 2, 3 or 4 in out[0]: a
// kernel's Entry, EntryNC, EntryFast and EntryFastNC.
//
//go:embed testdata/mark.ptx
var markPTX []byte

// TestLaunchFactsGPU launches, on a GPU, kernels whose launch facts (n >= 4)
// hold for some launches and not for others, and checks which entry point
// each launch ran, the first and the later launches of each choice alike.
func TestLaunchFactsGPU(t *testing.T) {
	b := openOrSkip(t)
	facts := &backend.Facts{Ops: []backend.FactOp{
		{Op: "param", Kind: "i64", Index: 2},
		{Op: "const", Kind: "i64", Imm: 4},
		{Op: "ge", Kind: "bool", Args: []int{0, 1}},
	}, Result: []int{2}}
	i32s := reflect.TypeFor[[]int32]()
	out := upload(t, b, make([]int32, 4))
	for _, c := range []struct {
		name      string
		code      *backend.Code
		slow, hit int32 // what n = 3 and n = 5 store
	}{
		{"Entry and EntryFast", &backend.Code{PTX: markPTX, Entry: "hand_Mark", EntryFast: "hand_Mark_fast", Facts: facts}, 1, 3},
		{"all four", &backend.Code{PTX: markPTX, Entry: "hand_Mark", EntryNC: "hand_Mark_nc", EntryFast: "hand_Mark_fast", EntryFastNC: "hand_Mark_fast_nc", Facts: facts}, 2, 4},
		{"no EntryFastNC", &backend.Code{PTX: markPTX, Entry: "hand_Mark", EntryNC: "hand_Mark_nc", EntryFast: "hand_Mark_fast", Facts: facts}, 2, 3},
		{"no facts", &backend.Code{PTX: markPTX, Entry: "hand_Mark", EntryFast: "hand_Mark_fast"}, 1, 1},
	} {
		k := &backend.Kernel{Name: "hand.Mark", Pos: "hand.go:1", Params: []reflect.Type{i32s, reflect.TypeFor[int64]()}, Code: c.code, Dims: 1}
		for _, n := range []int64{3, 5, 5, 3, 4} {
			want := c.slow
			if n >= 4 {
				want = c.hit
			}
			args := []backend.Arg{{Mem: out}, {Value: reflect.ValueOf(n)}}
			if err := b.Launch(k, gpu.Dim3{X: 1}, gpu.Dim3{X: 1}, args); err != nil {
				t.Fatalf("%s, n=%d: %v", c.name, n, err)
			}
			got, err := download[int32](t, b, out)
			if err != nil {
				t.Fatalf("%s, n=%d: %v", c.name, n, err)
			}
			if got[0] != want {
				t.Errorf("%s, n=%d: the launch stored %d, want %d", c.name, n, got[0], want)
			}
		}
	}
}
