package gpuabi

import "testing"

func TestLayoutPush(t *testing.T) {
	// func(t gpu.Thread, ok bool, a float32, x []float32, s struct{a int8; b int64}, n int)
	l := LayoutPush([]Param{
		{Kind: Scalar, Size: 1, Align: 1},
		{Kind: Scalar, Size: 4, Align: 4},
		{Kind: Slice},
		{Kind: Struct, Size: 16, Align: 8},
		{Kind: Scalar, Size: 8, Align: 8},
	})
	want := []Slot{{0, 4}, {4, 4}, {8, 8}, {16, 8}, {24, 16}, {40, 8}}
	if len(l.Slots) != len(want) {
		t.Fatalf("slots = %v, want %v", l.Slots, want)
	}
	for i := range want {
		if l.Slots[i] != want[i] {
			t.Errorf("slot %d = %v, want %v", i, l.Slots[i], want[i])
		}
	}
	if l.Trap != (Slot{48, 8}) || l.Size != 56 {
		t.Errorf("trap %v size %d, want {48 8} 56", l.Trap, l.Size)
	}
	if got := l.Entry[2]; len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("entry of the slice = %v, want [2 3]", got)
	}
}

func TestTrapMessages(t *testing.T) {
	if got := TrapIndex.Message(5, 4); got != "index out of range [5] with length 4" {
		t.Errorf("got %q", got)
	}
	if got := TrapCode(99).Message(0, 0); got != "trap code 99" {
		t.Errorf("got %q", got)
	}
}

func TestLayoutPushIndirect(t *testing.T) {
	// 8 slices and the trap address: 136 bytes, over Vulkan's 128.
	var ps []Param
	for range 8 {
		ps = append(ps, Param{Kind: Slice})
	}
	l := LayoutPush(ps)
	if l.Size != 136 || !l.Indirect || l.PushSize != 8 {
		t.Errorf("8 slices: size %d indirect %v push %d, want 136 true 8", l.Size, l.Indirect, l.PushSize)
	}
	// 7 slices: 120 bytes, in push constants.
	l = LayoutPush(ps[:7])
	if l.Size != 120 || l.Indirect || l.PushSize != 120 {
		t.Errorf("7 slices: size %d indirect %v push %d, want 120 false 120", l.Size, l.Indirect, l.PushSize)
	}
}

// TestFactsEval: a program of every op class computes Go's results, and a
// malformed program is an error naming the op, never an answer.
func TestFactsEval(t *testing.T) {
	params := map[int]uint64{0: 1000, 1: uint64(1 << 40), 2: ^uint64(0)}
	param := func(i, off, size int) (uint64, bool) {
		v, ok := params[i]
		if !ok || off != 0 {
			return 0, false
		}
		if size < 8 {
			v &= 1<<(8*size) - 1
		}
		return v, true
	}
	fs := Facts{Ops: []FactOp{
		{Op: "param", Kind: "i64", Index: 0},         // 0: n = 1000
		{Op: "special", Kind: "u32", Index: 0},       // 1: ntid.x = 256
		{Op: "convert", Kind: "i64", Args: []int{1}}, // 2
		{Op: "mul", Kind: "i64", Args: []int{0, 2}},  // 3: 256000
		{Op: "param", Kind: "i64", Index: 1},         // 4: len = 2^40
		{Op: "bitcast", Kind: "u64", Args: []int{3}}, // 5
		{Op: "bitcast", Kind: "u64", Args: []int{4}}, // 6
		{Op: "lt", Kind: "bool", Args: []int{5, 6}},  // 7: true
		{Op: "param", Kind: "i32", Index: 2},         // 8: -1 as i32
		{Op: "const", Kind: "i32", Imm: 0},           // 9
		{Op: "lt", Kind: "bool", Args: []int{8, 9}},  // 10: -1 < 0 signed: true
		{Op: "convert", Kind: "u32", Args: []int{8}}, // 11: 0xffffffff
		{Op: "lt", Kind: "bool", Args: []int{11, 9}}, // 12: unsigned: false
		{Op: "not", Kind: "bool", Args: []int{12}},   // 13: true
		{Op: "const", Kind: "u64", Imm: 70},          // 14
		{Op: "shl", Kind: "i64", Args: []int{0, 14}}, // 15: shift >= width: 0
		{Op: "eq", Kind: "bool", Args: []int{15, 9}}, // 16: 0 == 0 (i32 0 extends to 0): true
		{Op: "shr", Kind: "i32", Args: []int{8, 14}}, // 17: sign fill: -1
		{Op: "eq", Kind: "bool", Args: []int{17, 8}}, // 18: true
	}, Result: []int{7, 10, 13, 16, 18}}
	ok, err := fs.Eval(param, [3]uint32{256, 1, 1}, [3]uint32{4, 1, 1})
	if err != nil || !ok {
		t.Fatalf("Eval = %v, %v; want true", ok, err)
	}
	fs.Result = append(fs.Result, 12)
	if ok, err := fs.Eval(param, [3]uint32{256, 1, 1}, [3]uint32{4, 1, 1}); err != nil || ok {
		t.Fatalf("Eval with a false fact = %v, %v; want false", ok, err)
	}
	for _, bad := range []Facts{
		{Ops: []FactOp{{Op: "add", Kind: "i64", Args: []int{0, 0}}}, Result: []int{0}},
		{Ops: []FactOp{{Op: "const", Kind: "f32"}}, Result: []int{0}},
		{Ops: []FactOp{{Op: "frob", Kind: "bool"}}, Result: []int{0}},
		{Ops: []FactOp{{Op: "param", Kind: "i64", Index: 9}}, Result: []int{0}},
		{Ops: []FactOp{{Op: "const", Kind: "i64"}}, Result: []int{0}},
	} {
		if _, err := bad.Eval(param, [3]uint32{}, [3]uint32{}); err == nil {
			t.Errorf("Eval(%+v) gave no error", bad)
		}
	}
}
